package render

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/analysis/internal/fixture"
	"github.com/joinbench/joinbench/analysis/judge"
	"github.com/joinbench/joinbench/analysis/stats"
	"github.com/joinbench/joinbench/results"
)

// compareFixtures writes two runs and compares them.
func compareFixtures(t *testing.T, base, cand fixture.Run) *compare.Comparison {
	t.Helper()
	return fixture.Compare(t, base, cand, judge.Compare)
}

var byName = fixture.ByScenario

// compare of two runs that differ in how a change was made says, per
// endpoint, which stalled less.
func TestCompareStalls(t *testing.T) {
	parent := t.TempDir()
	toi, rsu, again := fixture.StallRun(t, parent, "toi", 1500), fixture.StallRun(t, parent, "rsu", 0), fixture.StallRun(t, parent, "toi2", 1450)
	c, err := judge.Compare([]string{toi}, []string{rsu}, compare.Options{Resamples: 100})
	if err != nil {
		t.Fatal(err)
	}
	s := c.Stalls
	if s == nil || len(s.Endpoints) != 3 {
		t.Fatalf("stalls %+v", s)
	}
	if s.Verdict != compare.LessStall || s.Endpoints[0].Verdict != compare.SameStall || s.Endpoints[1].Verdict != compare.LessStall ||
		s.Endpoints[1].BaseLongestMs < 1400 || s.Endpoints[1].CandidateLongestMs > 10 {
		t.Errorf("TOI vs RSU: %+v", s)
	}
	var b bytes.Buffer
	if err := Comparison(&b, c, "text"); err != nil || !strings.Contains(b.String(), "candidate has less stall") {
		t.Errorf("text (%v):\n%s", err, b.String())
	}
	// Reversed, more stall; the same stall twice, no change.
	if c, _ := judge.Compare([]string{rsu}, []string{toi}, compare.Options{Resamples: 100}); c.Stalls.Verdict != compare.MoreStall {
		t.Errorf("RSU vs TOI: %s", c.Stalls.Verdict)
	}
	if c, _ := judge.Compare([]string{toi}, []string{again}, compare.Options{Resamples: 100}); c.Stalls.Verdict != compare.SameStall {
		t.Errorf("TOI vs TOI: %+v", c.Stalls)
	}
	// Runs without actions have no stall comparison.
	plain := fixture.Run{ID: "plain", Execs: []results.Execution{{Scenario: "w", Start: fixture.T0, LatencyNs: 1, Params: []string{}}}}.Write(t, parent)
	if c, _ := judge.Compare([]string{plain}, []string{rsu}, compare.Options{Resamples: 100}); c.Stalls != nil {
		t.Errorf("without actions: %+v", c.Stalls)
	}
}

