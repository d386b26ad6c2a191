package load

import (
	"context"
	"slices"
	"testing"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/segment"
	"github.com/joinbench/joinbench/internal/sqllex"
	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/internal/usage"
)

func TestWarmupAndCleanupDropOnlyTheirTables(t *testing.T) {
	ctx := context.Background()
	db := openDSN(t, testdb.Fresh(t, "ddl_cleanup"))
	if _, err := Warmup(ctx, db, ddl.SchemaOptions{}, 2); !usage.Is(err) {
		t.Fatalf("warmup of an empty database: %v, want a usage error", err)
	}
	o := PrepareOptions{Schema: ddl.SchemaOptions{Tables: 3}, Gen: ddl.GenOptions{Seed: 1, TableSize: 200}, Threads: 2}
	if _, err := Prepare(ctx, db, o); err != nil {
		t.Fatal(err)
	}
	// Tables that look alike but are not prepare's.
	others := []string{"main", "main01", "main1_old", "mainx", "level6", "level0", "level", "xmain1", "other"}
	for _, n := range others {
		if _, err := db.Exec("CREATE TABLE " + sqllex.QuoteIdent(n) + " (id INT PRIMARY KEY)"); err != nil {
			t.Fatal(err)
		}
	}
	w, err := Warmup(ctx, db, ddl.SchemaOptions{}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Tables) != 8 || w.Tables[0].Name != "main1" || w.Tables[0].Indexes != 14 || w.Tables[7].Name != "level5" {
		t.Fatalf("warmed %+v", w.Tables)
	}
	if w.TotalBytes() <= 0 || w.BufferPoolBytes <= 0 || w.Fits() <= 0 {
		t.Errorf("sizes: total %d, buffer pool %d", w.TotalBytes(), w.BufferPoolBytes)
	}
	// Another prefix finds nothing of prepare's main tables.
	if got, _ := PreparedTables(ctx, db, ddl.SchemaOptions{TableName: "sbtest"}); len(got) != 5 {
		t.Errorf("prefix sbtest found %v, want level1..5 only", got)
	}
	// What split prepares and runs coordinate through goes too.
	for _, n := range segment.CoordinationTables {
		if _, err := db.Exec("CREATE TABLE IF NOT EXISTS " + n + " (id INT PRIMARY KEY)"); err != nil {
			t.Fatal(err)
		}
	}
	dropped, err := Cleanup(ctx, db, ddl.SchemaOptions{Tables: 1}) // --tables does not limit what is dropped
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"main1", "main2", "main3", "level1", "level2", "level3", "level4", "level5"}
	if !slices.Equal(dropped, want) {
		t.Errorf("dropped %v, want %v", dropped, want)
	}
	left, err := ExistingTables(ctx, db, append(slices.Clone(others), want...))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(left, others) {
		t.Errorf("left %v, want %v", left, others)
	}
	if left, err := ExistingTables(ctx, db, segment.CoordinationTables); err != nil || len(left) > 0 {
		t.Errorf("coordination tables left: %v (%v)", left, err)
	}
}

func TestMissingTables(t *testing.T) {
	db := testdb.Open(t, "ddl_missing")
	if _, err := db.Exec("CREATE TABLE level1 (id INT PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	got, err := MissingTables(context.Background(), db, []string{"main1", "level1", "level2"})
	if err != nil || !slices.Equal(got, []string{"main1", "level2"}) {
		t.Fatalf("MissingTables = %v, %v; want [main1 level2]", got, err)
	}
}
