package capture

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/joinbench/joinbench/explain"
	"github.com/joinbench/joinbench/internal/flavor"
)

// Explained is one EXPLAIN output of a statement.
type Explained struct {
	Format string // json, tree or analyze
	Text   string
}

// Statements returns the EXPLAIN statements Capture runs for the server
// flavor, with the format each one yields. query is the statement as it is
// executed, with ? placeholders.
//
//   - MySQL, Percona: EXPLAIN FORMAT=JSON; EXPLAIN FORMAT=TREE from 8.0.16;
//     with analyze, EXPLAIN ANALYZE from 8.0.18 (it runs the statement).
//   - MariaDB: EXPLAIN FORMAT=JSON; with analyze, ANALYZE FORMAT=JSON (it
//     runs the statement).
//   - TiDB: EXPLAIN FORMAT='tidb_json'; with analyze, EXPLAIN ANALYZE.
func Statements(fl flavor.Flavor, query string, analyze bool) []Explained {
	var out []Explained
	add := func(format, prefix string) { out = append(out, Explained{Format: format, Text: prefix + query}) }
	switch fl.Name {
	case flavor.MariaDB:
		add("json", "EXPLAIN FORMAT=JSON ")
		if analyze {
			add("analyze", "ANALYZE FORMAT=JSON ")
		}
	case flavor.TiDB:
		add("json", "EXPLAIN FORMAT='tidb_json' ")
		if analyze {
			add("analyze", "EXPLAIN ANALYZE ")
		}
	default:
		add("json", "EXPLAIN FORMAT=JSON ")
		if fl.AtLeast(8, 0, 16) {
			add("tree", "EXPLAIN FORMAT=TREE ")
		}
		if analyze && fl.AtLeast(8, 0, 18) {
			add("analyze", "EXPLAIN ANALYZE ")
		}
	}
	return out
}

// Capture explains query on conn with args bound as in the real statement
// and returns every format the server has (see Statements). The first
// element is always the JSON plan.
func Capture(ctx context.Context, conn *sql.Conn, fl flavor.Flavor, query string, args []any, analyze bool) ([]Explained, error) {
	stmts := Statements(fl, strings.TrimSpace(query), analyze)
	if (fl.Name == flavor.MySQL || fl.Name == flavor.Percona) && fl.AtLeast(8, 3, 0) {
		// MySQL 8.3 added a second JSON format, chosen by this session
		// variable; the shape hash reads the first (the default).
		if _, err := conn.ExecContext(ctx, "SET SESSION explain_json_format_version = 1"); err != nil {
			return nil, fmt.Errorf("explain: %w", err)
		}
	}
	out := make([]Explained, 0, len(stmts))
	for _, st := range stmts {
		text, err := queryText(ctx, conn, st.Text, args)
		if err != nil {
			return out, fmt.Errorf("explain (%s): %w", st.Format, err)
		}
		if st.Format == "json" {
			text = explain.RepairJSON(text) // stored as valid JSON, for DuckDB and the shape hash alike
		}
		out = append(out, Explained{Format: st.Format, Text: text})
	}
	return out, nil
}

// queryText runs q and renders its result as text: a one-column result
// as its rows joined by newlines (JSON and tree plans), a wider one as
// tab-separated lines under a header.
func queryText(ctx context.Context, conn *sql.Conn, q string, args []any) (string, error) {
	rows, err := conn.QueryContext(ctx, q, args...)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if len(cols) > 1 {
		b.WriteString(strings.Join(cols, "\t"))
	}
	vals := make([]sql.RawBytes, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return "", err
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		for i, v := range vals {
			if i > 0 {
				b.WriteByte('\t')
			}
			if v == nil {
				b.WriteString("NULL")
			} else {
				b.Write(v)
			}
		}
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	return b.String(), nil
}

// Plan is Capture plus the shape hash of the JSON plan: what the engine
// stores per distinct plan.
func Plan(ctx context.Context, conn *sql.Conn, fl flavor.Flavor, query string, args []any, analyze bool) (hash string, plans []Explained, err error) {
	plans, err = Capture(ctx, conn, fl, query, args, analyze)
	if err != nil {
		return "", nil, err
	}
	hash, err = explain.ShapeHash(fl, plans[0].Text)
	if err != nil {
		return "", nil, fmt.Errorf("explain: %w", err)
	}
	return hash, plans, nil
}
