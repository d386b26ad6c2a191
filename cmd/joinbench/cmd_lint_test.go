package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/testdb"
)

// TestLintLiveSchema lints the built-in corpus against the schema of a
// prepared database on the test server: names resolve against the tables
// found there and the flavour is the server's.
func TestLintLiveSchema(t *testing.T) {
	dsn := testdb.Fresh(t, "cmd_lint_live")
	code, out := runCaptured(t, "lint", "-q", "--dsn", dsn, "--format", "json")
	if code != 2 {
		t.Fatalf("lint against an empty database: exit %d, want 2\n%s", code, out)
	}

	db := testdb.Open(t, "cmd_lint_live")
	if _, err := ddl.Prepare(context.Background(), db, ddl.PrepareOptions{
		Schema: ddl.SchemaOptions{Tables: 2}, Gen: ddl.GenOptions{Seed: 1, TableSize: 50}, Threads: 1, NoAnalyze: true,
	}); err != nil {
		t.Fatal(err)
	}
	code, out = runCaptured(t, "lint", "-q", "--dsn", dsn, "--format", "json")
	var diags []struct {
		Rule    string `json:"rule"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal([]byte(out), &diags); err != nil {
		t.Fatalf("lint --format json: %v\n%s", err, out)
	}
	if code != 0 {
		t.Fatalf("lint --dsn of a prepared database: exit %d\n%s", code, out)
	}
	var flavour int
	for _, d := range diags {
		switch d.Rule {
		case "hint-ignored-by-flavor":
			flavour++
		default:
			t.Errorf("unexpected finding on the prepared schema: %s: %s", d.Rule, d.Message)
		}
	}
	// The corpus has JOIN_ORDER hints; only a MariaDB server ignores them.
	var version string
	if err := db.QueryRow("SELECT VERSION()").Scan(&version); err != nil {
		t.Fatal(err)
	}
	if mariadb := strings.Contains(strings.ToLower(version), "mariadb"); mariadb != (flavour > 0) {
		t.Errorf("server %s: %d hint-ignored-by-flavor findings; the flavour was not taken from the server", version, flavour)
	}
}
