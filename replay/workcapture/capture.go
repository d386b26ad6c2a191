package workcapture

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/results"
	"github.com/joinbench/joinbench/work"
)

// Querier runs a query: *sql.Conn, *sql.DB and *sql.Tx are ones. Session
// counters and statement events belong to one connection, so those
// readings need a *sql.Conn (or a *sql.Tx).
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// Analyze runs a read statement again with the same values under the
// flavor's analyzing EXPLAIN (work.AnalyzeStatement) and returns its work and
// the server's output. It executes the statement: never give it a write.
// It may run on any connection; on its own, it leaves the connection that
// ran the statement for real alone.
func Analyze(ctx context.Context, q Querier, fl flavor.Flavor, query string, args []any) (*results.Work, string, error) {
	stmt, _, err := work.AnalyzeStatement(fl, query)
	if err != nil {
		return nil, "", err
	}
	text, err := queryText(ctx, q, stmt, args)
	if err != nil {
		return nil, "", fmt.Errorf("work: %w", err)
	}
	w, err := work.ParseAnalyze(fl, text)
	if err != nil {
		return nil, text, fmt.Errorf("work: %w", err)
	}
	return w, text, nil
}

// queryText runs q and returns its first column's rows joined by newlines:
// both analyzing EXPLAINs answer with one row of one column.
func queryText(ctx context.Context, q Querier, stmt string, args []any) (string, error) {
	rows, err := q.QueryContext(ctx, stmt, args...)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return "", err
	}
	vals := make([]sql.RawBytes, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var b strings.Builder
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return "", err
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		if len(vals) > 0 {
			b.Write(vals[0])
		}
	}
	return b.String(), rows.Err()
}
