package workcapture

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/results"
	"github.com/joinbench/joinbench/work"
)

// ErrNoStatementEvent is returned when the history holds no statement of
// the connection: the Performance Schema, its statement instruments or the
// history consumer are off.
var ErrNoStatementEvent = errors.New("work: no statement event in performance_schema.events_statements_history (is the events_statements_history consumer on?)")

// ReadStatementEvent returns the work of the last statement the connection
// q runs on completed, and the statement's event name
// (statement/sql/select, statement/com/Execute for a prepared one, ...).
func ReadStatementEvent(ctx context.Context, q Querier, fl flavor.Flavor) (*results.Work, string, error) {
	rows, err := q.QueryContext(ctx, work.StatementEventQuery(fl))
	if err != nil {
		return nil, "", fmt.Errorf("work: statement event: %w", err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return nil, "", fmt.Errorf("work: statement event: %w", err)
		}
		return nil, "", ErrNoStatementEvent
	}
	var name string
	vals := make([]sql.NullInt64, len(work.StatementEventColumns)-1)
	dest := []any{&name}
	for i := range vals {
		dest = append(dest, &vals[i])
	}
	if err := rows.Scan(dest...); err != nil {
		return nil, "", fmt.Errorf("work: statement event: %w", err)
	}
	counters := make([]*int64, len(vals))
	for i, v := range vals {
		if v.Valid {
			counters[i] = work.Counter(v.Int64)
		}
	}
	return work.StatementEventWork(counters), name, rows.Err()
}
