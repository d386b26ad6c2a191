package ingest

import "time"

// Statement is one statement as a log recorded it.
type Statement struct {
	SQL      string
	Database string // the default database, when the log says
	// Time is how long it ran; HasTime is false when the log does not
	// say (a general log).
	Time    time.Duration
	HasTime bool
	// RowsSent and RowsExamined are the slow log's counts (0 when absent).
	RowsSent, RowsExamined int64
	// Source is where the statement starts: file:line.
	Source string
}
