package replay

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/joinbench/joinbench/analysis/stall"
	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/results"
)

// Run replays the configured workload and returns its summary. Cancelling
// ctx (Ctrl-C) stops the run: statements in flight are abandoned, what was
// recorded is flushed, and the summary says the run was interrupted.
//
// A run goes through its phases in turn: connect, set up (plans at start,
// the meeting of a lockstep), start the writer and the explainers, the
// warm-up and measured phase with their goroutines (measure), drain them
// in order, and sum up.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	e := newEngine(cfg.withDefaults())
	if err := e.connect(ctx); err != nil {
		return nil, err
	}
	lt := e.newLifetimes(ctx)
	defer lt.end()
	leave, err := e.setUp(lt.run)
	if err != nil {
		return nil, err
	}
	defer leave()
	ew, err := e.cfg.Sink.NewExecutionWriter()
	if err != nil {
		return nil, fmt.Errorf("open execution writer: %w", err)
	}
	e.watch()
	writer := e.startWriter(ew)
	explainers := e.startExplainers(lt.explain)
	samplers := e.startSamplers(lt.sample)
	m := e.measure(lt)
	d := e.drain(lt, m, writer, explainers, samplers)
	e.endLive(m.end)
	return e.result(ctx, lt.run, m, d)
}

// withDefaults fills in the settings whose zero value means a default.
func (c Config) withDefaults() Config {
	if c.RetryErrors == nil {
		c.RetryErrors = DefaultRetryErrors
	}
	if c.MaxRetries == 0 {
		c.MaxRetries = 10
	}
	if c.DisableAfter == 0 {
		c.DisableAfter = 20
	}
	if c.BatchSize == 0 {
		// Rows in flight stay around 32k (a few MB) whatever the threads.
		c.BatchSize = min(1024, max(64, 32768/c.Threads))
	}
	if c.Explainer == nil {
		c.Explain = ExplainOff
	}
	return c
}

// newEngine sets up a run's state; it connects to nothing.
func newEngine(cfg Config) *engine {
	e := &engine{
		cfg:    cfg,
		counts: make([]counts, cfg.Threads),
		log:    &lockedWriter{w: cfg.Log},
		acc:    NewAccumulator(),
		stop:   defaultStopTimes,
		taken:  make([]atomic.Int64, cfg.Threads),
		// A few batches per thread in flight: enough to ride out a slow
		// write, small enough that memory does not grow with the run.
		rows: make(chan rowBatch, 2*cfg.Threads+8),
		free: make(chan []results.Execution, 3*cfg.Threads+8),
	}
	if cfg.ReportInterval > 0 {
		e.tally = newTally(cfg.ReportInterval)
	}
	for i := range e.counts {
		e.counts[i].held.Store(noneHeld)
	}
	for _, s := range cfg.Scenarios {
		if s.Count > 0 {
			e.scens = append(e.scens, &scenState{Scenario: s, idx: len(e.scens),
				plans: make([]atomic.Pointer[string], len(cfg.Endpoints)*maxPlanStmts)})
		}
	}
	return e
}

// connect checks that every endpoint answers, within the connect bound.
func (e *engine) connect(ctx context.Context) error {
	for i, ep := range e.cfg.Endpoints {
		pctx, cancel := context.WithTimeout(ctx, e.stop.connect)
		err := ep.admin().PingContext(pctx)
		cancel()
		if err != nil {
			return usage.Errorf("cannot reach %s: %v", ep.Name, err)
		}
		e.eps = append(e.eps, &endpointState{Endpoint: ep, idx: i, explains: make(chan explainReq, 16),
			works: make(chan workReq, workQueue)})
	}
	e.sampling = e.newSampling()
	return nil
}

// lifetimes are the contexts of a run's goroutines. run stops everything
// (Ctrl-C, a write error: engine.cancel); work also stops the workers when
// the time is up and statements still running were given endGrace; report
// stops status sampling once the workers are done, sample the work
// samples still pending, and explain the EXPLAINs still pending shortly
// after.
type lifetimes struct {
	run, work, report, explain, sample            context.Context
	cancelRun                                     context.CancelCauseFunc
	stopWork, stopReport, stopExplain, stopSample context.CancelFunc
}

func (e *engine) newLifetimes(ctx context.Context) *lifetimes {
	l := &lifetimes{}
	l.run, l.cancelRun = context.WithCancelCause(ctx)
	e.cancel = l.cancelRun
	l.work, l.stopWork = context.WithCancel(l.run)
	l.report, l.stopReport = context.WithCancel(l.run)
	l.explain, l.stopExplain = context.WithCancel(l.run)
	// Work samples have a lifetime of their own: giving up on a stalled
	// sampler must not give up the plan captures still pending.
	l.sample, l.stopSample = context.WithCancel(l.run)
	return l
}

