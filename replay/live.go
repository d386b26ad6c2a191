package replay

import (
	"maps"
	"slices"
	"sync"
	"time"
)

// Live is a run's state as it goes, for a reader outside the engine (a
// metrics endpoint reads a Snapshot when it is scraped). A run given
// Config.Watch hands it one before its workers start, and freezes it when
// they are done: its last Snapshot stays readable after the run.
//
// A snapshot is read from what the run keeps anyway: the workers' own
// counters and what the writer goroutine counts of the rows it writes
// (live_tally.go). Reading one never slows the workers, and with no Watch
// the run keeps nothing more.
type Live struct {
	mu       sync.Mutex
	e        *engine // nil once frozen
	measured *phase  // nil until the run has laid out its phases
	final    *LiveSnapshot
	tally    *liveTally // guarded by e.mu
}

// LivePhase is where a run is.
type LivePhase string

const (
	LiveStarting LivePhase = "starting" // before its phases: connecting, meeting the other segments
	LiveWarmup   LivePhase = "warmup"   // executed, not recorded
	LiveMeasured LivePhase = "measured"
	LiveEnded    LivePhase = "ended"
)

// LivePhases are the phases in order.
var LivePhases = []LivePhase{LiveStarting, LiveWarmup, LiveMeasured, LiveEnded}

// LiveSnapshot is a run's state at one instant. Counts cover the measured
// phase, as the summary does; at the end they are the summary's.
type LiveSnapshot struct {
	RunID   string
	Phase   LivePhase
	Threads int
	// Elapsed is the time since the measured phase started; Duration its
	// planned length (0: none) and EventLimit its events (0: none).
	Elapsed, Duration time.Duration
	EventLimit        int64
	// Progress is the fraction of the planned run done, by time or by
	// events, whichever is further.
	Progress   float64
	Events     int64
	Reconnects int64
	// WriterWait is the time workers waited for the result writer.
	WriterWait time.Duration
	// Scenarios are the run's scenarios, in run order.
	Scenarios []string
	// LatencyBounds are the upper bounds of LiveScenario.Latency.
	LatencyBounds []time.Duration
	Endpoints     []LiveEndpoint
}

// LiveEndpoint is one endpoint of a run.
type LiveEndpoint struct {
	Name    string
	Down    bool // its workers cannot connect
	Threads int
	// InFlight is the threads in an event now (not between events, nor
	// waiting for a paced start).
	InFlight                   int
	Events, Executions, Errors int64
	// WriteStall is the time since a successful write (any successful
	// execution when no scenario writes) last ended on the endpoint, from
	// the start of the measured phase at most. Rows reach the writer a
	// batch at a time, at least every flushEvery: below that, it is no
	// stall.
	WriteStall time.Duration
	// ScenarioInFlight is, per scenario of the run (LiveSnapshot.Scenarios),
	// the threads running its statements now.
	ScenarioInFlight []int
	// Scenarios are what the endpoint executed, per scenario and node, in
	// the order first seen: a scenario shows once it has executed there.
	Scenarios []LiveScenario
}

// LiveScenario is one scenario on one node of an endpoint.
type LiveScenario struct {
	Name string
	// Node is the server that served the statements, as it names itself
	// (results.Execution.Node): behind a proxy, which node; "" when the
	// run does not ask.
	Node                        string
	Executions, Errors, Retries int64
	ErrorCodes                  map[int32]int64 // errors by server error code
	// Latency counts the successful executions per bucket: those at most
	// LatencyBounds[i] in Latency[i] (and above the bound before), those
	// above every bound in the last; LatencySum is their total.
	Latency    []uint64
	LatencySum time.Duration
}

// Snapshot returns the run's state now, or as it ended.
func (l *Live) Snapshot() LiveSnapshot {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.final != nil {
		return *l.final
	}
	return l.e.liveSnapshot(l, time.Now(), false)
}

// watch starts the run's live view when the configuration asks for one.
func (e *engine) watch() {
	if e.cfg.Watch == nil {
		return
	}
	l := &Live{e: e}
	l.tally = e.newLiveTally()
	e.live = l
	e.cfg.Watch(l)
}

// liveMeasured tells the live view where the measured phase is.
func (e *engine) liveMeasured(ph *phase) {
	if e.live == nil {
		return
	}
	e.live.mu.Lock()
	e.live.measured = ph
	e.live.mu.Unlock()
}

// endLive freezes the live view as the run was when its workers were done.
func (e *engine) endLive(end time.Time) {
	l := e.live
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	s := e.liveSnapshot(l, end, true)
	l.final, l.e = &s, nil
}

// liveSnapshot reads the run's state at now, the end of the run when
// ended; l.mu is held.
func (e *engine) liveSnapshot(l *Live, now time.Time, ended bool) LiveSnapshot {
	s := LiveSnapshot{RunID: e.cfg.RunID, Phase: LiveStarting, Threads: e.cfg.Threads, Duration: e.cfg.Duration,
		EventLimit: e.cfg.Events, Reconnects: e.reconnects.Load(), WriterWait: time.Duration(e.stallNs.Load()),
		LatencyBounds: LatencyBounds}
	var from int64 // the measured phase's start, Unix ns
	if ph := l.measured; ph != nil {
		switch {
		case ended:
			s.Phase = LiveEnded
		case now.Before(ph.start):
			s.Phase = LiveWarmup
		default:
			s.Phase = LiveMeasured
		}
		if now.After(ph.start) {
			s.Elapsed = now.Sub(ph.start)
			from = ph.start.UnixNano()
		}
	}
	s.Events, _, _ = e.totals()
	if s.Duration > 0 {
		s.Progress = s.Elapsed.Seconds() / s.Duration.Seconds()
	}
	if s.EventLimit > 0 {
		s.Progress = max(s.Progress, float64(s.Events)/float64(s.EventLimit))
	}
	s.Progress = min(s.Progress, 1)

	for _, sc := range e.scens {
		s.Scenarios = append(s.Scenarios, sc.Name)
	}
	n := len(e.eps)
	s.Endpoints = make([]LiveEndpoint, n)
	for i, ep := range e.eps {
		s.Endpoints[i] = LiveEndpoint{Name: ep.Name, Down: ep.down.Load(), ScenarioInFlight: make([]int, len(e.scens))}
	}
	// Worker i runs on endpoint i mod n (newWorker).
	for i := range e.counts {
		c := &e.counts[i]
		ep := &s.Endpoints[i%n]
		ep.Threads++
		ep.Events += c.events.Load()
		ep.Executions += c.execs.Load()
		ep.Errors += c.errs.Load()
		if b := c.busy.Load(); b > 0 {
			ep.InFlight++
			ep.ScenarioInFlight[b-1]++
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for i, et := range l.tally.eps {
		ep := &s.Endpoints[i]
		if from > 0 {
			ep.WriteStall = time.Duration(now.UnixNano() - max(et.lastWrite, from))
			ep.WriteStall = max(ep.WriteStall, 0)
		}
		ep.Scenarios = make([]LiveScenario, len(et.cells))
		for j, c := range et.cells {
			ep.Scenarios[j] = LiveScenario{Name: c.scenario, Node: c.node, Executions: c.executions, Errors: c.errors,
				Retries: c.retries, ErrorCodes: maps.Clone(c.errorCodes), Latency: slices.Clone(c.buckets),
				LatencySum: time.Duration(c.sumNs)}
		}
	}
	return s
}
