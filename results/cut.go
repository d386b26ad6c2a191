package results

import "strings"

// Statements cut at the end of a run.
//
// A statement still running when a run (or a round of joinbench ab) ends,
// or is interrupted, is stopped with KILL QUERY. It is recorded all the
// same, so that a scenario that stalls shows as what it is rather than as
// nothing: its row has CutAtEnd set, error code ErrCutAtEnd (the server's
// "query execution was interrupted") and LatencyNs the time it had run
// when it was stopped. That time is a censored observation, a lower bound
// of the statement's latency: readers keep such rows out of latency
// figures and error rates, and count them apart. The column is null on
// every other row, and absent from files written before it existed, which
// read as holding no cut statement.

// ErrCutAtEnd is the error code of a statement cut at the end of a run:
// ER_QUERY_INTERRUPTED (SQL state 70100), what KILL QUERY makes a
// statement return. A statement stopped by --query-timeout has the same
// code; CutAtEnd tells them apart.
const ErrCutAtEnd = 1317

// CutExecution is a statement cut at the end of a run, as the column
// reader hands it over (ExecutionColumns.Cut) instead of a row of the
// columns.
type CutExecution struct {
	Scenario string
	StartNs  int64 // Unix nanoseconds
	// IntendedStartNs is 0 when the run was not paced.
	IntendedStartNs int64
	// RanNs is how long it had run when stopped (latency_ns): its latency
	// is at least that.
	RanNs int64
}

func cutExecution(e *Execution) CutExecution {
	ce := CutExecution{Scenario: strings.Clone(e.Scenario), StartNs: e.Start.UnixNano(), RanNs: e.LatencyNs}
	if e.IntendedStart != nil {
		ce.IntendedStartNs = e.IntendedStart.UnixNano()
	}
	return ce
}