// TestCompareMethods: two runs that differ by their actions (TOI against
// RSU) compare what each run's action cost its workload, against its own
// baseline: less stall, throughput kept during the action, less flow
// control. Their whole-run latency drifted (2.28x) and is shown, but fails
// nothing: compare does not exit 1 with regressions.
func TestCompareMethods(t *testing.T) {
	parent := t.TempDir()
	toi := fixture.MethodRun(t, parent, "toi", fixture.Method{Spec: "2s@node2: sql: ALTER TABLE t FORCE", StallMs: 1500, PausedNs: 800_000_000})
	rsu := fixture.MethodRun(t, parent, "rsu", fixture.Method{Spec: "2s@all: rsu: ALTER TABLE t FORCE", Latency: 2280 * time.Microsecond})
	c, err := judge.Compare([]string{toi}, []string{rsu}, compare.Options{Resamples: 100})
	if err != nil {
		t.Fatal(err)
	}
	if c.Counts[compare.Regression] == 0 {
		t.Fatalf("the whole-run latency drift is not a regression any more: %+v", c.Counts)
	}
	if c.Failed() || c.Methods == nil {
		t.Fatalf("failed %v (%v), methods %+v", c.Failed(), c.Failures, c.Methods)
	}
	m := c.Methods
	if m.Verdict != compare.CostsLess || m.Stall != compare.LessStall || len(m.Throughput) != 3 {
		t.Fatalf("methods %+v", m)
	}
	if d := m.Throughput[1]; d.Verdict != compare.LessLoss || d.BaseFraction > 0.05 || d.CandidateFraction < 0.95 || d.BaseLost < 150 {
		t.Errorf("endpoint 2: %+v", d)
	}
	if d := m.Throughput[0]; d.Verdict != compare.SameStall {
		t.Errorf("endpoint 1, which wrote all along: %+v", d)
	}
	if len(m.FlowControl) != 2 || m.FlowControl[1].Node != "node2" || m.FlowControl[1].Base != 0.8 || m.FlowControl[1].Candidate != 0 {
		t.Errorf("flow control %+v", m.FlowControl)
	}
	var b bytes.Buffer
	if err := Comparison(&b, c, "text"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"verdict:   methods (the runs differ by their actions): the candidate's actions cost the workload less",
		"whole-run latency, for information only: ", "Methods: what the actions cost", "0%→100%", "80.0%→0.0%",
		"Whole-run latency (for information"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	// The same action on both sides: a comparison of servers, as before.
	again := fixture.MethodRun(t, parent, "toi2", fixture.Method{Spec: "2s@node2: sql: ALTER TABLE t FORCE", StallMs: 1500, Latency: 2280 * time.Microsecond})
	if c, _ := judge.Compare([]string{toi}, []string{again}, compare.Options{Resamples: 100}); c.Methods != nil || !c.Failed() {
		t.Errorf("same actions: methods %+v, failed %v", c.Methods, c.Failed())
	}
}

// TestCompareOutputs checks the JSON contract and the markdown rendering
// against a golden file (go test -update rewrites it).
func TestCompareOutputs(t *testing.T) {
	base := fixture.Run{ID: "base", Execs: fixture.Gen(1, 4,
		fixture.Scen{Name: "simple_inner_index", N: 800, MedianMs: 2, Plan: "pi"},
		fixture.Scen{Name: "simple_inner_pk", N: 800, MedianMs: 1, Plan: "pk"}),
		Plans: []results.Plan{fixture.Plan("simple_inner_index", "pi", fixture.TreeIndex)}}
	cand := fixture.Run{ID: "cand", Execs: fixture.Gen(2, 4,
		fixture.Scen{Name: "simple_inner_index", N: 800, MedianMs: 5, Plan: "ps"},
		fixture.Scen{Name: "simple_inner_pk", N: 800, MedianMs: 1, Plan: "pk"}),
		Plans: []results.Plan{fixture.Plan("simple_inner_index", "ps", fixture.TreeScan)}}
	c := compareFixtures(t, base, cand)
	c.Base.Runs, c.Candidate.Runs = []string{"base"}, []string{"cand"} // temp dirs vary

	var js bytes.Buffer
	if err := Comparison(&js, c, FormatJSON); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"method", "rule", "threshold", "confidence", "base", "candidate", "scenarios", "counts"} {
		if _, ok := got[k]; !ok {
			t.Errorf("json lacks %q", k)
		}
	}
	sc := got["scenarios"].([]any)[0].(map[string]any)
	for _, k := range []string{"scenario", "verdict", "median", "p95", "p99", "plan_changed", "plan_diff", "checksums", "base", "candidate"} {
		if _, ok := sc[k]; !ok {
			t.Errorf("json scenario lacks %q", k)
		}
	}
	if sc["verdict"] != "regression" || sc["median"].(map[string]any)["ci_low"].(float64) <= 1.1 {
		t.Errorf("json scenario %v", sc)
	}
	if !strings.Contains(got["method"].(string), "bootstrap") {
		t.Errorf("method %q", got["method"])
	}

	var md bytes.Buffer
	if err := Comparison(&md, c, FormatMarkdown); err != nil {
		t.Fatal(err)
	}
	golden(t, "compare.md", md.Bytes())
	if err := Comparison(&md, c, "svg"); err == nil {
		t.Error("compare accepted svg")
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output (go test -update rewrites it):\n%s", path, got)
	}
}

