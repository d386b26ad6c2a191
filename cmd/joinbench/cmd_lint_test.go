package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analyzer/rules"
	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/ddl/load"
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
	if _, err := load.Prepare(context.Background(), db, load.PrepareOptions{
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

// TestLintSkipsHiddenFolders: lint reads a folder as --corpus does, so a
// scenario under .git or another hidden folder is neither loaded by run
// nor linted.
func TestLintSkipsHiddenFolders(t *testing.T) {
	dir := t.TempDir()
	for path, src := range map[string]string{
		"ddl.sql":         "CREATE TABLE t (id INT PRIMARY KEY);\n",
		".git/broken.sql": "SELEC nothing;\n",
	} {
		p := filepath.Join(dir, path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, out := runCaptured(t, "lint", "-q", dir); code != 0 || out != "" {
		t.Errorf("lint of a folder whose only bad file is under .git: exit %d\n%s", code, out)
	}
	if code, _ := runCaptured(t, "lint", "-q", filepath.Join(dir, ".git")); code != 1 {
		t.Errorf("lint of the hidden folder itself: exit %d, want 1 (its file has a syntax error)", code)
	}
}

// TestLintExplain: --explain prints a rule's documentation with examples,
// and an unknown rule is a usage error.
func TestLintExplain(t *testing.T) {
	code, out := runCaptured(t, "lint", "--explain-rule", "outer-join-nullified")
	if code != 0 || !strings.Contains(out, "## Wrong") || !strings.Contains(out, "## Right") {
		t.Fatalf("lint --explain-rule: exit %d\n%s", code, out)
	}
	if code, out := runCaptured(t, "lint", "--explain-rule", "no-such-rule"); code != 2 {
		t.Fatalf("lint --explain-rule no-such-rule: exit %d, want 2\n%s", code, out)
	}
}

// TestRulesReferenceIsUpToDate: docs/rules.md is what `lint --explain-rule
// all` prints, and holds the section every rule's help URI links to.
func TestRulesReferenceIsUpToDate(t *testing.T) {
	code, generated := runCaptured(t, "lint", "--explain-rule", "all")
	if code != 0 || !strings.HasPrefix(generated, "# Lint rules\n") {
		t.Fatalf("lint --explain-rule all: exit %d\n%s", code, generated)
	}
	committed := readDoc(t, "docs/rules.md")
	if committed != generated {
		t.Fatalf("docs/rules.md is not what `joinbench lint --explain-rule all` prints: run `make docs` and commit the result (first difference at %s)",
			firstDifference(committed, generated))
	}
	for _, a := range rules.All() {
		page, fragment, _ := strings.Cut(a.HelpURI(), "#")
		if !strings.HasSuffix(page, "/docs/rules.md") || !hasHeading(committed, fragment) {
			t.Errorf("rule %s: help URI %s has no heading in docs/rules.md", a.Name, a.HelpURI())
		}
	}
}

// TestLintDiffAndFix: --diff prints what --fix would write, as a diff
// patch applies, writes nothing and exits 1; --fix writes it and names
// the file on stderr; once fixed, --diff has nothing to say.
func TestLintDiffAndFix(t *testing.T) {
	const src = "-- scenario: r\n-- param m: table(main)\nSELECT m.id\nFROM level1 RIGHT JOIN {{m}} AS m ON m.l1_id = level1.id\nLIMIT 10;\n"
	dir := writeTree(t, t.TempDir(), map[string]string{"r.sql": src})
	t.Chdir(dir)
	code, out, stderr := runCapturedAll(t, "lint", "--no-builtin", "--diff", ".")
	want := "--- r.sql\n+++ r.sql\n@@ -1,5 +1,5 @@\n -- scenario: r\n -- param m: table(main)\n SELECT m.id\n" +
		"-FROM level1 RIGHT JOIN {{m}} AS m ON m.l1_id = level1.id\n+FROM {{m}} AS m LEFT JOIN level1 ON m.l1_id = level1.id\n LIMIT 10;\n"
	if code != 1 || out != want || stderr != "" {
		t.Errorf("lint --diff: exit %d\n%s\nstderr %q\nwant exit 1 and\n%s", code, out, stderr, want)
	}
	if b, _ := os.ReadFile("r.sql"); string(b) != src {
		t.Fatal("lint --diff wrote the file")
	}
	if code, _, _ := runCapturedAll(t, "lint", "--diff", "--fix", "."); code != 2 {
		t.Errorf("--diff with --fix: exit %d, want 2", code)
	}
	code, _, stderr = runCapturedAll(t, "lint", "-q", "--no-builtin", "--fix", ".")
	if code != 0 || stderr != "joinbench lint: fixed r.sql (1 edit(s))\n" {
		t.Errorf("lint --fix: exit %d, stderr %q", code, stderr)
	}
	if b, _ := os.ReadFile("r.sql"); !strings.Contains(string(b), "FROM {{m}} AS m LEFT JOIN level1") {
		t.Errorf("after --fix:\n%s", b)
	}
	if code, out, _ := runCapturedAll(t, "lint", "--no-builtin", "--diff", "."); code != 0 || out != "" {
		t.Errorf("lint --diff of a fixed file: exit %d\n%s", code, out)
	}
}

// TestLintCIFormats: in a repository, github annotations and SARIF name
// files relative to its root, whichever folder lint runs from.
func TestLintCIFormats(t *testing.T) {
	dir := writeTree(t, t.TempDir(), map[string]string{
		".git/HEAD":           "ref: refs/heads/main\n",
		"corpus/inner/t.sql":  "-- scenario: t\nSELECT id FROM levl1;\n",
		"corpus/inner/ok.sql": "-- scenario: ok\nSELECT id FROM level1;\n",
	})
	t.Chdir(filepath.Join(dir, "corpus"))
	code, out := runCaptured(t, "lint", "--no-builtin", "--format", "github", "inner")
	want := "::error file=corpus/inner/t.sql,line=2,col=16,endLine=2,endColumn=21,title=unknown-table::unknown table levl1; did you mean level1?\n"
	if code != 1 || out != want {
		t.Errorf("--format github: exit %d\n%s\nwant\n%s", code, out, want)
	}
	code, out = runCaptured(t, "lint", "--no-builtin", "--format", "sarif", "inner")
	if code != 1 || !strings.Contains(out, `"uri": "corpus/inner/t.sql",`) || !strings.Contains(out, `"uriBaseId": "%SRCROOT%"`) ||
		!strings.Contains(out, `"uri": "file://`+filepath.ToSlash(dir)+`/"`) {
		t.Errorf("--format sarif: exit %d\n%s", code, out)
	}
}

// TestLintSelectFlags: --select and --ignore take comma lists and
// repeats; a misspelt rule is one line and exit 2, with a suggestion.
func TestLintSelectFlags(t *testing.T) {
	dir := writeTree(t, t.TempDir(), map[string]string{
		"r.sql": "-- scenario: r\n-- param m: table(main)\nSELECT m.nosuch\nFROM level1 RIGHT JOIN {{m}} AS m ON m.l1_id = level1.id;\n",
	})
	rules := func(args ...string) (int, string) {
		t.Helper()
		code, out := runCaptured(t, append([]string{"lint", "-q", "--no-builtin", "--format", "json", dir}, args...)...)
		var found []lintFinding
		if err := json.Unmarshal([]byte(out), &found); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		var names []string
		for _, f := range found {
			names = append(names, f.Rule)
		}
		return code, strings.Join(names, " ")
	}
	if code, got := rules("--select", "right-join", "--select", "unknown-column,large-dml"); code != 1 || got != "unknown-column right-join" {
		t.Errorf("two --select: exit %d, %q", code, got)
	}
	if code, got := rules("--ignore", "unknown-column"); code != 0 || got != "right-join" {
		t.Errorf("--ignore unknown-column: exit %d, %q", code, got)
	}
	code, _, stderr := runCapturedAll(t, "lint", "--no-builtin", "--select", "right-join,unknwn-column", dir)
	if code != 2 || stderr != "joinbench: --select: no rule unknwn-column; did you mean unknown-column? (joinbench lint --rules lists them)\n" {
		t.Errorf("misspelt rule: exit %d, stderr %q", code, stderr)
	}
}
