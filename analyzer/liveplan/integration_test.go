package liveplan

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/analyzer/rules"
	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/ddl/load"
	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/testdb"
)

// TestCheckOnServer explains a small corpus on the test server: one FORCE
// INDEX names an index the optimizer cannot use for its join, one names
// the join column's index. Only the first is reported; the write scenario
// is not explained, and its table is left as it was.
func TestCheckOnServer(t *testing.T) {
	db := testdb.Open(t, "liveplan")
	ctx := context.Background()
	schemaOpts := ddl.SchemaOptions{Tables: 1}
	if _, err := load.Prepare(ctx, db, load.PrepareOptions{Schema: schemaOpts, Gen: ddl.GenOptions{Seed: 3, TableSize: 1000}, Threads: 1}); err != nil {
		t.Fatal(err)
	}
	fl, err := server.DetectFlavor(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	schema, err := ddl.BuiltinSchema(schemaOpts)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, body string) analyzer.File {
		path := filepath.Join(dir, "inner", name+".sql")
		src := "-- scenario: " + name + "\n-- param m: table(main)\n-- param continent: list(continent)\n" + body
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return analyzer.File{Path: path, Source: src}
	}
	files := []analyzer.File{
		write("force_unusable", "SELECT m.id, level1.record_value\nFROM {{m}} AS m\nJOIN level1 FORCE INDEX (idx_record_status) ON level1.parent_id = m.id\nWHERE m.continent = {{continent}};\n"),
		write("force_usable", "SELECT m.id, level1.record_value\nFROM {{m}} AS m\nJOIN level1 FORCE INDEX (idx_parent_id) ON level1.parent_id = m.id\nWHERE m.continent = {{continent}};\n"),
		write("update_some", "UPDATE {{m}} SET myvalue = 0 WHERE continent = {{continent}};\n"),
	}
	var before int64
	if err := db.QueryRow("SELECT COUNT(*) FROM main1 WHERE myvalue = 0").Scan(&before); err != nil {
		t.Fatal(err)
	}
	res, err := Check(ctx, db, files, &analyzer.Options{Schema: schema, Flavor: fl, Rules: rules.All()}, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Explained != 2 || len(res.Skipped) != 0 {
		t.Errorf("explained %d, skipped %v; want the two SELECTs explained", res.Explained, res.Skipped)
	}
	if len(res.Diagnostics) != 1 {
		t.Fatalf("got %v, want one finding", res.Diagnostics)
	}
	d := res.Diagnostics[0]
	if d.Rule != "plan-ignores-index-hint" || d.Path != files[0].Path || d.Line != 6 || d.Col != 13 {
		t.Errorf("got %s, want plan-ignores-index-hint at force_unusable.sql:6:13", d)
	}
	var after int64
	if err := db.QueryRow("SELECT COUNT(*) FROM main1 WHERE myvalue = 0").Scan(&after); err != nil {
		t.Fatal(err)
	}
	if after != before {
		t.Errorf("the check changed main1: %d rows with myvalue 0, %d before", after, before)
	}
}
