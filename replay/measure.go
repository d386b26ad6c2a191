package replay

import (
	"context"
	"sync"
	"time"

	"github.com/joinbench/joinbench/replay/action"
)

// measurement is the measured phase as it ran, and the goroutines it
// leaves for drain to end.
type measurement struct {
	phase    *phase
	end      time.Time // when the last worker was done
	cpu      clientCPU
	machine  machineLoad
	cpuMark  *time.Timer // marks the client's CPU and machine at the phase's start
	actions  *action.Runner
	progress *progress
}

// measure runs the warm-up and the measured phase and returns once every
// worker is done. Beside the workers it starts the actions, the live
// report and the stopper of the workers' statements.
func (e *engine) measure(lt *lifetimes) *measurement {
	phases := e.phases(lt.run)
	m := &measurement{phase: phases[len(phases)-1]}
	e.liveMeasured(m.phase)
	m.cpuMark = time.AfterFunc(time.Until(m.phase.start), func() { m.cpu.markStart(); m.machine.mark() })
	e.stalls = e.newStallRecorder(m.phase.start)
	switch {
	case e.cfg.Origin != nil:
		e.origin = e.cfg.Origin
	case e.cfg.ActionsFromWorkload && len(e.cfg.Actions) > 0:
		e.origin = action.NewOrigin()
	}
	m.actions = e.startActions(lt.run, m.phase.start, m.phase.deadline)
	m.progress = e.startProgress(lt.report, m.phase)
	c := e.startWorkers(lt.work, phases)
	e.stopAtEnd(lt, c, m.phase)
	c.wait()
	m.end = time.Now()
	return m
}

// phases waits for the agreed start, when there is one (the segments of a
// split run, the two runs of a lockstep), and lays the warm-up and the
// measured phase out from then; the measured phase is the last.
func (e *engine) phases(ctx context.Context) []*phase {
	cfg := &e.cfg
	if !cfg.StartAt.IsZero() {
		waitUntil(ctx, cfg.StartAt, e.log)
	}
	now := time.Now()
	if cfg.Lockstep != nil {
		// The phases of the two runs must end together, even when this
		// one got here after the start they agreed on.
		now = cfg.StartAt
	}
	var phases []*phase
	if cfg.Warmup > 0 {
		phases = append(phases, &phase{start: now, deadline: now.Add(cfg.Warmup)})
		now = now.Add(cfg.Warmup)
		e.log.Printf("warming up for %s", cfg.Warmup)
	}
	measured := &phase{record: true, start: now, limit: cfg.Events}
	if cfg.Duration > 0 {
		measured.deadline = now.Add(cfg.Duration)
	}
	if cfg.Rate > 0 {
		measured.pacer = ConstantPacer{Rate: cfg.Rate}
		if cfg.Pacer != nil {
			measured.pacer = cfg.Pacer
		}
		for _, ph := range phases {
			ph.pacer = measured.pacer
		}
	}
	return append(phases, measured)
}

// crew is the run's workers, a goroutine each.
type crew struct {
	workers []*worker
	wg      sync.WaitGroup
	done    chan struct{} // closed by wait once every worker is done
}

// startWorkers starts a worker per thread, running the phases in turn.
func (e *engine) startWorkers(ctx context.Context, phases []*phase) *crew {
	c := &crew{workers: make([]*worker, e.cfg.Threads), done: make(chan struct{})}
	for i := range c.workers {
		w := e.newWorker(i)
		c.workers[i] = w
		c.wg.Add(1)
		go func() { defer c.wg.Done(); w.run(ctx, phases) }()
	}
	return c
}

// wait returns once every worker is done.
func (c *crew) wait() {
	c.wg.Wait()
	close(c.done)
}

// stopAtEnd starts the stopper: a goroutine that, when the run is
// interrupted or endGrace after its time is up, stops the workers and the
// statements they have in flight, and otherwise ends with them.
// Statements run with a context that is never cancelled (it is cheaper):
// those in flight are stopped on the server, and cut if it does not
// answer (stop.go).
func (e *engine) stopAtEnd(lt *lifetimes, c *crew, measured *phase) {
	go func() {
		var timeUp <-chan time.Time
		if !measured.deadline.IsZero() {
			t := time.NewTimer(time.Until(measured.deadline.Add(e.endGrace())))
			defer t.Stop()
			timeUp = t.C
		}
		select {
		case <-lt.run.Done():
		case <-timeUp:
		case <-c.done:
			return
		}
		lt.stopWork()
		e.stopAll(c.workers)
	}()
}
