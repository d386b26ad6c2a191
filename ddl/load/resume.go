package load

import (
	"fmt"

	"github.com/joinbench/joinbench/internal/usage"
)

// resumePoint is where a stopped load resumes, given next[i], the first
// row of p.ranges[i] not committed: the first row not committed, in table
// order (rowsLeft), or, when every row is in and only indexes and ANALYZE
// were left, the row after the last table's last one. It is nil when the
// plan loads no table.
func (p *loadPlan) resumePoint(next []int64) (point *InterruptedError, rowsLeft bool) {
	first := make([]int64, len(p.tables))
	for i := range first {
		first[i] = -1
	}
	for i, r := range p.ranges {
		if n := next[i]; n <= r.to && (first[r.table] < 0 || n < first[r.table]) {
			first[r.table] = n
		}
	}
	for ti, row := range first {
		if row >= 0 {
			return &InterruptedError{Table: p.tables[ti].Name, Row: row}, true
		}
	}
	if len(p.tables) == 0 {
		return nil, false
	}
	last := p.tables[len(p.tables)-1]
	return &InterruptedError{Table: last.Name, Row: last.to + 1}, false
}

// stopError is what Prepare returns when the load stopped, from the first
// failure of a session (nil if none), the context's error (nil unless it
// ended) and next as for resumePoint. Stopped by the context, it is a
// usage error naming the resume point; a failure that rows were left
// behind carries the resume point in its text.
func (p *loadPlan) stopError(failed, ctxErr error, next []int64) error {
	point, rowsLeft := p.resumePoint(next)
	if failed != nil && ctxErr == nil {
		if rowsLeft {
			return &failedError{err: failed, point: point}
		}
		return failed
	}
	if point != nil {
		return usage.Wrap(point)
	}
	return ctxErr
}

// failedError is a load that failed with rows left behind: its text says
// where to resume (as the point's advice reads when it is printed).
type failedError struct {
	err   error
	point *InterruptedError
}

func (e *failedError) Error() string { return fmt.Sprintf("%v (%s)", e.err, e.point.Error()) }
func (e *failedError) Unwrap() error { return e.err }