var update = flag.Bool("update", false, "rewrite golden files")

// TestCompareSkipsChecksumsOfRunsThatWrote: when a run modified data, rows
// legitimately differ between runs, so different checksums must not be
// reported as wrong results; the comparison says why it did not check.
func TestCompareSkipsChecksumsOfRunsThatWrote(t *testing.T) {
	other := func(k int) string { return "after-writes-" + strconv.Itoa(k) }
	base := fixture.Run{ID: "b", Execs: fixture.Gen(6, 5, fixture.Scen{Name: "reads", N: 400, MedianMs: 1, Plan: "x"})}
	cand := fixture.Run{ID: "c", Execs: fixture.Gen(7, 5, fixture.Scen{Name: "reads", N: 400, MedianMs: 1, Plan: "x", Checksum: other}),
		Info: &results.Run{RunID: "c", ServerVersion: "10.11.6-MariaDB", Flavor: "mariadb", WriteScenarios: []string{"index_updates"}}}
	c := compareFixtures(t, base, cand)
	r := byName(c)["reads"]
	if r.Verdict == compare.WrongResults || r.Checksums.Compared != 0 || c.Failed() {
		t.Errorf("reads: %s %+v, failed %v: checksums of a run that wrote must not be compared", r.Verdict, r.Checksums, c.Failed())
	}
	if !strings.Contains(c.ChecksumsSkipped, "index_updates") {
		t.Errorf("ChecksumsSkipped = %q, want the reason naming the write scenario", c.ChecksumsSkipped)
	}
	var text strings.Builder
	if err := Comparison(&text, c, "text"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "result checksums not compared") {
		t.Errorf("the text output does not say checksums were skipped:\n%s", text.String())
	}
}

