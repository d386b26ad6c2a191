package replay

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/replay/workcapture"
	"github.com/joinbench/joinbench/results"
	"github.com/joinbench/joinbench/work"
)

// The work of sampled executions (package work, docs/work.md).
//
// Which executions are sampled depends on their place in the run only
// (work.Sampler): the first events of every thread, and those whose
// position hashes to 0 modulo the scenario's period, the shortest power of
// two at which samples cost at most the budget of the scenario's execution
// time, kept per worker from the times it measures. A read is sampled by
// running it again under the flavor's analyzing EXPLAIN on a connection of
// the endpoint's sampler, never on the worker's; a write by reading the
// worker's session counters before and after its one execution, outside
// the timed span.
//
// Reads are sampled after the measured phase by default: the worker keeps
// the statement and the values it ran (laterReads), and once every worker
// has stopped the samplers run them under ANALYZE. An ANALYZE of a heavy
// join is a second heavy join on the server: run while the workload runs,
// it took CPU and pages from the measured executions (multi_left_pk, 2
// threads: 6-17% more mean latency). The values are the ones the worker
// ran, so the pairing of samples between runs is as exact as before; only
// --work during (WorkConfig.During) samples while the workload runs.

// WorkSink is a Sink that also records work samples (ResultsSink is one).
type WorkSink interface {
	WriteWork(rows []results.Work) error // safe for concurrent use
}

func (s runDirSink) WriteWork(rows []results.Work) error { return s.d.Work().Write(rows) }

// WorkConfig says how the engine samples the work of executions.
type WorkConfig struct {
	// Budget is the share of a scenario's execution time its samples may
	// cost (0.01); 0 samples nothing.
	Budget float64
	// FirstEvents of every thread are sampled whatever the period.
	FirstEvents int64
	// Flavor is the server's: it says which statement measures a read.
	Flavor flavor.Flavor
	// During samples reads while the workload runs, as they are asked
	// for, instead of after the measured phase: the samples then compete
	// with the measured executions for the server.
	During bool
}

// DefaultWorkBudget and DefaultWorkFirstEvents are run's defaults.
const (
	DefaultWorkBudget      = 0.01
	DefaultWorkFirstEvents = 4
)

// workQueue is how many read samples wait for an endpoint's sampler: the
// first events of every thread come at once.
const workQueue = 256

// maxLaterReads bounds the reads an endpoint keeps for the work pass after
// the measured phase (a few hundred bytes each: the statement is shared,
// the values copied); those past it are dropped and counted. At the
// default budget a scenario is sampled once in 128 (joins) to 512 (point
// selects) executions: 10 minutes of 40,000 point selects a second keep
// about 47,000.
const maxLaterReads = 1 << 17

// analyzeOverhead is what an analyzing EXPLAIN costs on top of the
// execution it repeats, until a sample's cost is measured (docs/work.md:
// 222 µs against 84 µs for a point select; a join's about equal to its
// execution).
const analyzeOverhead = 140 * time.Microsecond

// workTimeout bounds one sample's statement (ANALYZE runs the read).
const workTimeout = 60 * time.Second

// initialPeriod is a scenario's period until its times are measured (16
// executions): the first events are sampled whatever it is.
const initialPeriod = 1 << 10

// periodEvery is how often (in a worker's executions of a scenario) the
// scenario's period is computed again from the times measured.
const periodEvery = 256

// sampling is the engine's sampling state.
type sampling struct {
	sink    WorkSink
	sampler work.Sampler
	cfg     WorkConfig
	reads   bool   // reads are sampled (the flavor has an analyzing EXPLAIN)
	readsBy string // the source of reads, or why there is none
	writes  bool   // the run has write scenarios

	samples, failed, dropped atomic.Int64
	mu                       sync.Mutex // serialises writes to the sink
	// later: reads are kept for the work pass after the measured phase
	// (not WorkConfig.During); pass is how long that pass took.
	later bool
	pass  time.Duration
}

// newSampling returns the run's sampling state, nil when work is not
// sampled.
func (e *engine) newSampling() *sampling {
	c := e.cfg.Work
	ws, ok := e.cfg.Sink.(WorkSink)
	if c.Budget <= 0 || !ok {
		return nil
	}
	sm := &sampling{sink: ws, sampler: work.NewSampler(e.cfg.Seed, c.FirstEvents), cfg: c, later: !c.During}
	if _, src, err := work.AnalyzeStatement(c.Flavor, "SELECT 1"); err != nil {
		sm.readsBy = fmt.Sprintf("not sampled: %v", err)
		e.log.Printf("work of reads not sampled: %v", err)
	} else {
		sm.reads, sm.readsBy = true, string(src)
	}
	for _, s := range e.scens {
		sm.writes = sm.writes || s.Write
	}
	return sm
}

