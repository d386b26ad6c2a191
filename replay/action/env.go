package action

import (
	"database/sql"
	"time"

	"github.com/joinbench/joinbench/results"
)

// Env is what a run gives its actions.
type Env struct {
	// Endpoints are the run's endpoints, in the order Target.Endpoint
	// indexes them.
	Endpoints []Endpoint
	// AbortAfter is how long a server is given to answer KILL QUERY: an
	// action still running when the run ends is given that long to stop,
	// plus its kind's StopBound.
	AbortAfter time.Duration
	// Printf prints a line of the live output (an action started or
	// ended), Logf a notice (the rows could not be recorded); nil prints
	// nothing. Each is called from several goroutines.
	Printf, Logf func(format string, args ...any)
	// Record, when set, gets every action's rows, in action and step
	// order, each time one is added: it rewrites the run's actions file.
	Record func(rows []results.Action) error
}

// Endpoint is what an action gets of one of the run's endpoints.
type Endpoint struct {
	Name string  // host:port, as on the run's rows
	DB   *sql.DB // a job takes a connection of its own from it
}

func (e *Env) printf(format string, args ...any) {
	if e.Printf != nil {
		e.Printf(format, args...)
	}
}

func (e *Env) logf(format string, args ...any) {
	if e.Logf != nil {
		e.Logf(format, args...)
	}
}
