package replay

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/replay/results"
)

// Action is an ActionSpec resolved against the run's endpoints: what the
// engine executes during the measured phase (Config.Actions).
type Action struct {
	ActionSpec
	Number  int32          // from 1, in the order given
	Targets []ActionTarget // one, or every endpoint in turn (a rolling change)
}

// ActionTarget is an endpoint an action runs on.
type ActionTarget struct {
	Endpoint int    // index in Config.Endpoints
	Node     string // the sandbox node's name, if any
	// Process is the sandbox server behind the endpoint (pause, restart);
	// Conn its connection settings (exec).
	Process server.Process
	Conn    *mysql.Config
}

// ActionSink is a Sink that also records actions (ResultsSink is one).
type ActionSink interface {
	// WriteActions replaces the run's action rows with rows.
	WriteActions(rows []results.Action) error
}

func (s runDirSink) WriteActions(rows []results.Action) error { return s.d.WriteActions(rows) }

// ResolveActions resolves each spec's target against the endpoints: a
// sandbox node name (node2), a number from 1 in endpoint order, a
// host:port (the endpoint's name), or "all". An unknown endpoint, or a
// fault on a server joinbench does not control, is a usage error.
func ResolveActions(specs []ActionSpec, eps []server.Endpoint) ([]Action, error) {
	var out []Action
	for i, sp := range specs {
		a := Action{ActionSpec: sp, Number: int32(i + 1)}
		var idx []int
		switch {
		case sp.Target == AllEndpoints:
			for j := range eps {
				idx = append(idx, j)
			}
		default:
			j := findEndpoint(sp.Target, eps)
			if j < 0 {
				var names []string
				for k, ep := range eps {
					n := strconv.Itoa(k+1) + " " + ep.Name
					if ep.Node != "" {
						n = ep.Node + " (" + n + ")"
					}
					names = append(names, n)
				}
				return nil, usage.Errorf("--action %q: no endpoint %q; the endpoints are %s", sp.Text, sp.Target, strings.Join(names, ", "))
			}
			idx = []int{j}
		}
		for _, j := range idx {
			t := ActionTarget{Endpoint: j, Node: eps[j].Node, Process: eps[j].Process}
			if (sp.Kind == ActionPause || sp.Kind == ActionRestart) && t.Process == nil {
				return nil, usage.Errorf("--action %q: %s needs a server joinbench controls: a named sandbox or a node of a cluster sandbox (--sandbox NAME)", sp.Text, sp.Kind)
			}
			cfg, err := eps[j].Config()
			if err != nil {
				return nil, usage.Wrap(err)
			}
			t.Conn = cfg
			a.Targets = append(a.Targets, t)
		}
		out = append(out, a)
	}
	return out, nil
}

func findEndpoint(target string, eps []server.Endpoint) int {
	for j, ep := range eps {
		if ep.Node != "" && strings.EqualFold(ep.Node, target) {
			return j
		}
	}
	for j, ep := range eps {
		if ep.Name == target {
			return j
		}
	}
	if n, err := strconv.Atoi(target); err == nil && n >= 1 && n <= len(eps) {
		return n - 1
	}
	return -1
}

// actionRunner executes a run's actions at their offsets into the measured
// phase, each in its own goroutine, and records what each did.
type actionRunner struct {
	e      *engine
	start  time.Time
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	out    *lockedWriter

	mu   sync.Mutex
	rows []results.Action
	// running are the targets being acted on, each with its row as it
	// started; closed is set once stop gave up waiting for them: rows
	// recorded after it are dropped (the run's results are closed).
	running map[*runningAction]bool
	closed  bool
}

// runningAction is one target of an action while it runs.
type runningAction struct {
	row  results.Action
	kind string
}

// startActions starts the actions of the run, timed from start (the
// measured phase's), and stops those still running at deadline (its end;
// zero for a run bounded by events only, whose actions are stopped when
// its workers are done). It returns nil when there are none.
//
// The deadline matters: the workers may be unable to end before an action
// does (a node paused, or desynced by an RSU change that waits for the
// workers' own metadata locks), so the actions must not wait for them.
func (e *engine) startActions(ctx context.Context, start, deadline time.Time) *actionRunner {
	if len(e.cfg.Actions) == 0 {
		return nil
	}
	out := e.cfg.Progress
	if out == nil {
		out = e.cfg.Log
	}
	ctx, cancel := context.WithCancel(ctx)
	r := &actionRunner{e: e, start: start, ctx: ctx, cancel: cancel, out: &lockedWriter{w: out}}
	for i := range e.cfg.Actions {
		a := &e.cfg.Actions[i]
		r.wg.Add(1)
		go func() { defer r.wg.Done(); r.run(a) }()
	}
	if !deadline.IsZero() {
		go func() {
			t := time.NewTimer(time.Until(deadline))
			defer t.Stop()
			select {
			case <-t.C:
				r.cancel()
			case <-ctx.Done():
			}
		}()
	}
	return r
}

