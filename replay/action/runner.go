package action

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/results"
)

// Runner runs a run's actions at their offsets into the measured phase,
// each in a goroutine of its own, and records what each did.
type Runner struct {
	actions []Action
	env     Env
	start   time.Time
	// origin, when set, is what the actions are timed from instead of
	// start: the workload's measured start (StartFrom).
	origin *Origin
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	writing sync.Mutex // one Env.Record at a time
	mu      sync.Mutex
	rows    []results.Action
	// running are the targets being acted on, each with its row as it
	// started; closed is set once Stop gave up waiting for them: rows
	// recorded after it are dropped (the run's results are closed).
	running map[*running]bool
	closed  bool
}

// running is one target of an action while it runs.
type running struct {
	row  results.Action
	kind *Kind
}

// Start starts the actions, timed from start (the measured phase's), and
// stops those still running at deadline (its end; zero for a run bounded
// by events only, whose actions are stopped by Stop when its workers are
// done). It returns nil when there are none.
//
// The deadline matters: the workers may be unable to end before an action
// does (a node paused, or desynced by an RSU change that waits for the
// workers' own metadata locks), so the actions must not wait for them.
func Start(ctx context.Context, env Env, actions []Action, start, deadline time.Time) *Runner {
	return StartFrom(ctx, env, actions, start, nil, deadline)
}

// StartFrom is Start with the actions timed from origin once it is set
// (the workload's first successful execution) rather than from start: a
// workload that starts late on a busy machine shifts them with it, so
// that the quiet stretch before an action keeps its length. No action
// runs before origin is set; one whose wait the deadline or Stop ends is
// recorded as skipped, planned from start. A nil origin is Start.
func StartFrom(ctx context.Context, env Env, actions []Action, start time.Time, origin *Origin, deadline time.Time) *Runner {
	if len(actions) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	r := &Runner{actions: actions, env: env, start: start, origin: origin, ctx: ctx, cancel: cancel, running: map[*running]bool{}}
	for i := range actions {
		a := &actions[i]
		r.wg.Add(1)
		go func() { defer r.wg.Done(); r.run(a) }()
	}
	if !deadline.IsZero() {
		go r.cancelAt(deadline)
	}
	return r
}

// cancelAt ends the actions at deadline, unless Stop came first.
func (r *Runner) cancelAt(deadline time.Time) {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case <-t.C:
		r.cancel()
	case <-r.ctx.Done():
	}
}

// Stop ends the actions still running (the run is over: statements are
// killed, faults undone), waits for them and returns every action's rows,
// those that never started as skipped. On a nil Runner it returns nil.
//
// The wait is bounded as a worker's statement is: an action is given
// Env.AbortAfter plus its kind's StopBound (an external command its
// SIGTERM-then-SIGKILL sequence, a restart the time its server is given
// to start again, as starting it again undoes the fault). An action still
// running past its bound is recorded as unstopped and left behind.
func (r *Runner) Stop() []results.Action {
	if r == nil {
		return nil
	}
	r.cancel()
	done := make(chan struct{})
	go func() { r.wg.Wait(); close(done) }()
	bound := r.stopBound()
	t := time.NewTimer(bound)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
	return r.close(bound)
}

// Down names the servers the actions acted on (crash, restart, slow...)
// that are not running now that they are over: a fault whose recovery
// failed, or that the run's end cut short. On a nil Runner it is empty.
func (r *Runner) Down() []string {
	if r == nil {
		return nil
	}
	var down []string
	seen := map[string]bool{}
	for _, a := range r.actions {
		for _, tg := range a.Targets {
			if tg.Process == nil || seen[tg.Node] {
				continue
			}
			seen[tg.Node] = true
			if !tg.Process.Running() {
				down = append(down, tg.Node)
			}
		}
	}
	return down
}

// stopBound is how long the actions running may take to stop.
func (r *Runner) stopBound() time.Duration {
	bound := r.env.AbortAfter
	r.mu.Lock()
	defer r.mu.Unlock()
	for a := range r.running {
		bound = max(bound, r.env.AbortAfter+a.kind.StopBound)
	}
	return bound
}

