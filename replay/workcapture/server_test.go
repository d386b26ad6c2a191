package workcapture

import (
	"context"
	"database/sql"
	"reflect"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/ddl/load"
	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/results"
	"github.com/joinbench/joinbench/work"
)

const (
	testTables = 1
	testSize   = 2000
	testSeed   = 1
)

// statement is a rendering of a built-in scenario's statement.
type statement struct {
	scenario string
	write    bool
	sql      string
	args     []any
}

// workload prepares the built-in schema with a small dataset and returns
// the database and two renderings of every built-in scenario.
func workload(t *testing.T) (*sql.DB, flavor.Flavor, [][]statement) {
	t.Helper()
	db := testdb.Open(t, "replay_work")
	ctx := context.Background()
	opts := ddl.SchemaOptions{Tables: testTables}
	if _, err := load.Prepare(ctx, db, load.PrepareOptions{Schema: opts, Gen: ddl.GenOptions{Seed: testSeed, TableSize: testSize}, Threads: 1}); err != nil {
		t.Fatal(err)
	}
	fl, err := server.DetectFlavor(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	c, err := corpus.LoadBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	schema, err := ddl.BuiltinSchema(opts)
	if err != nil {
		t.Fatal(err)
	}
	var execs [][]statement
	for _, s := range c.Scenarios() {
		tmpl, err := corpus.Compile(s, schema, corpus.CompileOptions{Tables: testTables, TableSize: testSize})
		if err != nil {
			t.Fatal(err)
		}
		r := tmpl.NewRenderer(testSeed, 0)
		for range 2 {
			var e []statement
			for _, st := range r.Next() {
				e = append(e, statement{s.Name, tmpl.Write, st.SQL, append([]any(nil), st.Args...)})
			}
			execs = append(execs, e)
		}
	}
	return db, fl, execs
}

func conn(t *testing.T, db *sql.DB) *sql.Conn {
	t.Helper()
	c, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// run executes a statement as the engine does: prepared, its whole result
// read.
func run(ctx context.Context, c *sql.Conn, st statement) error {
	if st.write {
		_, err := c.ExecContext(ctx, st.sql, st.args...)
		return err
	}
	rows, err := c.QueryContext(ctx, st.sql, st.args...)
	if err != nil {
		return err
	}
	for rows.Next() {
	}
	rows.Close()
	return rows.Err()
}

func TestOnServer(t *testing.T) {
	db, fl, execs := workload(t)
	if !fl.Is(flavor.MariaDB) {
		t.Skipf("the ANALYZE source is tested on MariaDB; this server is %s", fl)
	}
	ctx := context.Background()

	// The same statement with the same values does the same work, read
	// again on the same connection or on another.
	t.Run("analyze is exact A/A", func(t *testing.T) {
		c1, c2 := conn(t, db), conn(t, db)
		n := 0
		for _, e := range execs {
			if e[0].write {
				continue
			}
			for _, st := range e {
				a, _, err := Analyze(ctx, c1, fl, st.sql, st.args)
				if err != nil {
					t.Fatalf("%s: %v", st.scenario, err)
				}
				b, _, err := Analyze(ctx, c2, fl, st.sql, st.args)
				if err != nil {
					t.Fatalf("%s: %v", st.scenario, err)
				}
				if !reflect.DeepEqual(a, b) {
					t.Errorf("%s %v: two ANALYZEs differ\n%s\n%s", st.scenario, st.args, render(a), render(b))
				}
				if len(a.Tables) == 0 {
					t.Errorf("%s: no tables", st.scenario)
				}
				n++
			}
		}
		t.Logf("%d read executions, work identical on both connections", n)
	})

	// Session status deltas around the real execution: the same for the
	// same statement and values, writes (rolled back) included, once the
	// tables' statistics are loaded (the first statement to open a table
	// reads them, which shows in Handler_read_key).
	t.Run("session status is exact A/A", func(t *testing.T) {
		c := conn(t, db)
		cost, err := StatusCost(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			again, err := StatusCost(ctx, c)
			if err != nil {
				t.Fatal(err)
			}
			if again != cost {
				t.Fatalf("the cost of reading the counters changed: %+v then %+v", cost, again)
			}
		}
		measure := func(e []statement) []*results.Work {
			if _, err := c.ExecContext(ctx, "BEGIN"); err != nil {
				t.Fatal(err)
			}
			defer c.ExecContext(ctx, "ROLLBACK")
			var out []*results.Work
			for _, st := range e {
				w, err := Measure(ctx, c, cost, func() error { return run(ctx, c, st) })
				if err != nil {
					t.Fatalf("%s: %v", st.scenario, err)
				}
				out = append(out, w)
			}
			return out
		}
		writes := 0
		for _, e := range execs {
			measure(e) // the tables' statistics
			a, b := measure(e), measure(e)
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s %v: two measurements differ\n%s\n%s", e[0].scenario, e[0].args, render(a[0]), render(b[0]))
			}
			if e[0].write {
				writes++
				if ch, _ := work.Value(a[0].RowsChanged); ch == 0 && e[0].scenario != "delete_inserts" {
					t.Logf("%s changed no row with %v", e[0].scenario, e[0].args)
				}
			}
		}
		if writes == 0 {
			t.Error("no write scenario measured")
		}
	})

	// An optimizer change that leaves a plan alone leaves its work alone;
	// one that changes a plan shows in the work.
	t.Run("planted optimizer change", func(t *testing.T) {
		base, cand := conn(t, db), conn(t, db)
		if _, err := cand.ExecContext(ctx, "SET SESSION optimizer_switch = 'rowid_filter=off', join_cache_level = 0"); err != nil {
			t.Fatal(err)
		}
		changed, same := 0, 0
		for _, e := range execs {
			if e[0].write {
				continue
			}
			a, _, err := Analyze(ctx, base, fl, e[0].sql, e[0].args)
			if err != nil {
				t.Fatal(err)
			}
			b, _, err := Analyze(ctx, cand, fl, e[0].sql, e[0].args)
			if err != nil {
				t.Fatal(err)
			}
			d := work.Describe(work.Summarize([]*results.Work{a}), work.Summarize([]*results.Work{b}))
			if reflect.DeepEqual(a, b) {
				same++
				if d != "" {
					t.Errorf("%s: same work described as %q", e[0].scenario, d)
				}
				continue
			}
			changed++
			t.Logf("%s: %s", e[0].scenario, d)
		}
		t.Logf("%d executions with the same work, %d changed", same, changed)
		if same == 0 {
			t.Error("every plan changed")
		}
	})

	// The regression: level1 loses idx_parent_id.
	t.Run("planted dropped index", func(t *testing.T) {
		c := conn(t, db)
		pick := func(name string) statement {
			for _, e := range execs {
				if e[0].scenario == name {
					return e[0]
				}
			}
			t.Fatalf("no scenario %s", name)
			return statement{}
		}
		index, pk := pick("simple_inner_index"), pick("simple_inner_pk")
		analyze := func(st statement) *results.Work {
			w, _, err := Analyze(ctx, c, fl, st.sql, st.args)
			if err != nil {
				t.Fatal(err)
			}
			return w
		}
		ia, pa := analyze(index), analyze(pk)
		if _, err := c.ExecContext(ctx, "ALTER TABLE level1 DROP INDEX idx_parent_id"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.ExecContext(ctx, "ALTER TABLE level1 ADD INDEX idx_parent_id (parent_id)") })
		ib, pb := analyze(index), analyze(pk)
		if !reflect.DeepEqual(pa, pb) {
			t.Errorf("simple_inner_pk does not use the index, yet its work changed:\n%s\n%s", render(pa), render(pb))
		}
		for _, tb := range ib.Tables {
			if tb.Key == "idx_parent_id" {
				t.Errorf("level1 still read through idx_parent_id: %+v", tb)
			}
		}
		d := work.Describe(work.Summarize([]*results.Work{ia}), work.Summarize([]*results.Work{ib}))
		if !strings.Contains(d, "level1: ") || !strings.Contains(d, "ref on idx_parent_id") {
			t.Errorf("simple_inner_index: %q does not say how level1 was read before", d)
		}
		if *ib.Pages <= *ia.Pages {
			t.Errorf("page requests did not grow: %d → %d", *ia.Pages, *ib.Pages)
		}
		t.Logf("simple_inner_index: rows examined %d → %d, pages %d → %d: %s",
			*ia.RowsExamined, *ib.RowsExamined, *ia.Pages, *ib.Pages, d)
	})
}
