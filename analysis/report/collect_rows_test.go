package report

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/analysis/internal/fixture"
	"github.com/joinbench/joinbench/analysis/metrics"
	"github.com/joinbench/joinbench/results"
)

// execution is an executions row as report read it before it read by
// columns: the reference the column path must agree with.
type execution struct {
	Scenario      string    `parquet:"scenario,dict"`
	TemplateHash  string    `parquet:"template_hash,dict"`
	Start         time.Time `parquet:"start_time,timestamp(nanosecond)"`
	IntendedStart time.Time `parquet:"intended_start,optional,timestamp(nanosecond)"` // zero when unpaced
	LatencyNs     int64     `parquet:"latency_ns"`
	Rows          int64     `parquet:"rows"`
	ErrorCode     int32     `parquet:"error_code"`
	PlanHash      string    `parquet:"plan_hash,dict,optional"`
	Params        []string  `parquet:"params,list"`
	Checksum      string    `parquet:"result_checksum,optional"`
}

// addRow is how a row was accumulated, one at a time; ref is where it is.
func (r *runAcc) addRow(e *execution, ref results.RowRef) {
	a := r.scenarios[e.Scenario]
	if a == nil {
		a = newScenarioAcc(strings.Clone(e.Scenario))
		r.scenarios[a.name] = a
	}
	var me metrics.Execution
	me.Start, me.IntendedStart = e.Start, e.IntendedStart
	me.LatencyNs, me.Rows, me.ErrorCode = e.LatencyNs, e.Rows, e.ErrorCode
	a.m.Add(&me)
	failed := e.ErrorCode != 0
	if !failed {
		if e.PlanHash != "" {
			a.plans[e.PlanHash]++
		}
	}
	if e.TemplateHash != "" {
		a.templates[e.TemplateHash] = true
	}
	a.tl.add(e.Start, e.LatencyNs, failed, 0)
	if r.timelines {
		if e.LatencyNs > a.slow.floor {
			a.slow.offer(slowRow{latency: e.LatencyNs, start: e.Start.UnixNano(), code: e.ErrorCode, plan: e.PlanHash, ref: ref})
		}
		if failed {
			a.firstErr.add(e.ErrorCode, e.Start.UnixNano(), ref)
		}
	}
	if r.checks && e.ErrorCode == 0 && e.Checksum != "" {
		a.checks.add(e.Params, e.Checksum, e.Rows)
		if r.onChecksum != nil {
			r.onChecksum(a, e.Params, e.Checksum)
		}
	}
}

func scanRunByRows(r *runAcc, dir string, warn results.Warner) (int, error) {
	refs := rowRefs(dir)
	n := 0
	return results.ScanExecutionsAs(dir, warn, func(e *execution) error {
		r.addRow(e, refs[n])
		n++
		return nil
	})
}

// rowRefs are the places of a run's rows in the order a scan reads them
// (of readable files: the fixtures have no other).
func rowRefs(dir string) []results.RowRef {
	paths, _ := results.ExecutionFiles(dir)
	var refs []results.RowRef
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		st, _ := f.Stat()
		if pf, err := parquet.OpenFile(f, st.Size()); err == nil {
			for g, rg := range pf.RowGroups() {
				for row := range int(rg.NumRows()) {
					refs = append(refs, results.RowRef{File: p, Group: g, Row: row})
				}
			}
		}
		f.Close()
	}
	return refs
}

// roundRow is the part of an executions row that rounds read.
type roundRow struct {
	Scenario  string    `parquet:"scenario,dict"`
	Start     time.Time `parquet:"start_time,timestamp(nanosecond)"`
	LatencyNs int64     `parquet:"latency_ns"`
	ErrorCode int32     `parquet:"error_code"`
	CutAtEnd  bool      `parquet:"cut_at_end,optional"`
}

func scanRoundByRows(dir string, s roundScan) error {
	_, err := results.ScanExecutionsAs(dir, nil, func(e *roundRow) error {
		if e.CutAtEnd {
			s.cut(e.Start.UnixNano(), e.LatencyNs)
		} else {
			s.execution(e.Scenario, e.Start.UnixNano(), e.LatencyNs, e.ErrorCode)
		}
		return nil
	})
	return err
}

// byRows runs f with runs read row by row, as before the column reader.
func byRows(f func()) {
	saved, savedRounds := scanRun, scanRound
	scanRun, scanRound = scanRunByRows, scanRoundByRows
	defer func() { scanRun, scanRound = saved, savedRounds }()
	f()
}

// shuffledRun is a run of many scenarios interleaved in time, over several
// client files of several row groups, with failures, paced rows, rows
// without a plan, and a long enough span that timelines coarsen.
func shuffledRun(id string, seed uint64, slower float64) fixture.Run {
	var scs []fixture.Scen
	for i := range 12 {
		scs = append(scs, fixture.Scen{Name: "s" + string(rune('a'+i)), N: 150 + 25*i, MedianMs: (1 + float64(i)) * slower,
			Plan: "p" + string(rune('a'+i%3)), ErrEvery: []int{0, 7, 0, 50}[i%4], ErrCode: 1213})
	}
	// more rows than a round's latency sample keeps, and a wrong result in
	// the candidate
	scs = append(scs, fixture.Scen{Name: "big", N: roundSampleCap + 500, MedianMs: 3 * slower, Plan: "pb", Checksum: func(k int) string {
		if k == 5 && slower != 1 {
			return "different"
		}
		return "sum-big-" + string(rune('a'+k))
	}})
	execs := fixture.Gen(seed, 1500, scs...) // 1500 s: timelines of more than 600 one-second buckets
	rng := rand.New(rand.NewPCG(seed, 99))
	rng.Shuffle(len(execs), func(i, j int) { execs[i], execs[j] = execs[j], execs[i] })
	for i := range execs {
		if i%5 == 0 {
			is := execs[i].Start.Add(-time.Duration(i%300) * time.Microsecond)
			execs[i].IntendedStart = &is
		}
		if i%11 == 0 && execs[i].ErrorCode == 0 {
			execs[i].PlanHash = ""
		}
	}
	return fixture.Run{ID: id, Execs: execs, Hosts: 3, Plans: []results.Plan{fixture.Plan("sa", "pa", "-> scan")}}
}

