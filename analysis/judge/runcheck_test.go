package judge

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/analysis/internal/fixture"
	"github.com/joinbench/joinbench/analysis/report"
	"github.com/joinbench/joinbench/results"
)

// TestCompareRefusesBadRunFiles: a run.json no run writes (a replicate
// claiming a billion slices of a nanosecond, an end before the start,
// nothing but the id) is refused in one line naming it, before anything
// is sized by it.
func TestCompareRefusesBadRunFiles(t *testing.T) {
	dir := t.TempDir()
	scs := []fixture.Scen{{Name: "a", N: 200, MedianMs: 2, Plan: "p"}, {Name: "b", N: 200, MedianMs: 3, Plan: "p"}}
	good := func(id string) *results.Run {
		return &results.Run{RunID: id, ServerVersion: "10.11.6-MariaDB", Flavor: "mariadb", Start: fixture.T0, End: fixture.T0.Add(10 * time.Second)}
	}
	base := fixture.Run{ID: "base", Info: good("base"), Execs: fixture.Gen(1, 10, scs...)}.Write(t, dir)
	for name, info := range map[string]*results.Run{
		"a billion slices": func() *results.Run {
			r := good("x")
			r.Replicate = &results.Replicate{Series: "s", Side: results.SideCandidate, Rounds: 1_000_000_000, Slice: results.Duration(1)}
			return r
		}(),
		"more slices than the run lasted": func() *results.Run {
			r := good("x")
			r.Replicate = &results.Replicate{Series: "s", Side: results.SideCandidate, Rounds: 100, Slice: results.Duration(time.Second)}
			return r
		}(),
		"end before start": func() *results.Run {
			r := good("x")
			r.End = r.Start.Add(-time.Hour)
			return r
		}(),
		"only its id": {RunID: "x"},
	} {
		cand := fixture.Run{ID: strings.ReplaceAll(name, " ", "-"), Info: info, Execs: fixture.Gen(2, 10, scs...)}.Write(t, dir)
		for _, sides := range [][2][]string{{{base}, {cand}}, {{cand}, {base}}} {
			_, err := Compare(sides[0], sides[1], compare.Options{})
			var bad *report.BadRunFileError
			if !errors.As(err, &bad) || bad.Path != filepath.Join(cand, results.RunFile) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: %v, want the run.json refused", name, err)
			}
		}
		if _, _, err := Calibrate([]string{base, base}, []string{cand, cand}, compare.Options{}); err == nil {
			t.Errorf("%s: calibrated", name)
		}
	}
}

// TestInterruptedLockstepRun: the slices of a run in lockstep that was
// interrupted are those it began, and the comparison says it was
// interrupted.
func TestInterruptedLockstepRun(t *testing.T) {
	dir := t.TempDir()
	scs := []fixture.Scen{{Name: "a", N: 100, MedianMs: 5, Plan: "p"}}
	var sides [2]string
	for i, side := range []string{results.SideBase, results.SideCandidate} {
		d := fixture.LockstepSide(t, dir, side, 3, nil, scs...)
		info := results.ReadRunInfo(d, nil)
		info.Replicate.Rounds = 6 // planned 6 slices, interrupted in the third
		info.End, info.Interrupted = info.Start.Add(25*time.Second), true
		fixture.WriteRunJSON(t, d, info)
		sides[i] = d
	}
	c, err := Compare([]string{sides[0]}, []string{sides[1]}, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Base.Rounds != 3 || c.Candidate.Rounds != 3 {
		t.Errorf("rounds %d/%d, want the 3 slices begun", c.Base.Rounds, c.Candidate.Rounds)
	}
	if all := strings.Join(c.Warnings, "\n"); !strings.Contains(all, "the run was interrupted") || !strings.Contains(all, "3 of its 6 slices began") {
		t.Errorf("warnings %q", c.Warnings)
	}
}
