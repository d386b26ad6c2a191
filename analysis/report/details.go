package report

import (
	"time"

	"github.com/joinbench/joinbench/results"
)

// slowFields and errorFields are the columns read back for the rows a
// report shows whole, a few per scenario: its slowest executions (what the
// scan left out of them, rows included) and the first failure of each
// error code. A column costs a page per file holding such rows: only
// failures read the messages.
var (
	slowFields  = results.SelectExecutionFields("Endpoint", "Node", "Thread", "Rows", "Params")
	errorFields = results.SelectExecutionFields("SQLState", "ErrorMessage")
)

// details are the rows read back, by where they are.
type details struct {
	slow, errors map[results.RowRef]*results.Execution
}

// readDetails reads back, after the scan, the rows the scenarios point
// at.
func readDetails(scens []*scenarioAcc, warn results.Warner) details {
	var slow, errs []results.RowRef
	for _, a := range scens {
		for _, r := range a.slow.rows {
			slow = append(slow, r.ref)
			if r.code != 0 {
				errs = append(errs, r.ref)
			}
		}
		for _, e := range a.firstErr {
			errs = append(errs, e.ref)
		}
	}
	byRef := func(refs []results.RowRef, fields results.ExecutionFields) map[results.RowRef]*results.Execution {
		rows := results.ReadExecutionsAt(refs, fields, warn)
		out := make(map[results.RowRef]*results.Execution, len(refs))
		for i, r := range refs {
			out[r] = rows[i]
		}
		return out
	}
	return details{slow: byRef(slow, slowFields), errors: byRef(errs, errorFields)}
}

// slowExecutions are a scenario's slowest rows as the report shows them:
// what the scan knew, and the rest as read back.
func slowExecutions(a *scenarioAcc, d details) []SlowExecution {
	var out []SlowExecution
	for _, r := range a.slow.rows {
		s := SlowExecution{Start: time.Unix(0, r.start).UTC(), LatencyMs: ms(r.latency), ErrorCode: r.code, PlanHash: r.plan}
		if e := d.slow[r.ref]; e != nil {
			s.Endpoint, s.Node, s.Thread, s.Rows, s.Params = e.Endpoint, e.Node, e.Thread, e.Rows, e.Params
			if s.Params == nil {
				s.Params = []string{}
			}
		}
		if e := d.errors[r.ref]; e != nil {
			s.ErrorMessage = e.ErrorMessage
		}
		out = append(out, s)
	}
	return out
}
