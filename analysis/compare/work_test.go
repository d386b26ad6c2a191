package compare

import (
	"encoding/json"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/results"
	"github.com/joinbench/joinbench/work"
)

// recorded reads a recorded ANALYZE output of package work's test data.
func recorded(t *testing.T, name string) results.Work {
	t.Helper()
	b, err := os.ReadFile("../../work/testdata/mariadb/" + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	w, err := work.ParseMariaDBAnalyze(string(b))
	if err != nil {
		t.Fatal(err)
	}
	return *w
}

// samples are n samples of one scenario, keyed as the engine keys them.
func samples(w results.Work, scenario string, n int) []results.Work {
	out := make([]results.Work, n)
	for i := range out {
		out[i] = w.Clone()
		out[i].Scenario, out[i].Thread, out[i].Event, out[i].Params = scenario, int32(i%2), int64(i/2), []string{"main1", "Asia"}
	}
	return out
}

func judgeWorkOf(t *testing.T, base, cand results.Work, verdict string) ScenarioComparison {
	t.Helper()
	j := NewJudge(Options{}.WithDefaults(), 1, nil)
	pairs := PairWork(samples(base, "s", 6), samples(cand, "s", 6))
	sc := ScenarioComparison{Scenario: "s", Verdict: verdict}
	j.judgeWork(&sc, pairs["s"])
	if sc.Work == nil || sc.Work.Pairs != 6 {
		t.Fatalf("work %+v", sc.Work)
	}
	return sc
}

// A/A: the same work, every ratio exactly 1, the verdict left alone.
func TestWorkSame(t *testing.T) {
	w := recorded(t, "simple_inner_index")
	sc := judgeWorkOf(t, w, w, NoChange)
	if sc.Verdict != NoChange || sc.Work.Change != WorkSame || len(sc.Reasons) != 0 {
		t.Errorf("%s %q %+v", sc.Verdict, sc.Reasons, sc.Work)
	}
	for _, f := range sc.Work.Figures {
		if f.Ratio != 1 {
			t.Errorf("%s ratio %v", f.Name, f.Ratio)
		}
	}
}

// The regression: level1 loses idx_parent_id. A regression with a
// single round, whatever the time said, and the line names level1 and the
// index.
func TestWorkDroppedIndex(t *testing.T) {
	sc := judgeWorkOf(t, recorded(t, "simple_inner_index"), recorded(t, "simple_inner_index_no_idx_parent_id"), NoChange)
	if sc.Verdict != Regression || sc.Work.Change != WorkMore {
		t.Fatalf("%s %+v", sc.Verdict, sc.Work)
	}
	why := sc.Reasons[0]
	for _, want := range []string{"pages/exec 13,341 → 26,717 (2.00x)", "index lookups/exec 2,858 → 6,601 (2.31x)", "level1: ", "ref on idx_parent_id"} {
		if !strings.Contains(why, want) {
			t.Errorf("reason %q lacks %q", why, want)
		}
	}
	if l := sc.Work.Largest(); l == nil || l.Name != "lookups" {
		t.Errorf("largest %+v", l)
	}
	// A block nested loop: fewer pages, millions of rows compared.
	sc = judgeWorkOf(t, recorded(t, "simple_left_index"), recorded(t, "simple_left_index_no_idx_parent_id"), NoChange)
	if sc.Verdict != Regression || !strings.Contains(sc.Reasons[0], "BNL join buffer") {
		t.Errorf("%s %q", sc.Verdict, sc.Reasons)
	}
	// Wrong results stay wrong results.
	if sc := judgeWorkOf(t, recorded(t, "simple_inner_index"), recorded(t, "simple_inner_index_no_idx_parent_id"), WrongResults); sc.Verdict != WrongResults {
		t.Errorf("%s", sc.Verdict)
	}
}

// Less work is an improvement where the time said no change, and does not
// hide a time regression.
func TestWorkLess(t *testing.T) {
	sc := judgeWorkOf(t, recorded(t, "simple_inner_index_no_idx_parent_id"), recorded(t, "simple_inner_index"), NoChange)
	if sc.Verdict != Improvement || sc.Work.Change != WorkLess {
		t.Errorf("%s %+v", sc.Verdict, sc.Work)
	}
	if sc := judgeWorkOf(t, recorded(t, "simple_inner_index_no_idx_parent_id"), recorded(t, "simple_inner_index"), Regression); sc.Verdict != Regression {
		t.Errorf("time regression with less work: %s", sc.Verdict)
	}
}

// A figure grows past the bound only by WorkMinDelta per execution too.
func TestWorkSmallCounts(t *testing.T) {
	b := results.Work{Source: results.SourceSessionStatus, RowsExamined: work.Counter(2), HandlerReadKey: work.Counter(1), RowsChanged: work.Counter(1)}
	c := results.Work{Source: results.SourceSessionStatus, RowsExamined: work.Counter(6), HandlerReadKey: work.Counter(1), RowsChanged: work.Counter(1)}
	sc := judgeWorkOf(t, b, c, NoChange)
	if sc.Verdict != NoChange || sc.Work.Change != WorkSame {
		t.Errorf("2 → 6 rows: %s %+v", sc.Verdict, sc.Work)
	}
	c.RowsExamined = work.Counter(400)
	if sc := judgeWorkOf(t, b, c, NoChange); sc.Verdict != Regression || !strings.Contains(sc.Reasons[0], "rows examined/exec 2 → 400 (200.00x)") {
		t.Errorf("2 → 400 rows: %s %q", sc.Verdict, sc.Reasons)
	}
}

// Samples pair on their key and values only, errors and other sources
// left out.
func TestPairWork(t *testing.T) {
	w := recorded(t, "simple_inner_index")
	base := samples(w, "s", 4)
	cand := samples(w, "s", 4)
	cand[1].Params = []string{"main1", "Europe"} // other values: not the same execution
	cand[2].Error = "lost"
	cand[3].Source = results.SourceSessionStatus
	base = append(base, samples(w, "s", 1)...) // a second round's sample of key 0
	p := PairWork(base, cand)["s"]
	if p == nil || len(p.Base) != 1 || p.Base[0].Event != 0 || p.Candidate[0].Event != 0 {
		t.Errorf("pairs %+v", p)
	}
	if math.Abs(float64(len(PairWork(nil, cand)))) != 0 {
		t.Error("pairs without a base")
	}
}

// Work is compared only when both sides ran the same statements with the
// same values on data they did not change; otherwise the comparison says
// why not.
func TestWorkComparable(t *testing.T) {
	run := func(seed uint64, writes ...string) *results.Run {
		return &results.Run{RunID: "r", Options: &results.RunOptions{Seed: seed, Tables: 1, TableSize: 20000, TableName: "main"}, WriteScenarios: writes}
	}
	data := func(seed uint64, sample string) *results.Run {
		r := run(1)
		r.Dataset = &results.Dataset{Tables: 1, TableName: "main", TableSize: 20000, Seed: seed, Sample: sample}
		return r
	}
	for _, c := range []struct {
		base, cand []*results.Run
		nb, nc     int
		want       string
	}{
		{[]*results.Run{run(1)}, []*results.Run{run(1)}, 10, 10, ""},
		{[]*results.Run{run(1)}, []*results.Run{run(1)}, 0, 10, "the base recorded no work samples"},
		{[]*results.Run{run(1)}, []*results.Run{run(1)}, 0, 0, "neither side"},
		{[]*results.Run{run(1)}, []*results.Run{run(7)}, 10, 10, "different --seed (1 and 7)"},
		{[]*results.Run{run(1)}, []*results.Run{run(1, "index_updates")}, 10, 10, "the runs wrote (index_updates)"},
		{[]*results.Run{data(1, "a")}, []*results.Run{data(1, "a")}, 10, 10, ""},
		{[]*results.Run{data(1, "a")}, []*results.Run{data(1, "b")}, 10, 10, "the data changed since it was prepared"},
		{[]*results.Run{data(1, "a")}, []*results.Run{data(3, "a")}, 10, 10, "the runs ran on different data (seed 1 vs 3)"},
		{[]*results.Run{data(1, "a")}, []*results.Run{run(1)}, 10, 10, "records no dataset"},
	} {
		if got := WorkComparable(c.base, c.cand, c.nb, c.nc); c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

// A figure grown from 0 has no finite ratio: JSON has it as null, and
// reads it back as infinite.
func TestWorkFigureJSON(t *testing.T) {
	in := []WorkFigure{{Name: "compared", Base: 0, Candidate: 5e7, Ratio: math.Inf(1), Change: WorkMore}, {Name: "pages", Base: 2, Candidate: 4, Ratio: 2}}
	b, err := json.Marshal(in)
	if err != nil || !strings.Contains(string(b), `"ratio":null`) {
		t.Fatalf("%s, %v", b, err)
	}
	var out []WorkFigure
	if err := json.Unmarshal(b, &out); err != nil || !reflect.DeepEqual(in, out) {
		t.Errorf("%+v, %v", out, err)
	}
}

// TestWorkLargestFollowsTheChange: the summary of a scenario with more
// work names the figure that grew, not a larger fall beside it (derived
// tables materialized: rows examined 17x, lookups down to 1).
func TestWorkLargestFollowsTheChange(t *testing.T) {
	wc := &WorkComparison{Change: WorkMore, Figures: []WorkFigure{
		{Name: "rows_examined", Base: 5745, Candidate: 100958, Ratio: 17.57, Change: WorkMore},
		{Name: "lookups", Base: 4789, Candidate: 1, Ratio: 1.0 / 4789, Change: WorkLess},
	}}
	if l := wc.Largest(); l == nil || l.Name != "rows_examined" {
		t.Errorf("largest of more work: %+v", l)
	}
	wc.Change = WorkLess
	wc.Figures[0].Change = WorkSame
	if l := wc.Largest(); l == nil || l.Name != "lookups" {
		t.Errorf("largest of less work: %+v", l)
	}
}
