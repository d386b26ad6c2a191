package corpus

import (
	"context"
	"database/sql"
	"testing"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/ddl/load"
	"github.com/joinbench/joinbench/internal/testdb"
)

// TestBuiltinScenariosRunOnServer creates the built-in schema with a small
// deterministic dataset and executes every built-in scenario a few times
// with rendered parameters: every statement must succeed.
func TestBuiltinScenariosRunOnServer(t *testing.T) {
	db := testdb.Open(t, "corpus_builtin")
	ctx := context.Background()
	const tables, size = 2, 300
	opts := ddl.SchemaOptions{Tables: tables}
	if _, err := load.Prepare(ctx, db, load.PrepareOptions{Schema: opts, Gen: ddl.GenOptions{Seed: 7, TableSize: size}, Threads: 1, NoAnalyze: true}); err != nil {
		t.Fatal(err)
	}

	c, err := LoadBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	schema, err := ddl.BuiltinSchema(opts)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, s := range c.Scenarios() {
		tmpl, err := Compile(s, schema, CompileOptions{Tables: tables, TableSize: size})
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		r := tmpl.NewRenderer(42, 0)
		rows := int64(0)
		for range 3 {
			for i, st := range r.Next() {
				n, err := execute(ctx, conn, st)
				if err != nil {
					t.Errorf("%s statement %d with %v: %v\n%s", s.Name, i, r.Values(nil), err, st.SQL)
					break
				}
				rows += n
			}
		}
		t.Logf("%-38s %5d rows", s.Name, rows)
	}
}

// execute runs a statement as a prepared statement and returns the rows
// read or affected.
func execute(ctx context.Context, conn *sql.Conn, st Statement) (int64, error) {
	if classifyText(st.SQL) == StmtDML {
		res, err := conn.ExecContext(ctx, st.SQL, st.Args...)
		if err != nil {
			return 0, err
		}
		return res.RowsAffected()
	}
	rows, err := conn.QueryContext(ctx, st.SQL, st.Args...)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var n int64
	for rows.Next() {
		n++
	}
	return n, rows.Err()
}
