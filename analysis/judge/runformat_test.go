package judge

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/analysis/internal/fixture"
	"github.com/joinbench/joinbench/analysis/report"
	"github.com/joinbench/joinbench/results"
)

// TestCompareRefusesUnreadableRunFile: a run.json of a later format, or
// with a field of the wrong type, is refused (a usage error), not skipped
// so that work would be compared without its seed and dataset checks.
func TestCompareRefusesUnreadableRunFile(t *testing.T) {
	scs := []fixture.Scen{{Name: "a", N: 50, MedianMs: 5, Plan: "p"}}
	for name, c := range map[string]struct{ from, to, want string }{
		"format 2":   {`"format_version":0`, `"format_version":2`, "a joinbench that reads format 2 is needed"},
		"wrong type": {`"seed":1`, `"seed":"one"`, "options.seed holds a JSON string where a uint64 is expected"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			info := &results.Run{RunID: "cand", ServerVersion: "10.11", Start: fixture.T0, End: fixture.T0.Add(5 * time.Second),
				Options: &results.RunOptions{Seed: 1}}
			base := fixture.Run{ID: "base", Execs: fixture.Gen(1, 5, scs...)}.Write(t, dir)
			cand := fixture.Run{ID: "cand", Info: info, Execs: fixture.Gen(2, 5, scs...)}.Write(t, dir)
			path := filepath.Join(cand, results.RunFile)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), c.from) {
				t.Fatalf("run.json holds no %s:\n%s", c.from, b)
			}
			if err := os.WriteFile(path, []byte(strings.Replace(string(b), c.from, c.to, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err = Compare([]string{base}, []string{cand}, compare.Options{})
			var bad *report.BadRunFileError
			if !errors.As(err, &bad) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("compare: %v, want a refusal naming %q", err, c.want)
			}
		})
	}
}
