package load

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/joinbench/joinbench/internal/sqllex"
)

// analyze is the last stage: one ANALYZE TABLE of every table of the
// schema, so that the optimizer's statistics describe the new rows.
func analyze(ctx context.Context, db *sql.DB, opts PrepareOptions, p *loadPlan) error {
	if len(p.analyze) == 0 {
		return nil
	}
	quoted := make([]string, len(p.analyze))
	for i, n := range p.analyze {
		quoted[i] = sqllex.QuoteIdent(n)
	}
	opts.logf("ANALYZE TABLE %s", strings.Join(p.analyze, ", "))
	if err := drain(db.QueryContext(ctx, "ANALYZE TABLE "+strings.Join(quoted, ", "))); err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	return nil
}

// drain reads and discards every row of a result.
func drain(rows *sql.Rows, err error) error {
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
	}
	return rows.Err()
}
