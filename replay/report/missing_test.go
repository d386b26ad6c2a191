package report

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/replay/compare"
	"github.com/joinbench/joinbench/replay/internal/fixture"
	"github.com/joinbench/joinbench/replay/results"
)

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

	cmp, err := Compare([]string{b}, []string{c}, compare.Options{})
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
	if err := WriteComparison(&text, cmp, FormatText); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "; FAILS: 4 scenario(s) measured on one side only") {
		t.Errorf("verdict line:\n%s", text.String())
	}

	cmp, err = Compare([]string{b}, []string{c}, compare.Options{AllowMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Failed() || cmp.Pass || strings.Join(cmp.Failures, ", ") != "1 regression(s)" || !cmp.AllowMissing {
		t.Errorf("with AllowMissing: failed %v pass %v failures %q", cmp.Failed(), cmp.Pass, cmp.Failures)
	}
	text.Reset()
	if err := WriteComparison(&text, cmp, FormatText); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "; 4 scenario(s) measured on one side only, accepted (--allow-missing)") {
		t.Errorf("verdict line with AllowMissing:\n%s", text.String())
	}
}

// A side without one readable execution is an error whatever the options,
// and says what its run.json says went wrong.
func TestCompareSideWithoutExecutions(t *testing.T) {
	dir := t.TempDir()
	good := fixture.Run{ID: "good", Execs: fixture.Gen(1, 2, fixture.Scen{Name: "a", N: 100, MedianMs: 1})}.Write(t, dir)
	died := filepath.Join(dir, "run=died")
	if err := os.MkdirAll(died, 0o755); err != nil {
		t.Fatal(err)
	}
	fixture.WriteRunJSON(t, died, &results.Run{RunID: "died", Start: fixture.T0, End: fixture.T0.Add(time.Second), Error: "server gone", Executions: 50})
	fixture.WriteParquet(t, filepath.Join(died, "executions-client0-0.parquet"), []results.Execution{}) // finished, no row

	for _, sides := range [][2]string{{good, died}, {died, good}} {
		for _, allow := range []bool{false, true} {
			_, err := Compare([]string{sides[0]}, []string{sides[1]}, compare.Options{AllowMissing: allow})
			var ne *NoExecutionsError
			if !errors.As(err, &ne) {
				t.Fatalf("compare %s %s: err %v, want a NoExecutionsError", sides[0], sides[1], err)
			}
			wantSide := results.SideCandidate
			if sides[0] == died {
				wantSide = results.SideBase
			}
			if ne.Side != wantSide || !strings.Contains(err.Error(), "holds no readable executions") ||
				!strings.Contains(err.Error(), "the run failed: server gone") || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q (side %q)", err, ne.Side)
			}
		}
	}
	if _, _, err := Calibrate([]string{good, good}, []string{died, died}, compare.Options{}); err == nil {
		t.Error("a calibration against a side without executions must fail")
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
	fixture.WriteRunJSON(t, empty, &results.Run{RunID: "empty"})

	var warned []string
	c, err := Compare([]string{base}, []string{cand, empty}, compare.Options{Warn: func(err error) { warned = append(warned, err.Error()) }})
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
	if err := WriteComparison(&js, c, FormatJSON); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), "no space left on device") {
		t.Errorf("json lacks the warning:\n%s", js.String())
	}
}
