package load

import (
	"context"
	"database/sql"
	"maps"
	"slices"
	"testing"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/sqllex"
	"github.com/joinbench/joinbench/internal/testdb"
)

// On a case-sensitive server (lower_case_table_names=0, the default on
// Linux) a table Main2 is not main2: it must neither block prepare nor be
// dropped by --recreate, which used to fail half-way on "Unknown table
// main2", leaving main1 empty.
func TestPrepareBesideTablesDifferingInCase(t *testing.T) {
	ctx := context.Background()
	db := openDSN(t, testdb.Fresh(t, "ddl_table_case"))
	if fold, err := foldsTableNames(ctx, db); err != nil || fold {
		t.Skipf("the test server compares table names without regard to case (lower_case_table_names != 0): %v", err)
	}
	for _, q := range []string{
		"CREATE TABLE `Main2` (id INT PRIMARY KEY, v INT, KEY k_v (v))",
		"INSERT INTO `Main2` VALUES (7, 7)",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	o := PrepareOptions{Schema: ddl.SchemaOptions{Tables: 2}, Gen: ddl.GenOptions{Seed: 1, TableSize: 50}, Threads: 2}
	names := o.Schema.TableNames()
	if got, err := ExistingTables(ctx, db, append([]string{"Main2"}, names...)); err != nil || !slices.Equal(got, []string{"Main2"}) {
		t.Fatalf("ExistingTables = %v, %v; want [Main2]", got, err)
	}
	if got, err := MissingTables(ctx, db, names); err != nil || !slices.Equal(got, names) {
		t.Fatalf("MissingTables = %v, %v; want every table of the schema", got, err)
	}

	if _, err := Prepare(ctx, db, o); err != nil {
		t.Fatalf("prepare beside Main2: %v", err)
	}
	mainTwo := func() {
		t.Helper()
		if n := count(t, db, "Main2"); n != 1 {
			t.Errorf("Main2 holds %d rows, want its 1", n)
		}
		if bare, err := lacksIndexes(ctx, db, "Main2"); err != nil || bare {
			t.Errorf("Main2 lacks its index: %v, %v", bare, err)
		}
	}
	mainTwo()
	want := checksums(t, db, names)
	if n := count(t, db, "main2"); n != 50 {
		t.Errorf("main2 holds %d rows, want 50", n)
	}

	o.Recreate = true
	if _, err := Prepare(ctx, db, o); err != nil {
		t.Fatalf("prepare --recreate beside Main2: %v", err)
	}
	mainTwo()
	if got := checksums(t, db, names); !maps.Equal(got, want) {
		t.Errorf("recreated checksums %v, want %v", got, want)
	}

	// Resuming looks at main2's own indexes, not Main2's.
	ix := secondaryIndexes(t, db, "main2")
	if len(ix) < 2 {
		t.Fatalf("main2 has indexes %v", ix)
	}
	for _, name := range ix {
		if _, err := db.Exec("ALTER TABLE main2 DROP INDEX " + sqllex.QuoteIdent(name)); err != nil {
			t.Fatal(err)
		}
	}
	if bare, err := lacksIndexes(ctx, db, "main2"); err != nil || !bare {
		t.Errorf("main2 without its indexes: bare %v, %v; Main2's index must not count", bare, err)
	}
	mainTwo()
}

// secondaryIndexes lists the indexes of table but its primary key.
func secondaryIndexes(t *testing.T, db *sql.DB, table string) []string {
	t.Helper()
	rows, err := db.Query(`SELECT DISTINCT INDEX_NAME FROM information_schema.STATISTICS
		WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND INDEX_NAME <> 'PRIMARY'`, table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		out = append(out, n)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
