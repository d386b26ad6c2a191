package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/ddl/load"
	"github.com/joinbench/joinbench/internal/testdb"
)

// --check-plans explains on the --dsn or --sandbox server; without one,
// or with both, or with a sandbox that does not exist, lint is a usage
// error.
func TestLintCheckPlansNeedsDSN(t *testing.T) {
	if code, _, errOut := runCapturedAll(t, "lint", "-q", "--check-plans"); code != 2 || !strings.Contains(errOut, "--dsn") {
		t.Fatalf("lint --check-plans without --dsn: exit %d, want 2 naming --dsn\n%s", code, errOut)
	}
	dir := t.TempDir()
	if code, _, errOut := runCapturedAll(t, "lint", "-q", "--check-plans", "--sandbox", "nosuch", "--sandbox-dir", dir); code != 2 || !strings.Contains(errOut, "no sandbox named") {
		t.Errorf("lint --sandbox of a sandbox that does not exist: exit %d, want 2\n%s", code, errOut)
	}
	if code, _, errOut := runCapturedAll(t, "lint", "-q", "--sandbox", "nosuch", "--sandbox-dir", dir, "--dsn", "root@tcp(127.0.0.1:1)/joinbench"); code != 2 || !strings.Contains(errOut, "give one") {
		t.Errorf("lint --sandbox with --dsn: exit %d, want 2\n%s", code, errOut)
	}
}

// TestLintCheckPlans lints a folder with --check-plans against a prepared
// database: the FORCE INDEX the plan does not follow is reported, in the
// JSON output, with the static findings; the one it follows is not.
func TestLintCheckPlans(t *testing.T) {
	dsn := testdb.Fresh(t, "cmd_lint_plans")
	db := testdb.Open(t, "cmd_lint_plans")
	if _, err := load.Prepare(context.Background(), db, load.PrepareOptions{
		Schema: ddl.SchemaOptions{Tables: 1}, Gen: ddl.GenOptions{Seed: 1, TableSize: 500}, Threads: 1,
	}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, index := range map[string]string{"unusable": "idx_record_status", "usable": "idx_parent_id"} {
		src := "-- scenario: " + name + "\n-- param m: table(main)\nSELECT m.id, level1.record_value\nFROM {{m}} AS m\n" +
			"JOIN level1 FORCE INDEX (" + index + ") ON level1.parent_id = m.id\nWHERE m.continent = 'Asia';\n"
		if err := os.WriteFile(filepath.Join(dir, name+".sql"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out := runCaptured(t, "lint", "-q", "--dsn", dsn, "--check-plans", "--format", "json", dir)
	if code != 0 {
		t.Fatalf("lint --check-plans: exit %d\n%s", code, out)
	}
	var diags []struct {
		Path string `json:"path"`
		Line int    `json:"line"`
		Rule string `json:"rule"`
	}
	if err := json.Unmarshal([]byte(out), &diags); err != nil {
		t.Fatalf("lint --format json: %v\n%s", err, out)
	}
	found := 0
	for _, d := range diags {
		if !strings.HasPrefix(d.Rule, "plan-") {
			continue
		}
		found++
		if d.Rule != "plan-ignores-index-hint" || filepath.Base(d.Path) != "unusable.sql" || d.Line != 5 {
			t.Errorf("unexpected finding %+v", d)
		}
	}
	if found != 1 {
		t.Errorf("%d plan findings, want 1\n%s", found, out)
	}
}
