package main

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/testdb"
)

// loadSQLFile runs the statements of a file (separated by ; at the end
// of a line) on db.
func loadSQLFile(t *testing.T, db *sql.DB, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range strings.Split(string(b), ";\n") {
		if strings.TrimSpace(st) == "" {
			continue
		}
		if _, err := db.Exec(st); err != nil {
			t.Fatalf("%s: %v\n%s", path, err, st)
		}
	}
}

// TestImportOwnSchemaLintsAndRuns: a slow log of an application on
// tables of its own (three, no main<N>) becomes a corpus that lints
// clean against the live schema and runs read-only with values drawn
// from the data, with no prepare.
func TestImportOwnSchemaLintsAndRuns(t *testing.T) {
	const shop = "../../ingest/testdata/shop/"
	dsn := testdb.Fresh(t, "cmd_import")
	db := testdb.Open(t, "cmd_import")
	loadSQLFile(t, db, shop+"schema.sql")
	loadSQLFile(t, db, shop+"data.sql")
	dir := filepath.Join(t.TempDir(), "corpus")
	code, out := runCaptured(t, "import", "../../ingest/testdata/mysql8-slow.log", "--dsn", dsn, "--out", dir)
	if code != 0 {
		t.Fatalf("import: exit %d\n%s", code, out)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.sql"))
	if len(files) != 2 {
		t.Fatalf("import wrote %v, want the two SELECTs", files)
	}
	if code, out := runCaptured(t, "lint", "-q", "--dsn", dsn, dir); code != 0 {
		t.Fatalf("lint of the imported corpus: exit %d\n%s", code, out)
	}
	if code, out := runCaptured(t, "lint", "-q", "--schema", shop+"schema.sql", dir); code != 0 {
		t.Fatalf("lint against the schema file: exit %d\n%s", code, out)
	}
	code, out = runCaptured(t, "run", "-q", "--dsn", dsn, "--corpus", dir, "--no-builtin", "--all", "--read-only",
		"--events", "6", "--schema", shop+"schema.sql", "--out", t.TempDir())
	if code != 0 {
		t.Fatalf("run of the imported corpus: exit %d\n%s", code, out)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".sql")
		if !strings.Contains(out, name) {
			t.Errorf("run's summary has no %s:\n%s", name, out)
		}
	}
	if code, _, errOut := runCapturedAll(t, "import", "--out", dir); code != 2 || !strings.Contains(errOut, "nothing to import") {
		t.Errorf("import of nothing: exit %d\n%s", code, errOut)
	}
}
