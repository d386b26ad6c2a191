package report

import (
	"time"

	"github.com/joinbench/joinbench/replay/results"
)

// detailFields are the columns read back for the rows a report shows
// whole: the scenarios' slowest executions and first failures.
var detailFields = results.SelectExecutionFields("Endpoint", "Node", "Thread", "Event", "StatementSeq", "Rows",
	"SQLState", "ErrorMessage", "PlanHash", "Params")

// readDetails reads back, after the scan, the rows the scenarios point
// at: a few per scenario, each a page per column.
func readDetails(scens []*scenarioAcc, warn results.Warner) map[results.RowRef]*results.Execution {
	var refs []results.RowRef
	for _, a := range scens {
		for _, r := range a.slow.rows {
			refs = append(refs, r.ref)
		}
		for _, e := range a.firstErr {
			refs = append(refs, e.ref)
		}
	}
	rows := results.ReadExecutionsAt(refs, detailFields, warn)
	out := make(map[results.RowRef]*results.Execution, len(refs))
	for i, r := range refs {
		out[r] = rows[i]
	}
	return out
}

// slowExecutions are a scenario's slowest rows as the report shows them:
// what the scan knew, and the rest as read back.
func slowExecutions(a *scenarioAcc, rows map[results.RowRef]*results.Execution) []SlowExecution {
	var out []SlowExecution
	for _, r := range a.slow.rows {
		s := SlowExecution{Start: time.Unix(0, r.start).UTC(), LatencyMs: ms(r.latency), ErrorCode: r.code}
		if e := rows[r.ref]; e != nil {
			s.Endpoint, s.Node, s.Thread, s.Event, s.StatementSeq = e.Endpoint, e.Node, e.Thread, e.Event, e.StatementSeq
			s.Rows, s.PlanHash, s.ErrorMessage = e.Rows, e.PlanHash, e.ErrorMessage
			s.Params = e.Params
			if s.Params == nil {
				s.Params = []string{}
			}
		}
		out = append(out, s)
	}
	return out
}