// stop ends the actions still running (the run is over: statements are
// killed, faults undone), waits for them and returns every action's rows,
// those that never started as skipped.
//
// The wait is bounded as a worker's statement is (stop.go): an action on a
// server connection gets abortAfter to answer KILL QUERY; an external
// command its SIGTERM-then-SIGKILL sequence and abortAfter; a restart the
// time its server is given to start again, as starting it again undoes the
// fault. An action still running past its bound is recorded as unstopped
// and left behind.
func (r *actionRunner) stop() []results.Action {
	if r == nil {
		return nil
	}
	r.cancel()
	done := make(chan struct{})
	go func() { r.wg.Wait(); close(done) }()
	bound := r.e.stop.abortAfter
	r.mu.Lock()
	for a := range r.running {
		bound = max(bound, r.stopBound(a.kind))
	}
	r.mu.Unlock()
	t := time.NewTimer(bound)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
	r.mu.Lock()
	r.closed = true
	var left []results.Action
	for a := range r.running {
		row := a.row
		row.End, row.Outcome = time.Now(), results.ActionUnstopped
		row.ErrorMessage = fmt.Sprintf("did not stop within %s of the end of the run (no reply from the server?): "+
			"the run ended without it, and what it was doing may outlast the run", bound)
		left = append(left, row)
	}
	r.rows = append(r.rows, left...)
	rows := sortedActions(r.rows)
	r.mu.Unlock()
	for _, row := range left {
		r.printf("action %d on %s: %s %s", row.Action, r.where(ActionTarget{Endpoint: r.endpointIndex(row.Endpoint), Node: row.Node}),
			row.Kind, row.ErrorMessage)
	}
	if len(left) > 0 {
		r.write(rows)
	}
	return rows
}

// stopBound is how long an action of a kind may take to stop once the run
// has ended.
func (r *actionRunner) stopBound(kind string) time.Duration {
	switch kind {
	case ActionExec:
		return execKillAfter + r.e.stop.abortAfter
	case ActionRestart:
		return server.RestartStartTimeout + r.e.stop.abortAfter
	}
	return r.e.stop.abortAfter
}

func (r *actionRunner) run(a *Action) {
	planned := r.start.Add(a.Offset)
	t := time.NewTimer(time.Until(planned))
	defer t.Stop()
	select {
	case <-t.C:
	case <-r.ctx.Done():
		for i, tg := range a.Targets {
			r.record(r.row(a, i, tg, planned), false)
		}
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
		row.Start = time.Now()
		r.printf("action %d on %s: %s: %s", a.Number, r.where(tg), a.Kind, clipText(row.What, 200))
		ra := r.started(row, a.Kind)
		err := r.do(r.ctx, a, tg, &row)
		r.ended(ra)
		row.End = time.Now()
		switch {
		case err == nil:
			row.Outcome = results.ActionOK
		case r.ctx.Err() != nil:
			row.Outcome = results.ActionCancelled
			row.ErrorCode, _, row.ErrorMessage = errorFields(err)
			row.ErrorMessage = "stopped at the end of the run: " + row.ErrorMessage
		default:
			row.Outcome = results.ActionFailed
			row.ErrorCode, _, row.ErrorMessage = errorFields(err)
		}
		var ee *exitError
		if errors.As(err, &ee) {
			row.ErrorCode = int32(ee.code)
		}
		halted = err != nil
		r.record(row, true)
	}
}

// row is the results row of one target of a, before it runs.
func (r *actionRunner) row(a *Action, i int, tg ActionTarget, planned time.Time) results.Action {
	what := a.What()
	if a.Kind == ActionExec && tg.Conn != nil {
		what = expandCommand(a.Command, tg.Conn)
	}
	return results.Action{Action: a.Number, Step: int32(i + 1), Spec: a.Text, Kind: a.Kind,
		Endpoint: r.e.cfg.Endpoints[tg.Endpoint].Name, Node: tg.Node, What: what, Planned: planned,
		Outcome: results.ActionSkipped}
}

