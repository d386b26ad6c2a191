package action

import (
	"context"
	"database/sql"
	"time"
)

// Kind describes one kind of action. Each kind is a value in a file of
// its own, listed in kinds.
type Kind struct {
	// Name is the KIND of the spec, lower case.
	Name string
	// Syntax is how the kind is written after the endpoint's colon, as
	// the --action help lists it: "pause DURATION".
	Syntax string
	// Note, when set, follows the syntax in that list: a few words.
	Note string
	// Doc is what it does, for users: its row in docs/workflow.md's table
	// of kinds (DocTable; markdown).
	Doc string
	// Rolling kinds may run on every endpoint in turn (target "all").
	Rolling bool
	// AllAtOnce kinds take target "all" as every endpoint at once, in one
	// job (GroupJob): a crash of the whole cluster.
	AllAtOnce bool
	// Process kinds act on the server process behind the endpoint, which
	// only a sandbox joinbench started gives them.
	Process bool
	// StopBound is how long an action of this kind may take to stop once
	// the run has ended, beyond Env.AbortAfter (the time a server is
	// given to answer KILL QUERY).
	StopBound time.Duration
	// Parse reads the kind's arguments into the job it does; an error is
	// the user's mistake, in words that follow the spec.
	Parse func(Args) (Job, error)
}

// Job is what an action does, as parsed from its arguments.
type Job interface {
	// What describes it on a target for the live output and the
	// results row; on the zero Target, as written.
	What(t Target) string
	// Do does it on one target until it is done or ctx ends (the run
	// is over), when it stops what it started and undoes its fault. It
	// notes what it did (rows, chunks, output) in out.
	Do(ctx context.Context, at Site, out *Outcome) error
}

// GroupJob is the job of an AllAtOnce kind, which acts on every target at
// once when the target is "all".
type GroupJob interface {
	Job
	// DoAll does it on the targets at once, noting in each target's
	// outcome (in the order of at) what happened to it.
	DoAll(ctx context.Context, at []Site, outs []*Outcome) error
}

// checker is a job that can tell, before the run, that it could not act
// on a target (the machine lacks what it needs).
type checker interface {
	Check(t Target) error
}

// Site is where a job runs: a resolved target and the run's pool for its
// endpoint, of which a job takes a connection of its own.
type Site struct {
	Target
	DB *sql.DB
}