// run waits for an action's offset, then acts on its targets in turn.
func (r *Runner) run(a *Action) {
	planned := r.start.Add(a.Offset)
	if r.origin != nil {
		select {
		case <-r.origin.set:
			planned = r.origin.at.Add(a.Offset)
		case <-r.ctx.Done():
		}
	}
	if r.ctx.Err() != nil || wait(r.ctx, time.Until(planned)) != nil {
		for i, tg := range a.Targets {
			r.record(r.row(a, i, tg, planned), false)
		}
		return
	}
	if _, ok := a.Job.(GroupJob); ok && a.Kind.AllAtOnce && a.Target == AllEndpoints {
		r.doAll(a, planned)
		return
	}
	halted := false
	for i, tg := range a.Targets {
		row := r.row(a, i, tg, planned)
		if halted {
			// An operator stops a rolling change at the first node it
			// fails on.
			row.ErrorMessage = "not run: the change failed on an earlier node"
		}
		if r.ctx.Err() != nil || halted {
			r.record(row, false)
			continue
		}
		err := r.do(a, tg, &row)
		halted = err != nil
		r.record(row, true)
	}
}

// do acts on one target of a, filling its row with how it went.
func (r *Runner) do(a *Action, tg Target, row *results.Action) error {
	row.Start = time.Now()
	r.printf("action %d on %s: %s: %s", a.Number, where(*row), a.Kind.Name, clipText(row.What, 200))
	ra := r.started(*row, a.Kind)
	var out Outcome
	err := a.Job.Do(r.ctx, Site{Target: tg, DB: r.env.Endpoints[tg.Endpoint].DB}, &out)
	r.ended(ra)
	row.End = time.Now()
	out.note(row)
	r.outcome(row, err)
	return err
}

// doAll acts on every target of a at once (GroupJob), one row each.
func (r *Runner) doAll(a *Action, planned time.Time) {
	rows := make([]results.Action, len(a.Targets))
	outs := make([]Outcome, len(a.Targets))
	ptrs := make([]*Outcome, len(a.Targets))
	sites := make([]Site, len(a.Targets))
	var ras []*running
	start := time.Now()
	r.printf("action %d on all: %s: %s", a.Number, a.Kind.Name, clipText(a.Job.What(Target{}), 200))
	for i, tg := range a.Targets {
		rows[i] = r.row(a, i, tg, planned)
		rows[i].Start = start
		ptrs[i] = &outs[i]
		sites[i] = Site{Target: tg, DB: r.env.Endpoints[tg.Endpoint].DB}
		ras = append(ras, r.started(rows[i], a.Kind))
	}
	err := a.Job.(GroupJob).DoAll(r.ctx, sites, ptrs)
	end := time.Now()
	for i := range rows {
		r.ended(ras[i])
		rows[i].End = end
		outs[i].note(&rows[i])
		r.outcome(&rows[i], err)
		r.record(rows[i], true)
	}
}

// outcome notes in row how the action ended, from the error it returned.
func (r *Runner) outcome(row *results.Action, err error) {
	switch {
	case err == nil:
		row.Outcome = results.ActionOK
	case r.ctx.Err() != nil:
		row.Outcome = results.ActionCancelled
		row.ErrorCode, row.ErrorMessage = errorFields(err)
		row.ErrorMessage = "stopped at the end of the run: " + row.ErrorMessage
	default:
		row.Outcome = results.ActionFailed
		row.ErrorCode, row.ErrorMessage = errorFields(err)
	}
}

// errorFields are the code and message a row stores of an error: a
// server error's number, a command's exit status, else -1.
func errorFields(err error) (int32, string) {
	var me *mysql.MySQLError
	var exit interface{ ExitCode() int }
	switch {
	case errors.As(err, &me):
		return int32(me.Number), me.Message
	case errors.As(err, &exit):
		return int32(exit.ExitCode()), err.Error()
	}
	return -1, err.Error()
}

func (r *Runner) printf(format string, args ...any) {
	r.env.printf("[ %5.0fs ] "+format, append([]any{time.Since(r.start).Seconds()}, args...)...)
}

// where names a row's target as the live output does: its node, else its
// endpoint.
func where(row results.Action) string {
	if row.Node != "" {
		return row.Node
	}
	return row.Endpoint
}

// unstopped is the message of an action that did not stop within bound.
func unstopped(bound time.Duration) string {
	return fmt.Sprintf("did not stop within %s of the end of the run (no reply from the server?): "+
		"the run ended without it, and what it was doing may outlast the run", bound)
}