// A scenario measured on one side only fails the comparison (issue 12:
// "43 only in base" passed a CI gate), unless AllowMissing.
func TestCompareUnmeasuredFails(t *testing.T) {
	dir := t.TempDir()
	b := fixture.Run{ID: "b", Execs: fixture.Gen(8, 2,
		fixture.Scen{Name: "gone", N: 100, MedianMs: 1},
		fixture.Scen{Name: "broken", N: 100, MedianMs: 1},
		fixture.Scen{Name: "fixed", N: 100, MedianMs: 1, ErrEvery: 1, ErrCode: 1146},
		fixture.Scen{Name: "always_fails", N: 100, MedianMs: 1, ErrEvery: 1, ErrCode: 1146},
		fixture.Scen{Name: "same", N: 100, MedianMs: 1})}.Write(t, dir)
	c := fixture.Run{ID: "c", Execs: fixture.Gen(9, 2,
		fixture.Scen{Name: "new", N: 100, MedianMs: 1},
		fixture.Scen{Name: "broken", N: 3, MedianMs: 1, ErrEvery: 1, ErrCode: 1146},
		fixture.Scen{Name: "fixed", N: 100, MedianMs: 1},
		fixture.Scen{Name: "always_fails", N: 100, MedianMs: 1, ErrEvery: 1, ErrCode: 1146},
		fixture.Scen{Name: "same", N: 100, MedianMs: 1})}.Write(t, dir)

	cmp, err := judge.Compare([]string{b}, []string{c}, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := byName(cmp)
	want := map[string]string{"gone": results.SideCandidate, "broken": results.SideCandidate, "new": results.SideBase, "fixed": results.SideBase}
	for name, sc := range s {
		if sc.Unmeasured != want[name] {
			t.Errorf("%s (%s): unmeasured %q, want %q", name, sc.Verdict, sc.Unmeasured, want[name])
		}
	}
	if s["gone"].Verdict != compare.OnlyInBase || s["new"].Verdict != compare.OnlyInCandidate {
		t.Errorf("verdicts gone %q, new %q", s["gone"].Verdict, s["new"].Verdict)
	}
	if r := strings.Join(s["broken"].Reasons, "; "); !strings.Contains(r, "not measured in the candidate: all 3 of its executions failed") {
		t.Errorf("broken: reasons %q", r)
	}
	// broken's error rate rose from 0 to 100%: a regression with or
	// without AllowMissing.
	if s["broken"].Verdict != compare.Regression {
		t.Errorf("broken: verdict %q, want regression", s["broken"].Verdict)
	}
	if !cmp.Failed() || cmp.Pass || strings.Join(cmp.Failures, ", ") != "1 regression(s), 4 scenario(s) measured on one side only (--allow-missing accepts them)" {
		t.Errorf("failed %v pass %v failures %q", cmp.Failed(), cmp.Pass, cmp.Failures)
	}
	var text bytes.Buffer
	if err := Comparison(&text, cmp, FormatText); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "; FAILS: 4 scenario(s) measured on one side only") {
		t.Errorf("verdict line:\n%s", text.String())
	}

	cmp, err = judge.Compare([]string{b}, []string{c}, compare.Options{AllowMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Failed() || cmp.Pass || strings.Join(cmp.Failures, ", ") != "1 regression(s)" || !cmp.AllowMissing {
		t.Errorf("with AllowMissing: failed %v pass %v failures %q", cmp.Failed(), cmp.Pass, cmp.Failures)
	}
	text.Reset()
	if err := Comparison(&text, cmp, FormatText); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "; 4 scenario(s) measured on one side only, accepted (--allow-missing)") {
		t.Errorf("verdict line with AllowMissing:\n%s", text.String())
	}
}

// A run that failed, or whose files hold fewer executions than run.json
// counts, is compared with warnings; so is a round that recorded nothing.
func TestCompareWarnsAboutIncompleteRuns(t *testing.T) {
	dir := t.TempDir()
	base := fixture.Run{ID: "base", Execs: fixture.Gen(1, 2, fixture.Scen{Name: "a", N: 100, MedianMs: 1})}.Write(t, dir)
	cand := fixture.Run{ID: "cand", Hosts: 1, Execs: fixture.Gen(2, 2, fixture.Scen{Name: "a", N: 100, MedianMs: 1}),
		Info: &results.Run{RunID: "cand", ClientHost: "client0", Start: fixture.T0, End: fixture.T0.Add(time.Second), Error: "write results: no space left on device", Executions: 400},
	}.Write(t, dir)
	empty := filepath.Join(dir, "run=empty")
	if err := os.MkdirAll(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	fixture.WriteRunJSON(t, empty, &results.Run{RunID: "empty", ServerVersion: "10.11.6-MariaDB", Start: fixture.T0, End: fixture.T0.Add(time.Second)})

	var warned []string
	c, err := judge.Compare([]string{base}, []string{cand, empty}, compare.Options{Warn: func(err error) { warned = append(warned, err.Error()) }})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(c.Warnings, "\n")
	for _, want := range []string{
		"the run failed: write results: no space left on device",
		"run.json counts 400 executions but the files hold 100: 300 (75.0%) are missing",
		"candidate: no readable executions in " + empty,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
	if strings.Join(warned, "\n") != all {
		t.Errorf("Warn saw %q, the comparison holds %q", warned, c.Warnings)
	}
	var js bytes.Buffer
	if err := Comparison(&js, c, FormatJSON); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), "no space left on device") {
		t.Errorf("json lacks the warning:\n%s", js.String())
	}
}

func TestRoundsOutputs(t *testing.T) {
	base, cand := fixture.RoundsSeries(t, t.TempDir(), "s3", 3, map[string]float64{"x": 3}, fixture.Scen{Name: "x", N: 100, MedianMs: 5, Plan: "p"})
	c, err := judge.Compare(base, cand, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var js bytes.Buffer
	if err := Comparison(&js, c, FormatJSON); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Base      map[string]any   `json:"base"`
		Scenarios []map[string]any `json:"scenarios"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Base["rounds"] != 3.0 {
		t.Errorf("json base %v", got.Base)
	}
	for _, k := range []string{"method", "base_rounds", "candidate_rounds", "base_executions", "candidate_executions", "bound"} {
		if _, ok := got.Scenarios[0][k]; !ok {
			t.Errorf("json scenario lacks %q: %v", k, got.Scenarios[0])
		}
	}
	for _, format := range []string{FormatText, FormatMarkdown} {
		var out bytes.Buffer
		if err := Comparison(&out, c, format); err != nil {
			t.Fatal(err)
		}
		line := ""
		for _, l := range strings.Split(out.String(), "\n") {
			if strings.HasPrefix(strings.TrimPrefix(l, "| "), "x ") {
				line = l
			}
		}
		if !strings.Contains(line, "3/3") || !strings.Contains(line, "300/300") || !strings.Contains(line, "paired t") {
			t.Errorf("%s verdict line lacks rounds, executions or method: %q", format, line)
		}
	}
}

// TestOverallCatchesUniformSlowdown: a 1.3x slowdown of every scenario,
// each scenario too noisy alone to show it, shows in the geometric mean
// over scenarios, and fails the comparison; A/A it does not.
func TestOverallCatchesUniformSlowdown(t *testing.T) {
	var scs []fixture.Scen
	slow := map[string]float64{}
	for i := range 12 {
		name := fmt.Sprintf("s%02d", i)
		scs = append(scs, fixture.Scen{Name: name, N: 30, MedianMs: float64(5 + i), Sigma: 0.6, Plan: "p"})
		slow[name] = 1.3
	}
	dir := t.TempDir()
	base, cand := fixture.RoundsSeries(t, filepath.Join(dir, "ab"), "ab", 6, slow, scs...)
	c, err := judge.Compare(base, cand, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := c.Overall
	if o == nil || o.Verdict != compare.Regression || o.Method != compare.MethodPaired || o.Median.Ratio < 1.15 || o.Median.Ratio > 1.45 || !c.Failed() {
		t.Fatalf("overall %+v, failed %v", o, c.Failed())
	}
	if n := c.Counts[compare.Regression]; n > 6 {
		t.Errorf("%d of 12 noisy scenarios flagged alone: the test does not need the overall row", n)
	}
	var text bytes.Buffer
	if err := Comparison(&text, c, FormatText); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "all scenarios: regression") || !strings.Contains(text.String(), compare.OverallName+"  ") {
		t.Errorf("text lacks the overall verdict:\n%s", text.String())
	}

	aaBase, aaCand := fixture.RoundsSeries(t, filepath.Join(dir, "aa"), "aa", 6, nil, scs...)
	aa, err := judge.Compare(aaBase, aaCand, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if aa.Overall == nil || aa.Overall.Verdict != compare.NoChange || aa.Failed() {
		t.Errorf("A/A overall %+v", aa.Overall)
	}
	// Single runs: no overall verdict.
	one, err := judge.Compare(base[:1], cand[:1], compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if one.Overall != nil {
		t.Errorf("single runs got an overall verdict %+v", one.Overall)
	}
}

func TestRatioText(t *testing.T) {
	for iv, want := range map[stats.Interval]string{
		{Ratio: 1.234, Low: 0.9, High: 1.5}:        "1.23 [0.90, 1.50]",
		{Ratio: 0.8, Low: 2.49e-11, High: 2.59e10}: "0.80 [2.49e-11, 2.59e+10]",
		{Ratio: 1500, Low: 999.99, High: 0}:        "1.5e+03 [999.99, 0.00]",
	} {
		if got := ratioText(&iv); got != want {
			t.Errorf("ratioText(%+v) = %q, want %q", iv, got, want)
		}
	}
}
