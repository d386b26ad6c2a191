package rules

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/ddl/load"
	"github.com/joinbench/joinbench/internal/testdb"
)

// TestRightJoinRewriteSameResults runs every built-in scenario holding a
// RIGHT JOIN and its LEFT JOIN rewrite on a server with the same parameter
// values, and requires identical results: the same rows for queries, the
// same table contents after writes (each run in a transaction rolled back).
func TestRightJoinRewriteSameResults(t *testing.T) {
	db := testdb.Open(t, "analyzer_rewrite")
	ctx := context.Background()
	const tables, size = 2, 300
	opts := ddl.SchemaOptions{Tables: tables}
	if _, err := load.Prepare(ctx, db, load.PrepareOptions{Schema: opts, Gen: ddl.GenOptions{Seed: 11, TableSize: size}, Threads: 1, NoAnalyze: true}); err != nil {
		t.Fatal(err)
	}
	schema, err := ddl.BuiltinSchema(opts)
	if err != nil {
		t.Fatal(err)
	}
	c, err := corpus.LoadBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, s := range c.Scenarios() {
		if !strings.Contains(strings.ToUpper(s.Body), "RIGHT JOIN") {
			continue
		}
		left, err := RewriteRightJoins(s.Path, s.Source, &analyzer.Options{Rules: All(), Schema: schema})
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		if strings.Contains(strings.ToUpper(left[s.BodyOffset:]), "RIGHT JOIN") {
			t.Errorf("%s: the rewrite still holds a RIGHT JOIN", s.Name)
		}
		ls, err := corpus.ParseFile(s.Path, []byte(left))
		if err != nil {
			t.Fatalf("%s: rewrite does not parse: %v\n%s", s.Name, err, left)
		}
		for seed := uint64(1); seed <= 3; seed++ {
			a := runScenario(t, db, s, schema, seed, tables, size)
			b := runScenario(t, db, ls, schema, seed, tables, size)
			if seed == 1 {
				t.Logf("%-32s %s", s.Name, a[:strings.Index(a, " rows")+5])
			}
			if a != b {
				t.Errorf("%s seed %d: results differ between RIGHT JOIN and its rewrite\n%s", s.Name, seed, left)
			}
		}
		checked++
	}
	if checked < 10 {
		t.Errorf("only %d scenarios with RIGHT JOIN checked", checked)
	}
}

// runScenario executes a scenario's statements in a transaction that is
// rolled back and returns a checksum of what it read (or, for writes, of
// the main tables afterwards).
func runScenario(t *testing.T, db *sql.DB, s *corpus.Scenario, schema *ddl.Schema, seed uint64, tables int, size int64) string {
	t.Helper()
	ctx := context.Background()
	tmpl, err := corpus.Compile(s, schema, corpus.CompileOptions{Tables: tables, TableSize: size})
	if err != nil {
		t.Fatalf("%s: %v", s.Name, err)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	h := sha256.New()
	n := 0
	r := tmpl.NewRenderer(seed, 0)
	for _, st := range r.Next() {
		q := strings.TrimSpace(st.SQL)
		if strings.HasPrefix(strings.ToUpper(q), "SELECT") {
			sum, k := rowsChecksum(t, tx, q, st.Args...)
			fmt.Fprint(h, sum)
			n += k
			continue
		}
		res, err := tx.ExecContext(ctx, q, st.Args...)
		if err != nil {
			t.Fatalf("%s: %v\n%s", s.Name, err, q)
		}
		k, _ := res.RowsAffected()
		n += int(k)
		for i := 1; i <= tables; i++ {
			sum, _ := rowsChecksum(t, tx, fmt.Sprintf("SELECT id, myvalue FROM main%d", i))
			fmt.Fprint(h, sum)
		}
	}
	return fmt.Sprintf("%d rows %x", n, h.Sum(nil))
}

func rowsChecksum(t *testing.T, tx *sql.Tx, q string, args ...any) (string, int) {
	t.Helper()
	rows, err := tx.Query(q, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, q)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var lines []string
	for rows.Next() {
		vals := make([]sql.RawBytes, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, v := range vals {
			if v == nil {
				b.WriteString("\\N")
			} else {
				b.Write(v)
			}
			b.WriteByte('\t')
		}
		lines = append(lines, b.String())
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(lines) // the same rows, in whatever order the plan reads them
	return fmt.Sprintf("%d:%x;", len(lines), sha256.Sum256([]byte(strings.Join(lines, "\n")))), len(lines)
}