func (r *actionRunner) where(tg ActionTarget) string {
	if tg.Node != "" {
		return tg.Node
	}
	return r.e.cfg.Endpoints[tg.Endpoint].Name
}

// started notes that a target of an action is being acted on.
func (r *actionRunner) started(row results.Action, kind string) *runningAction {
	a := &runningAction{row: row, kind: kind}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.running == nil {
		r.running = map[*runningAction]bool{}
	}
	r.running[a] = true
	return a
}

// ended notes that it ended.
func (r *actionRunner) ended(a *runningAction) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.running, a)
}

// record keeps a row, prints how it ended when it ran, and rewrites the
// run's actions file. After stop gave up on the actions still running, it
// does nothing: they were recorded as unstopped.
func (r *actionRunner) record(row results.Action, ran bool) {
	r.mu.Lock()
	closed := r.closed
	r.mu.Unlock()
	if closed {
		return
	}
	if ran {
		msg := fmt.Sprintf("action %d on %s: %s %s after %.1fs", row.Action, r.where(ActionTarget{Endpoint: r.endpointIndex(row.Endpoint), Node: row.Node}),
			row.Kind, row.Outcome, row.End.Sub(row.Start).Seconds())
		if row.Rows > 0 || row.Chunks > 0 {
			msg += fmt.Sprintf(", %d rows", row.Rows)
		}
		if row.Chunks > 0 {
			msg += fmt.Sprintf(" in %d chunks", row.Chunks)
		}
		if row.ErrorMessage != "" {
			msg += ": " + clipText(row.ErrorMessage, 300)
		}
		r.printf("%s", msg)
	}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	r.rows = append(r.rows, row)
	rows := sortedActions(r.rows)
	r.mu.Unlock()
	r.write(rows)
}

// write rewrites the run's actions file with rows.
func (r *actionRunner) write(rows []results.Action) {
	if s, ok := r.e.cfg.Sink.(ActionSink); ok {
		if err := s.WriteActions(rows); err != nil {
			r.e.log.Printf("write actions: %v", err)
		}
	}
}

// sortedActions is a copy of rows in action and step order.
func sortedActions(rows []results.Action) []results.Action {
	out := slices.Clone(rows)
	slices.SortStableFunc(out, func(a, b results.Action) int {
		return cmp.Or(cmp.Compare(a.Action, b.Action), cmp.Compare(a.Step, b.Step))
	})
	return out
}

func (r *actionRunner) endpointIndex(name string) int {
	for i, ep := range r.e.cfg.Endpoints {
		if ep.Name == name {
			return i
		}
	}
	return 0
}

func (r *actionRunner) printf(format string, args ...any) {
	r.out.Printf("[ %5.0fs ] "+format, append([]any{time.Since(r.start).Seconds()}, args...)...)
}

// do executes one target of an action.
func (r *actionRunner) do(ctx context.Context, a *Action, tg ActionTarget, row *results.Action) error {
	db := r.e.cfg.Endpoints[tg.Endpoint].DB
	switch a.Kind {
	case ActionSQL:
		return withConn(ctx, db, func(c *actionConn) error {
			n, err := c.exec(a.Statement)
			row.Rows = n
			return err
		})
	case ActionRSU:
		return withConn(ctx, db, func(c *actionConn) error { return c.rsu(a.Statement, row) })
	case ActionChunked:
		return withConn(ctx, db, func(c *actionConn) error { return c.chunked(a, row) })
	case ActionLock:
		return withConn(ctx, db, func(c *actionConn) error { return c.lock(a.Tables, a.For) })
	case ActionExec:
		return runCommand(ctx, a.Command, tg.Conn, row)
	case ActionPause:
		return pause(ctx, tg.Process, a.For)
	case ActionRestart:
		return tg.Process.Restart(ctx, a.For)
	}
	return fmt.Errorf("unknown action kind %q", a.Kind)
}

// wait sleeps d, or less when ctx ends.
func wait(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func clipText(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
	cut bool
}

var _ io.Writer = (*tailBuffer)(nil)

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
		t.cut = true
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cut {
		return "...\n" + string(t.b)
	}
	return string(t.b)
}
