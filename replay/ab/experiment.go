package ab

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/joinbench/joinbench/replay"
	"github.com/joinbench/joinbench/results"
)

// Side is one of the two servers compared.
type Side int

const (
	Base Side = iota
	Candidate
)

// sides are both, base first.
var sides = [2]Side{Base, Candidate}

// Name is how folders and run.json name the side: results.SideBase or
// results.SideCandidate.
func (s Side) Name() string {
	if s == Candidate {
		return results.SideCandidate
	}
	return results.SideBase
}

// Interleave is how the two sides' runs share the time of the experiment.
type Interleave string

const (
	// Statements runs both sides at once, taking turns statement by
	// statement (replay.Lockstep): one run per side, each time slice a
	// round.
	Statements Interleave = "statements"
	// Rounds makes each round a run of its own on one side, ordered base,
	// candidate, candidate, base, base, candidate, ...
	Rounds Interleave = "rounds"
)

// DefaultWarmup is the warm-up of every run when none is given: it is
// not recorded, and lets connections, prepared statements and caches
// settle after each switch.
const DefaultWarmup = 2 * time.Second

// Rounds that are runs of their own pay a warm-up each and measure the
// machine's drift between them, so they are few and long; the slices of
// runs in lockstep cost nothing to cut and vary little, so they are many
// (more degrees of freedom for the same time).
const (
	defaultRounds    = 6
	defaultRoundTime = 20 * time.Second
	defaultSlices    = 12
	defaultSliceTime = 10 * time.Second
)

// DefaultRounds is the number of rounds per side when none is given.
func (i Interleave) DefaultRounds() int {
	if i == Statements {
		return defaultSlices
	}
	return defaultRounds
}

// DefaultTime is the length of a round (a slice) when neither a time nor
// a number of events is given.
func (i Interleave) DefaultTime() time.Duration {
	if i == Statements {
		return defaultSliceTime
	}
	return defaultRoundTime
}

// A RunFunc makes one run of o on the server of side and returns its run
// folder (o.Out/run=<o.RunID>). It connects, and prepares a throwaway
// server if it starts one, writing its notices to o.Log. The folder is
// returned with the run's error when the run was recorded but failed.
type RunFunc func(ctx context.Context, side Side, o replay.Options) (dir string, err error)

// Experiment is one A/B comparison: Rounds rounds of Workload on each
// side.
type Experiment struct {
	// Series identifies the experiment: its folder is Out/ab=<Series>
	// and its runs' ids start with it. Default: a new run id.
	Series string
	// Out is the results folder the experiment's folder goes in.
	Out        string
	Interleave Interleave
	// Rounds is the number of rounds per side (of slices, with
	// Statements).
	Rounds int
	// Workload is every run's options. Its Time is the length of a round
	// (of a slice, with Statements), its Warmup precedes each run. Out,
	// RunID, Lockstep, Log and Progress are the experiment's to set: each
	// run's notices go to Log only in lockstep (prefixed with its side),
	// and no run shows its live progress, which would bury the
	// experiment's.
	Workload replay.Options
	// Labels name the base and candidate servers in messages; they never
	// hold a password.
	Labels [2]string
	// HeldBack is the share of its server's time each of the candidate's
	// answers is held back by (ab --candidate-slow), recorded in its runs'
	// replicate; RunOn does the holding.
	HeldBack float64
	// RunOn makes each run.
	RunOn RunFunc
	// Log gets the experiment's progress lines; nil means none.
	Log io.Writer
}

// Result is where an experiment's runs are, for the comparison.
type Result struct {
	// Dir is the experiment's folder, Out/ab=<series>.
	Dir string
	// Runs are each side's run folders (indexed by Side), in the order
	// they ran: one per round, or one holding every slice in lockstep.
	Runs [2][]string
}

// SideDir is the folder of a side's runs, which compare reads as one
// side.
func (r *Result) SideDir(s Side) string { return sideDir(r.Dir, s) }

func sideDir(dir string, s Side) string { return filepath.Join(dir, "side="+s.Name()) }

// Run runs the experiment and returns where its runs are. An
// interrupted experiment keeps what it recorded but returns an error:
// rounds cut short are not those a comparison expects.
func (e *Experiment) Run(ctx context.Context) (*Result, error) {
	if e.RunOn == nil {
		return nil, errors.New("ab: no RunFunc")
	}
	if e.Rounds < 1 {
		return nil, fmt.Errorf("ab: %d rounds per side: at least 1", e.Rounds)
	}
	series := e.Series
	if series == "" {
		series = results.NewRunID(time.Now())
	}
	x := &experiment{Experiment: *e, series: series, res: &Result{Dir: filepath.Join(e.Out, "ab="+series)}}
	if x.Log == nil {
		x.Log = io.Discard
	}
	var err error
	switch e.Interleave {
	case Statements:
		err = x.runLockstep(ctx)
	case Rounds:
		err = x.runRounds(ctx)
	default:
		err = fmt.Errorf("ab: interleave %q: want %q or %q", e.Interleave, Statements, Rounds)
	}
	if err != nil {
		return nil, err
	}
	return x.res, nil
}

// experiment is the state of one Run.
type experiment struct {
	Experiment
	series string
	res    *Result
	// noWarmup is set once a round recorded nothing because its warm-up
	// events outlasted the round: the engine starts recorded events only
	// before the round's end, so with events that long a warm-up would
	// leave every round empty. The later rounds of both sides then run
	// without warm-up, alike.
	noWarmup bool
}

// heldBack is what side's runs record of the holding back of answers.
func (x *experiment) heldBack(side Side) float64 {
	if side == Candidate {
		return x.HeldBack
	}
	return 0
}

// runOptions are the options of a run of side with run id id: the
// workload's, in the side's folder.
func (x *experiment) runOptions(side Side, id string) replay.Options {
	o := x.Workload
	o.Out = sideDir(x.res.Dir, side)
	o.RunID = id
	o.Lockstep = nil
	o.Progress = nil
	o.Log = io.Discard
	return o
}

func (x *experiment) label(s Side) string { return x.Labels[s] }

// roundTime and warmup are the workload's, as durations.
func (x *experiment) roundTime() time.Duration { return time.Duration(x.Workload.Time) }
func (x *experiment) warmup() time.Duration    { return time.Duration(x.Workload.Warmup) }

// ServerError is the failure of a side's server during the experiment,
// after it had answered (a round of its own ran): a server that stopped
// answering or went away, not one named wrong.
type ServerError struct {
	Side Side
	Err  error
}

func (e *ServerError) Error() string { return e.Err.Error() }
func (e *ServerError) Unwrap() error { return e.Err }

// interrupted is the error of an experiment stopped by ctx: what was
// recorded is kept, each run's run.json saying whether it was cut short,
// but rounds cut short are not those a comparison expects.
func (x *experiment) interrupted(err error) error {
	return fmt.Errorf("ab interrupted; the runs recorded so far are kept in %s: %w", x.res.Dir, err)
}
