package action

import (
	"time"

	"github.com/joinbench/joinbench/internal/server"
)

// Outcome is what a job notes of what it did on one target. Jobs only
// note; the runner makes it, with the time and the error the job ended
// with, the target's row of actions.parquet (rows.go), so that a new kind
// needs to know nothing of the results' format.
type Outcome struct {
	// What, when set, replaces the job's description on the row: the
	// command an exec action ran, as expanded.
	What string
	// Started, when set, is when the fault itself began (a node slowed,
	// a server killed), later than the job's start.
	Started time.Time
	Rows    int64 // rows affected by a statement or a chunked DML
	Chunks  int32 // transactions of a chunked DML
	// Output is what an external command printed, or what a slow or
	// crash action measured and did, in words.
	Output string
	// Recovery is how a node a crash action killed came back.
	Recovery *server.Recovery
}