// end cancels every context, the run's last.
func (l *lifetimes) end() {
	l.stopSample()
	l.stopExplain()
	l.stopReport()
	l.stopWork()
	l.cancelRun(nil)
}

// setUp captures the plans at start, before any worker runs, so that the
// first rows carry them; a run in lockstep then meets the other and takes
// the start they agree on. From then on the other waits for this run's
// turns: leave, which Run defers, has each of this run's workers leave
// whatever way the run ends, even before a worker starts (a worker that
// ran has already left; leaving is once).
func (e *engine) setUp(ctx context.Context) (leave func(), err error) {
	if e.cfg.Explain != ExplainOff {
		for _, ep := range e.eps {
			e.explainAtStart(ctx, ep)
		}
	}
	lk := e.cfg.Lockstep
	if lk == nil {
		return func() {}, nil
	}
	start, err := lk.meet(ctx)
	if err != nil {
		return nil, err
	}
	e.cfg.StartAt = start
	return func() {
		for i := range e.cfg.Threads {
			lk.leave(i)
		}
	}, nil
}

// explainers are the goroutines that capture plans during the run, one
// per endpoint (explainLoop).
type explainers struct {
	eps []*endpointState
	wg  sync.WaitGroup
}

func (e *engine) startExplainers(ctx context.Context) *explainers {
	ex := &explainers{eps: e.eps}
	if e.cfg.Explain == ExplainOff {
		return ex
	}
	for _, ep := range e.eps {
		ex.wg.Add(1)
		go func() { defer ex.wg.Done(); e.explainLoop(ctx, ep) }()
	}
	return ex
}

// finish closes the endpoints' queues of EXPLAINs: those asked for near
// the end are still captured, unless the server takes long to answer
// them, when stop ends them.
func (ex *explainers) finish(stop context.CancelFunc) {
	for _, ep := range ex.eps {
		close(ep.explains)
	}
	explained := make(chan struct{})
	go func() { ex.wg.Wait(); close(explained) }()
	select {
	case <-explained:
	case <-time.After(finalSampleTimeout):
		stop()
		<-explained
	}
}

// drained is what the run's goroutines left once ended.
type drained struct {
	actions            []results.Action
	cpuUsed            time.Duration
	cpuOK              bool
	machine            *results.MachineLoad
	writeErr, closeErr error
}

// drain ends the run's goroutines once the workers are done, each before
// what needs it ended: the actions (each within its bound), status
// sampling, the writer (its last rows), the report's final sample, the
// EXPLAINs and work samples still pending. The client's CPU is that of the measured run:
// turning a journal into Parquet (closing the writer) comes after it.
func (e *engine) drain(lt *lifetimes, m *measurement, w *writerTask, ex *explainers, sp *samplers) drained {
	var d drained
	d.actions = m.actions.Stop()
	lt.stopReport()
	close(e.rows)
	d.writeErr = w.wait()
	d.cpuUsed, d.cpuOK = m.cpu.since()
	d.machine = m.machine.since()
	m.cpuMark.Stop()
	d.closeErr = e.closeWriter(w.ew)
	m.progress.finish()
	sp.finish(lt.stopSample, m.end.Sub(m.phase.start)) // the plan captures go on meanwhile
	ex.finish(lt.stopExplain)
	return d
}

// result sums the run up, with the first of what went wrong: the run's
// own error (a write error, every scenario disabled), the writer's, the
// closing of its file.
func (e *engine) result(ctx, runCtx context.Context, m *measurement, d drained) (*Result, error) {
	start, end := m.phase.start, m.end
	if end.Before(start) {
		end = start
	}
	res := &Result{Start: start, End: end, Summary: e.summary(), Paths: e.paths(), Actions: d.actions,
		Work: e.sampling.record(e.scens), Machine: d.machine}
	res.Summary.Actions = e.actionCosts(d.actions, end)
	res.Summary.Recovery = stall.Recoveries(results.RecoveryTimeline(d.actions))
	res.Summary.Interrupted = ctx.Err() != nil
	if d.cpuOK {
		res.Summary.setClientCPU(d.cpuUsed)
	}
	if err := context.Cause(runCtx); err != nil && ctx.Err() == nil && !errors.Is(err, context.Canceled) {
		return res, err
	}
	if d.writeErr != nil {
		return res, d.writeErr
	}
	if d.closeErr != nil {
		return res, fmt.Errorf("close execution writer: %w", d.closeErr)
	}
	if down := m.actions.Down(); len(down) > 0 {
		res.Summary.Down = down
		return res, fmt.Errorf("the run left %s down: the next command on the sandbox starts %s again (or: joinbench sandbox start --name NAME)",
			strings.Join(down, ", "), map[bool]string{true: "it", false: "them"}[len(down) == 1])
	}
	if n := e.disabledCount(); n == len(e.scens) {
		return res, fmt.Errorf("every scenario failed on every execution and was disabled")
	}
	return res, nil
}
