package judge

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/analysis/internal/fixture"
	"github.com/joinbench/joinbench/results"
)

func compareFixtures(t *testing.T, base, cand fixture.Run) *compare.Comparison {
	t.Helper()
	return fixture.Compare(t, base, cand, Compare)
}

var byName = fixture.ByScenario

func TestCompareRegressionAndNoise(t *testing.T) {
	base := fixture.Run{ID: "base", Execs: fixture.Gen(1, 10,
		fixture.Scen{Name: "simple_inner_index", N: 3000, MedianMs: 2, Plan: "pi"},
		fixture.Scen{Name: "simple_inner_pk", N: 3000, MedianMs: 1, Plan: "pk"},
		fixture.Scen{Name: "simple_left_pk", N: 3000, MedianMs: 4, Plan: "lk"},
	), Plans: []results.Plan{fixture.Plan("simple_inner_index", "pi", fixture.TreeIndex)}}
	cand := fixture.Run{ID: "cand", Execs: fixture.Gen(2, 10,
		fixture.Scen{Name: "simple_inner_index", N: 3000, MedianMs: 6, Plan: "ps"}, // 3x slower, new plan
		fixture.Scen{Name: "simple_inner_pk", N: 3000, MedianMs: 1.03, Plan: "pk"}, // noise, within threshold
		fixture.Scen{Name: "simple_left_pk", N: 3000, MedianMs: 2.5, Plan: "lk"},   // faster
	), Plans: []results.Plan{fixture.Plan("simple_inner_index", "ps", fixture.TreeScan)}}
	c := compareFixtures(t, base, cand)
	s := byName(c)

	reg := s["simple_inner_index"]
	if reg.Verdict != compare.Regression {
		t.Fatalf("simple_inner_index: verdict %q, want regression (%+v)", reg.Verdict, reg)
	}
	if reg.Median.Ratio < 2.5 || reg.Median.Ratio > 3.5 || reg.Median.Low > reg.Median.Ratio || reg.Median.High < reg.Median.Ratio {
		t.Errorf("median ratio %+v, want about 3 inside its interval", reg.Median)
	}
	if !reg.PlanChanged || !strings.Contains(reg.PlanDiff, "-         -> Index lookup on level1") ||
		!strings.Contains(reg.PlanDiff, "+         -> Table scan on level1") || !strings.Contains(reg.PlanDiff, "  -> Limit: 100") {
		t.Errorf("plan diff:\n%s", reg.PlanDiff)
	}
	if v := s["simple_inner_pk"].Verdict; v != compare.NoChange {
		t.Errorf("simple_inner_pk: verdict %q, want no change (%+v)", v, s["simple_inner_pk"].Median)
	}
	if s["simple_inner_pk"].PlanChanged {
		t.Error("simple_inner_pk: plan reported changed")
	}
	if v := s["simple_left_pk"].Verdict; v != compare.Improvement {
		t.Errorf("simple_left_pk: verdict %q, want improvement", v)
	}
	if !c.Failed() || c.Counts[compare.Regression] != 1 {
		t.Errorf("counts %v", c.Counts)
	}
	if s["simple_inner_pk"].Checksums.Compared != 17 || s["simple_inner_pk"].Checksums.Mismatched != 0 {
		t.Errorf("checksums %+v", s["simple_inner_pk"].Checksums)
	}
}