// record reports what the run sampled, for run.json.
func (sm *sampling) record(scens []*scenState) *results.WorkSampling {
	if sm == nil {
		return nil
	}
	r := &results.WorkSampling{Budget: sm.cfg.Budget, FirstEvents: sm.cfg.FirstEvents,
		Samples: sm.samples.Load(), Failed: sm.failed.Load(), Dropped: sm.dropped.Load(), Reads: sm.readsBy}
	if sm.writes {
		r.Writes = string(results.SourceSessionStatus)
	}
	if sm.reads {
		r.When = "during"
		if sm.later {
			r.When, r.PassSeconds = "after", sm.pass.Seconds()
		}
	}
	for _, s := range scens {
		if p := s.workPeriod.Load(); p > 0 {
			if r.Periods == nil {
				r.Periods = map[string]uint64{}
			}
			r.Periods[s.Name] = p
		}
	}
	return r
}

// write records one sample; a file that cannot be written stops the run.
func (e *engine) writeWork(w results.Work) {
	sm := e.sampling
	sm.mu.Lock()
	err := sm.sink.WriteWork([]results.Work{w})
	sm.mu.Unlock()
	if err != nil {
		e.cancel(fmt.Errorf("write work: %w", err))
		return
	}
	sm.samples.Add(1)
	if w.Error != "" {
		sm.failed.Add(1)
	}
}

// scenarioSampling is a worker's sampling state of one scenario.
type scenarioSampling struct {
	key    uint64 // work.ScenarioKey of its name
	period uint64
	execNs int64 // its executions' time, over execs of them
	execs  int64
}

// workSample is a sample being taken by a worker: the key and values of
// the execution it stands for.
type workSample struct {
	row    results.Work
	before work.Status // a write's counters before it ran
}

// sampled reports whether statement seq (si of s) of the current event is
// sampled.
func (w *worker) sampled(s *scenState, seq int32) bool {
	ws := &w.sampling[s.idx]
	if s.Write && !w.statusOK {
		return false
	}
	if !s.Write && !w.e.sampling.reads {
		return false
	}
	return w.e.sampling.sampler.Sampled(ws.key, int32(w.id), w.eventNo, seq, ws.period)
}

// newSample starts the row of a sample of statement si of s.
func (w *worker) newSample(ph *phase, s *scenState, si int, seq int32) *workSample {
	vals := w.vals
	if !ph.record { // values are gathered for recorded executions only
		vals = w.renderers[s.idx].Values(nil)
	}
	return &workSample{row: results.Work{
		RunID: w.e.cfg.RunID, Scenario: s.Name, Endpoint: w.ep.Name, ClientHost: w.e.cfg.ClientHost,
		Thread: int32(w.id), Event: w.eventNo, StatementSeq: seq, PlanHash: s.plan(w.ep.idx, si),
		Params: append([]string(nil), vals...), Warmup: !ph.record,
	}}
}

// readStatus reads the worker's session counters as a statement, bounded
// like one (arm and disarm).
func (w *worker) readStatus() (work.Status, error) {
	seq, err := w.arm()
	if err != nil {
		return work.Status{}, err
	}
	st, err := workcapture.ReadStatus(w.qctx, w.conn)
	return st, w.disarm(seq, err)
}

// beginWriteSample reads the counters before a sampled write; nil when the
// reading failed (the sample is not taken).
func (w *worker) beginWriteSample(ph *phase, s *scenState, si int, seq int32) *workSample {
	ws := w.newSample(ph, s, si, seq)
	t := time.Now()
	before, err := w.readStatus()
	if err != nil {
		return nil
	}
	ws.before = before
	w.statusNs = int64(time.Since(t))
	return ws
}

