package judge

import (
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/analysis/internal/fixture"
	"github.com/joinbench/joinbench/results"
)

// TestNoSuccessfulExecutionFailsTheGate: every execution failed on both
// sides (a dropped table, a lost grant): the scenarios are insufficient
// data, but the comparison fails, naming each side, so that a CI gate does
// not pass on it.
func TestNoSuccessfulExecutionFailsTheGate(t *testing.T) {
	dir := t.TempDir()
	failing := []fixture.Scen{{Name: "a", N: 50, MedianMs: 5, Plan: "p", ErrEvery: 1, ErrCode: 1146},
		{Name: "b", N: 50, MedianMs: 5, Plan: "p", ErrEvery: 1, ErrCode: 1146}}
	base := fixture.Run{ID: "base", Execs: fixture.Gen(1, 5, failing...)}.Write(t, dir)
	cand := fixture.Run{ID: "cand", Execs: fixture.Gen(2, 5, failing...)}.Write(t, dir)
	c, err := Compare([]string{base}, []string{cand}, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	failures := strings.Join(c.Failures, "; ")
	if c.Pass || !c.Failed() || !strings.Contains(failures, "the base has no successful execution: all 100 of its executions failed") ||
		!strings.Contains(failures, "the candidate has no successful execution") {
		t.Errorf("pass %v, failures %q", c.Pass, c.Failures)
	}

	// One side measured: only the other is named.
	ok := fixture.Run{ID: "ok", Execs: fixture.Gen(3, 5, fixture.Scen{Name: "a", N: 50, MedianMs: 5, Plan: "p"},
		fixture.Scen{Name: "b", N: 50, MedianMs: 5, Plan: "p"})}.Write(t, dir)
	c, err = Compare([]string{ok}, []string{cand}, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	failures = strings.Join(c.Failures, "; ")
	if c.Pass || strings.Contains(failures, results.SideBase+" has no successful") || !strings.Contains(failures, "the candidate has no successful execution") {
		t.Errorf("one side measured: pass %v, failures %q", c.Pass, c.Failures)
	}
}
