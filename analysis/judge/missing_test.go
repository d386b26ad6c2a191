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
			var ne *report.NoExecutionsError
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
