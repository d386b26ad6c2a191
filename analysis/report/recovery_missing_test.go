package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/analysis/internal/fixture"
	"github.com/joinbench/joinbench/results"
)

// TestRecoveryMissingIsSaid: a run with a crash action whose
// recovery.parquet is gone gets a warning in its report, not a report
// silently without its recovery section; with the file there, none.
func TestRecoveryMissingIsSaid(t *testing.T) {
	parent := t.TempDir()
	dir := fixture.Run{ID: "crashed", Hosts: 1, Execs: fixture.Gen(1, 5, fixture.Scen{Name: "a", N: 50, MedianMs: 5, Plan: "p"}),
		Info: &results.Run{RunID: "crashed", Actions: []string{"2s@node3: crash"}, Start: fixture.T0, End: fixture.T0.Add(5 * time.Second)}}.Write(t, parent)
	rd, err := results.Create(t.TempDir(), "crashed", "h")
	if err != nil {
		t.Fatal(err)
	}
	if err := rd.WriteActions([]results.Action{{Action: 1, Step: 1, Kind: "crash", Endpoint: "127.0.0.1:3308", Node: "node3",
		Spec: "2s@node3: crash", Start: fixture.T0.Add(2 * time.Second), End: fixture.T0.Add(4 * time.Second), Outcome: results.ActionOK}}); err != nil {
		t.Fatal(err)
	}
	rd.Close()
	if err := os.Rename(filepath.Join(rd.Path(), results.ActionsFile), filepath.Join(dir, results.ActionsFile)); err != nil {
		t.Fatal(err)
	}
	missing := func() bool {
		t.Helper()
		rep, err := Build([]string{dir}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return strings.Contains(strings.Join(rep.Runs[0].Warnings, "\n"), "crash action(s) but no recovery.parquet")
	}
	if !missing() {
		t.Error("a crash action without recovery.parquet: no warning")
	}
	if err := os.WriteFile(filepath.Join(dir, results.RecoveryFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if missing() {
		t.Error("recovery.parquet present, yet said missing")
	}
}