// endWriteSample reads the counters after the write ran and records its
// work (with retries: the work of every try).
func (w *worker) endWriteSample(ws *workSample, s *scenState, retries int32) {
	t := time.Now()
	after, err := w.readStatus()
	if err != nil {
		ws.row.Source, ws.row.Error = results.SourceSessionStatus, err.Error()
	} else {
		m := work.StatusWork(ws.before, after, w.statusCost)
		m.Tables = nil
		fillWork(&ws.row, m)
		s.workCostNs.Store(w.statusNs + int64(time.Since(t)))
	}
	ws.row.Retries = retries
	ws.row.Time = time.Now()
	w.e.writeWork(ws.row)
}

// fillWork puts the figures of m into the sample's row, whose key it
// keeps.
func fillWork(row *results.Work, m *results.Work) {
	key := *row
	*row = *m
	row.RunID, row.Scenario, row.Endpoint, row.ClientHost = key.RunID, key.Scenario, key.Endpoint, key.ClientHost
	row.Thread, row.Event, row.StatementSeq, row.PlanHash = key.Thread, key.Event, key.StatementSeq, key.PlanHash
	row.Params, row.Warmup, row.Time, row.Retries, row.Error = key.Params, key.Warmup, key.Time, key.Retries, key.Error
}

// requestReadSample hands a read that ran to the endpoint's sampler, to be
// run again under the analyzing EXPLAIN; dropped (and counted) when the
// sampler is still busy with earlier ones.
func (w *worker) requestReadSample(ws *workSample, s *scenState, st *Statement, retries int32) {
	ws.row.Retries = retries
	req := workReq{s: s, sql: st.SQL, args: append([]any(nil), st.Args...), row: ws.row}
	if w.e.sampling.later {
		if !w.ep.later.add(req) {
			w.e.sampling.dropped.Add(1)
		}
		return
	}
	select {
	case w.ep.works <- req:
	default:
		w.e.sampling.dropped.Add(1)
	}
}

// noteExecution adds an execution's time to its scenario's and computes the
// period again now and then.
func (w *worker) noteExecution(s *scenState, took time.Duration) {
	ws := &w.sampling[s.idx]
	ws.execNs += int64(took)
	ws.execs++
	if ws.execs%periodEvery != 0 && ws.execs != 16 {
		return
	}
	exec := time.Duration(ws.execNs / ws.execs)
	cost := time.Duration(s.workCostNs.Load())
	if cost <= 0 {
		// Not measured yet (reads sampled after the measured phase never
		// are during it): an analyzing EXPLAIN of a point select costs
		// about three executions of it, of a join about one.
		cost = exec + analyzeOverhead
	}
	ws.period = work.Period(cost, exec, w.e.sampling.cfg.Budget)
	for {
		old := s.workPeriod.Load()
		if ws.period <= old || s.workPeriod.CompareAndSwap(old, ws.period) {
			break
		}
	}
}

// workReq asks an endpoint's sampler to measure one read.
type workReq struct {
	s    *scenState
	sql  string
	args []any
	row  results.Work
}

// startSamplers starts the goroutines that measure reads, one per
// endpoint, each on a connection of its own: now when reads are sampled
// during the run, at finish when after it.
func (e *engine) startSamplers(ctx context.Context) *samplers {
	sp := &samplers{e: e, ctx: ctx, eps: e.eps, sm: e.sampling}
	if e.sampling == nil || !e.sampling.reads || e.sampling.later {
		return sp
	}
	sp.start()
	return sp
}

func (sp *samplers) start() {
	for _, ep := range sp.eps {
		sp.wg.Add(1)
		go func() { defer sp.wg.Done(); sp.e.sampleLoop(sp.ctx, ep) }()
	}
}

// samplers are the goroutines that measure reads.
type samplers struct {
	e   *engine
	ctx context.Context
	eps []*endpointState
	sm  *sampling
	wg  sync.WaitGroup
}

// laterReads are the reads an endpoint's workers ran and that are sampled
// after the measured phase, in the order they ran.
type laterReads struct {
	mu   sync.Mutex
	reqs []workReq
}

// add keeps req; false when maxLaterReads are kept already.
func (l *laterReads) add(req workReq) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.reqs) >= maxLaterReads {
		return false
	}
	l.reqs = append(l.reqs, req)
	return true
}

// take returns the reads kept, and forgets them.
func (l *laterReads) take() []workReq {
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.reqs
	l.reqs = nil
	return r
}

// finalWorkTimeout bounds the wait for the samples asked for before the
// end: a short run samples every execution of its first events, more than
// the sampler measures while the run lasts, and a sample not taken leaves
// its execution unpaired in a comparison.
const finalWorkTimeout = 60 * time.Second