func TestCompareRunWithItself(t *testing.T) {
	r := fixture.Run{ID: "same", Execs: fixture.Gen(3, 5,
		fixture.Scen{Name: "a", N: 500, MedianMs: 1, Sigma: 0.8, Plan: "x"},
		fixture.Scen{Name: "b", N: 2000, MedianMs: 10, Plan: "y", ErrEvery: 10, ErrCode: 1205},
		fixture.Scen{Name: "c", N: 40, MedianMs: 3, Plan: "z"},
	)}
	dir := r.Write(t, t.TempDir())
	c, err := Compare([]string{dir}, []string{dir}, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range c.Scenarios {
		if s.Verdict != compare.NoChange || s.PlanChanged || s.Median.Ratio != 1 || s.Median.Low > 1 || s.Median.High < 1 {
			t.Errorf("%s: %s %+v plan changed %v", s.Scenario, s.Verdict, s.Median, s.PlanChanged)
		}
		if s.Errors != nil && (s.Errors.Increased || s.Errors.Decreased) {
			t.Errorf("%s: error rate change %+v", s.Scenario, s.Errors)
		}
	}
	if c.Failed() {
		t.Error("a run compared with itself failed")
	}
}

func TestCompareChecksumMismatch(t *testing.T) {
	base := fixture.Run{ID: "b", Execs: fixture.Gen(4, 5,
		fixture.Scen{Name: "wrong", N: 400, MedianMs: 1, Plan: "x"},
		// nondeterministic in the base: parameter set 3 gives two results
		fixture.Scen{Name: "flaky", N: 400, MedianMs: 1, Plan: "x", Checksum: func(k int) string {
			if k == 3 {
				flakyCalls++
				return "varies-" + strconv.Itoa(flakyCalls%2)
			}
			return "ok"
		}},
	)}
	cand := fixture.Run{ID: "c", Execs: fixture.Gen(5, 5,
		fixture.Scen{Name: "wrong", N: 400, MedianMs: 1, Plan: "x", Checksum: func(k int) string {
			if k == 5 {
				return "different"
			}
			return "sum-wrong-" + strconv.Itoa(k)
		}},
		fixture.Scen{Name: "flaky", N: 400, MedianMs: 1, Plan: "x", Checksum: func(k int) string {
			if k == 3 {
				return "other"
			}
			return "ok"
		}},
	)}
	c := compareFixtures(t, base, cand)
	s := byName(c)
	w := s["wrong"]
	if w.Verdict != compare.WrongResults || w.Checksums.Mismatched != 1 || w.Checksums.Compared != 17 {
		t.Fatalf("wrong: %s %+v", w.Verdict, w.Checksums)
	}
	if len(w.Checksums.Examples) != 1 || strings.Join(w.Checksums.Examples[0], ",") != "main1,p5" {
		t.Errorf("examples %v", w.Checksums.Examples)
	}
	if f := s["flaky"]; f.Verdict != compare.NoChange || f.Checksums.Mismatched != 0 || f.Checksums.Compared != 16 {
		t.Errorf("flaky: %s %+v (a set whose result varies within the base must be ignored)", f.Verdict, f.Checksums)
	}
	if !c.Failed() {
		t.Error("wrong results must fail the comparison")
	}
}

var flakyCalls int

func TestCompareErrorRate(t *testing.T) {
	base := fixture.Run{ID: "b", Execs: fixture.Gen(6, 5,
		fixture.Scen{Name: "deadlocky", N: 2000, MedianMs: 1, Plan: "x", ErrEvery: 200, ErrCode: 1213},
		fixture.Scen{Name: "calm", N: 2000, MedianMs: 1, Plan: "x", ErrEvery: 200, ErrCode: 1213})}
	cand := fixture.Run{ID: "c", Execs: fixture.Gen(7, 5,
		fixture.Scen{Name: "deadlocky", N: 2000, MedianMs: 1, Plan: "x", ErrEvery: 10, ErrCode: 1205},
		fixture.Scen{Name: "calm", N: 2000, MedianMs: 1, Plan: "x", ErrEvery: 180, ErrCode: 1213})}
	c := compareFixtures(t, base, cand)
	s := byName(c)
	d := s["deadlocky"]
	if d.Verdict != compare.Regression || d.Errors == nil || !d.Errors.Increased || len(d.Errors.NewCodes) != 1 || d.Errors.NewCodes[0] != 1205 {
		t.Fatalf("deadlocky: %s %+v", d.Verdict, d.Errors)
	}
	if cl := s["calm"]; cl.Verdict != compare.NoChange || cl.Errors.Increased {
		t.Errorf("calm: %s %+v", cl.Verdict, cl.Errors)
	}
}

func TestCompareMissingAndSmall(t *testing.T) {
	base := fixture.Run{ID: "b", Execs: fixture.Gen(8, 2, fixture.Scen{Name: "gone", N: 100, MedianMs: 1}, fixture.Scen{Name: "tiny", N: 5, MedianMs: 1})}
	cand := fixture.Run{ID: "c", Execs: fixture.Gen(9, 2, fixture.Scen{Name: "new", N: 100, MedianMs: 1}, fixture.Scen{Name: "tiny", N: 5, MedianMs: 9})}
	s := byName(compareFixtures(t, base, cand))
	if s["gone"].Verdict != compare.OnlyInBase || s["new"].Verdict != compare.OnlyInCandidate || s["tiny"].Verdict != compare.InsufficientData {
		t.Errorf("verdicts: %s %s %s", s["gone"].Verdict, s["new"].Verdict, s["tiny"].Verdict)
	}
}

// TestCompareWarnsOfDifferentOptions: runs made with different load or
// client options are not a like-for-like comparison; compare says which
// options differ, and nothing when they agree or when a run does not record
// an option (an older joinbench).
func TestCompareWarnsOfDifferentOptions(t *testing.T) {
	info := func(id, options string) *results.Run {
		o := new(results.RunOptions)
		if err := json.Unmarshal([]byte(options), o); err != nil {
			t.Fatal(err)
		}
		return &results.Run{RunID: id, ServerVersion: "10.11.6-MariaDB", Flavor: "mariadb", Options: o}
	}
	rows := func(seed uint64) []results.Execution {
		return fixture.Gen(seed, 5, fixture.Scen{Name: "s", N: 200, MedianMs: 1, Plan: "x"})
	}
	optionWarnings := func(c *compare.Comparison) []string {
		var out []string
		for _, w := range c.Warnings {
			if strings.Contains(w, "different options") {
				out = append(out, w)
			}
		}
		return out
	}
	same := `{"threads": 2, "exec_path": "direct", "ps_mode": "auto", "time": "10s", "seed": 1}`
	c := compareFixtures(t, fixture.Run{ID: "b", Execs: rows(10), Info: info("b", same)},
		fixture.Run{ID: "c", Execs: rows(11), Info: info("c", `{"threads": 2, "exec_path": "direct", "ps_mode": "auto", "time": "20s"}`)})
	if w := optionWarnings(c); len(w) > 0 {
		t.Errorf("warning for runs whose compared options agree (only their length differs, one does not record its seed): %q", w)
	}
	c = compareFixtures(t, fixture.Run{ID: "b", Execs: rows(10), Info: info("b", same)},
		fixture.Run{ID: "c", Execs: rows(11), Info: info("c", `{"threads": 8, "exec_path": "driver", "ps_mode": "auto", "seed": 7, "rate": 100}`)})
	w := strings.Join(optionWarnings(c), "\n")
	for _, want := range []string{"threads 2 vs 8", "exec_path direct vs driver", "seed 1 vs 7"} {
		if !strings.Contains(w, want) {
			t.Errorf("option warnings %q do not say %q", w, want)
		}
	}
	if strings.Contains(w, "rate") || strings.Contains(w, "ps_mode") {
		t.Errorf("option warnings %q name an option one run does not record, or that agrees", w)
	}
	// Options made in memory (as the run command writes them) hold every key.
	full := func(id string, threads int) *results.Run {
		return &results.Run{RunID: id, ServerVersion: "10.11.6-MariaDB", Flavor: "mariadb",
			Options: &results.RunOptions{Threads: threads, ExecPath: results.ExecDirect, Time: results.Duration(time.Second)}}
	}
	c = compareFixtures(t, fixture.Run{ID: "b", Execs: rows(10), Info: full("b", 2)}, fixture.Run{ID: "c", Execs: rows(11), Info: full("c", 4)})
	if w := strings.Join(optionWarnings(c), "\n"); !strings.Contains(w, "threads 2 vs 4") || strings.Contains(w, "exec_path") {
		t.Errorf("option warnings %q, want threads only", w)
	}
}

// TestCompareChecksumCutByLimit: a result that fills the statement's final
// LIMIT may keep other rows of a tie under another plan; such a difference
// is reported but is not wrong results. Without the LIMIT it is.
func TestCompareChecksumCutByLimit(t *testing.T) {
	differs := func(k int) string { return "other-" + strconv.Itoa(k) }
	for _, tc := range []struct {
		query string
		wrong bool
	}{
		{"SELECT m.year_field, COUNT(*) cc FROM main1 m GROUP BY m.year_field ORDER BY cc DESC LIMIT 100", false},
		{"SELECT m.year_field, COUNT(*) cc FROM main1 m GROUP BY m.year_field ORDER BY cc DESC LIMIT 500", true}, // 100 rows: not cut
		{"SELECT m.year_field, COUNT(*) cc FROM main1 m GROUP BY m.year_field", true},
	} {
		p := fixture.Plan("gb", "x", "tree")
		p.Query = tc.query
		base := fixture.Run{ID: "b", Execs: fixture.Gen(8, 5, fixture.Scen{Name: "gb", N: 300, MedianMs: 1, Plan: "x"}), Plans: []results.Plan{p}}
		cand := fixture.Run{ID: "c", Execs: fixture.Gen(9, 5, fixture.Scen{Name: "gb", N: 300, MedianMs: 1, Plan: "x", Checksum: differs}), Plans: []results.Plan{p}}
		s := byName(compareFixtures(t, base, cand))["gb"]
		if got := s.Verdict == compare.WrongResults; got != tc.wrong {
			t.Errorf("%s: verdict %s %+v, want wrong results = %v", tc.query, s.Verdict, s.Checksums, tc.wrong)
		}
		if !tc.wrong && (s.Checksums.CutByLimit != s.Checksums.Compared || !strings.Contains(strings.Join(s.Reasons, ";"), "LIMIT 100 cut")) {
			t.Errorf("%s: checksums %+v, reasons %v: the differences must be counted as cut by LIMIT and said", tc.query, s.Checksums, s.Reasons)
		}
	}
}