func sameJSON(t *testing.T, what string, byColumns, byRows any) {
	t.Helper()
	a, err := json.MarshalIndent(byColumns, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(byRows, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != string(b) {
		t.Errorf("%s by columns differs from %s row by row:\n%s", what, what, compare.LineDiff(string(b), string(a)))
	}
}

// TestColumnsGiveTheSameReport: the report read by columns, files in
// parallel, is the report read row by row, to the last digit.
func TestColumnsGiveTheSameReport(t *testing.T) {
	dir := shuffledRun("r", 1, 1).Write(t, t.TempDir())
	got, err := Build([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var want *Report
	byRows(func() { want, err = Build([]string{dir}, Options{}) })
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Runs[0].Scenarios) != 13 || got.Runs[0].Files != 3 || len(got.Runs[0].Timeline) < 300 {
		t.Fatalf("fixture: %d scenarios, %d files, %d points", len(got.Runs[0].Scenarios), got.Runs[0].Files, len(got.Runs[0].Timeline))
	}
	sameJSON(t, "report", got, want)
}

// TestColumnsGiveTheSameComparison: the same for what a comparison reads
// (analysis/judge's Compare), samples and checksums included, of single
// runs, of rounds, and of runs in lockstep.
func TestColumnsGiveTheSameComparison(t *testing.T) {
	parent := t.TempDir()
	b1, b2 := shuffledRun("b1", 1, 1).Write(t, parent), shuffledRun("b2", 2, 1).Write(t, parent)
	c1, c2 := shuffledRun("c1", 3, 1.3).Write(t, parent), shuffledRun("c2", 4, 1.3).Write(t, parent)
	scs := []fixture.Scen{{Name: "slower", N: 100, MedianMs: 5, Plan: "p"}, {Name: "same", N: 100, MedianMs: 5, Plan: "p"}}
	slow := map[string]float64{"slower": 1.3}
	lb := fixture.LockstepSide(t, parent, results.SideBase, 6, slow, scs...)
	lc := fixture.LockstepSide(t, parent, results.SideCandidate, 6, slow, scs...)
	for i, sides := range [][2][]string{{{b1}, {c1}}, {{b1, b2}, {c1, c2}}, {{lb}, {lc}}} {
		got := readComparison(t, sides[0], sides[1])
		var want *comparisonRead
		byRows(func() { want = readComparison(t, sides[0], sides[1]) })
		if s := byScenario(got.Scenarios)["big"]; i < 2 && (s.Checksums.Mismatched != 1 || len(s.Checksums.Examples) != 1) {
			t.Fatalf("fixture: checksums of big %+v", s.Checksums)
		}
		if s := byScenario(got.Scenarios)["slower"]; i == 2 && (s.BaseRounds != 6 || s.Median == nil) {
			t.Fatalf("fixture: slower over %d rounds, median %+v", s.BaseRounds, s.Median)
		}
		sameJSON(t, "comparison", got, want)
	}
}

// comparisonRead is what a comparison reads of its two sides, each
// scenario judged by the rule as analysis/judge's Compare judges it.
type comparisonRead struct {
	Base, Candidate compare.Side
	Rounds          *compare.Rounds
	Activity        [2]compare.RoundActivity
	Scenarios       []compare.ScenarioComparison
}

// readComparison reads two sides as analysis/judge's Compare does, through
// the readers report gives it, and judges each scenario.
func readComparison(t *testing.T, baseDirs, candDirs []string) *comparisonRead {
	t.Helper()
	opt := compare.Options{}.WithDefaults()
	c := compare.New(opt)
	base, cand, err := ReadSides(baseDirs, candDirs, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	examples, err := ChecksumExamples(candDirs, base, cand)
	if err != nil {
		t.Fatal(err)
	}
	names := ScenarioNames(base, cand)
	rounds, err := ReadRounds(baseDirs, candDirs, names, opt.Seed)
	if err != nil {
		t.Fatal(err)
	}
	j := compare.NewJudge(opt, len(names), rounds)
	out := &comparisonRead{Base: c.Base, Candidate: c.Candidate, Rounds: rounds}
	for _, n := range names {
		out.Scenarios = append(out.Scenarios, j.Scenario(ScenarioInput(n, base, cand, examples[n], true, rounds)))
	}
	out.Activity = [2]compare.RoundActivity{base.Activity(), cand.Activity()}
	return out
}

// byScenario is judged scenarios by name.
func byScenario(judged []compare.ScenarioComparison) map[string]compare.ScenarioComparison {
	m := map[string]compare.ScenarioComparison{}
	for _, s := range judged {
		m[s.Scenario] = s
	}
	return m
}