// workStallTimeout is how long the end of a run waits for the next of the
// queued samples: on a loaded machine one ANALYZE of a multi-level join
// takes seconds.
const workStallTimeout = 10 * time.Second

// finish closes the samplers' queues: the samples asked for before the
// end are still taken while the sampler keeps measuring them (one at
// least every workStallTimeout, finalWorkTimeout in all); a server that
// stops answering has its samples ended by stop, and counted as dropped.
//
// Reads sampled after the measured phase are all taken now, the workers
// having stopped: the pass may last as long as the measured phase did
// (measured), finalWorkTimeout at least, and as long as it goes on taking
// one every workStallTimeout.
func (sp *samplers) finish(stop context.CancelFunc, measured time.Duration) {
	limit := finalWorkTimeout
	if sp.sm != nil && sp.sm.later && sp.sm.reads {
		limit = max(limit, measured)
		t := time.Now()
		defer func() { sp.sm.pass = time.Since(t) }()
		kept := make([][]workReq, len(sp.eps))
		n := 0
		for i, ep := range sp.eps {
			kept[i] = ep.later.take()
			n += len(kept[i])
		}
		if n > 0 {
			sp.e.log.Printf("work: measuring %d sampled read(s) under ANALYZE, the measured phase being over", n)
		}
		for i, ep := range sp.eps {
			reqs := kept[i]
			go func() {
				defer close(ep.works)
				for _, r := range reqs {
					select {
					case ep.works <- r:
					case <-sp.ctx.Done():
						sp.sm.dropped.Add(1) // counted as sampleLoop counts those it gives up
					}
				}
			}()
		}
		sp.start()
	} else {
		for _, ep := range sp.eps {
			close(ep.works)
		}
	}
	done := make(chan struct{})
	go func() { sp.wg.Wait(); close(done) }()
	handled := func() int64 {
		if sp.sm == nil {
			return 0
		}
		return sp.sm.samples.Load() + sp.sm.failed.Load() + sp.sm.dropped.Load()
	}
	deadline := time.After(limit)
	last := handled()
	for {
		select {
		case <-done:
			return
		case <-deadline:
		case <-time.After(workStallTimeout):
			if n := handled(); n != last {
				last = n
				continue
			}
		}
		stop()
		<-done
		return
	}
}

// sampleLoop measures an endpoint's sampled reads on a connection of its
// own, one at a time.
func (e *engine) sampleLoop(ctx context.Context, ep *endpointState) {
	var conn *sql.Conn
	defer func() {
		if conn != nil {
			conn.Close()
		}
	}()
	for req := range ep.works {
		if ctx.Err() != nil {
			e.sampling.dropped.Add(1) // the run ended before its turn
			continue
		}
		if conn == nil {
			cctx, cancel := context.WithTimeout(ctx, e.stop.connect)
			c, err := ep.admin().Conn(cctx)
			cancel()
			if err != nil {
				if _, loaded := e.seenErr.LoadOrStore("work-conn/"+ep.Name, true); !loaded {
					e.log.Printf("work samples on %s: %v", ep.Name, err)
				}
				e.sampling.dropped.Add(1)
				continue
			}
			if err := e.readOnlySession(ctx, c); err != nil {
				c.Close()
				e.log.Printf("work samples on %s: %v", ep.Name, err)
				e.sampling.dropped.Add(1)
				continue
			}
			conn = c
		}
		row := req.row
		t := time.Now()
		cctx, cancel := context.WithTimeout(ctx, workTimeout)
		m, _, err := workcapture.Analyze(cctx, conn, e.sampling.cfg.Flavor, req.sql, req.args)
		cancel()
		took := time.Since(t)
		row.Time = t
		if err != nil {
			if ctx.Err() != nil {
				e.sampling.dropped.Add(1)
				continue
			}
			if classify(ctx, err, nil) == errConn {
				conn.Close()
				conn = nil
			}
			_, row.Source, _ = work.AnalyzeStatement(e.sampling.cfg.Flavor, req.sql)
			row.Error = err.Error()
			if _, loaded := e.seenErr.LoadOrStore("work/"+req.s.Name, true); !loaded {
				e.log.Printf("work sample of %s on %s: %v", req.s.Name, ep.Name, err)
			}
		} else {
			fillWork(&row, m)
			req.s.workCostNs.Store(int64(took))
		}
		e.writeWork(row)
	}
}
