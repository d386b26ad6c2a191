package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analysis/internal/fixture"
	"github.com/joinbench/joinbench/results"
)

// TestReadRobust: several hosts' files are read together; a truncated
// file and an empty one are skipped with warnings; parents and globs find
// runs.
func TestReadRobust(t *testing.T) {
	parent := t.TempDir()
	f := fixture.Run{ID: "r2", Hosts: 3, Execs: fixture.Gen(12, 3, fixture.Scen{Name: "a", N: 900, MedianMs: 1})}
	dir := f.Write(t, parent)
	b, err := os.ReadFile(filepath.Join(dir, "executions-client0-0.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "executions-client9-0.parquet"), b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "executions-client8-0.parquet"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	(&fixture.Run{ID: "r3", Execs: fixture.Gen(13, 3, fixture.Scen{Name: "a", N: 10, MedianMs: 1})}).Write(t, parent)

	runs, err := results.FindRuns([]string{parent})
	if err != nil || len(runs) != 2 || filepath.Base(runs[0]) != "run=r2" {
		t.Fatalf("FindRuns(parent) = %v, %v", runs, err)
	}
	if runs, err := results.FindRuns([]string{filepath.Join(parent, "run=r*"), dir}); err != nil || len(runs) != 2 {
		t.Fatalf("FindRuns(glob) = %v, %v", runs, err)
	}
	if _, err := results.FindRuns([]string{filepath.Join(parent, "nope")}); err == nil {
		t.Error("missing folder accepted")
	}
	if _, err := results.FindRuns([]string{t.TempDir()}); err == nil {
		t.Error("folder without runs accepted")
	}

	var warned []string
	rep, err := Build([]string{dir}, Options{Warn: func(err error) { warned = append(warned, err.Error()) }})
	if err != nil {
		t.Fatal(err)
	}
	rr := rep.Runs[0]
	if rr.Files != 3 || rr.Total.Executions != 900 {
		t.Errorf("read %d files, %d executions; want 3 and 900", rr.Files, rr.Total.Executions)
	}
	if len(warned) != 2 || !strings.Contains(strings.Join(warned, "\n"), "client9") || !strings.Contains(strings.Join(warned, "\n"), "empty") {
		t.Errorf("warnings %q", warned)
	}
	if len(rr.Warnings) != 2 {
		t.Errorf("report warnings %q", rr.Warnings)
	}
}
