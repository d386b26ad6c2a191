package replay

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/analysis/metrics"
	"github.com/joinbench/joinbench/replay/internal/wire"
	"github.com/joinbench/joinbench/replay/workcapture"
	"github.com/joinbench/joinbench/results"
	"github.com/joinbench/joinbench/work"
)

// phase is one stretch of a run: warmup (not recorded) or measured.
type phase struct {
	record   bool
	start    time.Time
	deadline time.Time // zero: none
	limit    int64     // events over all threads; 0: none
	pacer    Pacer     // nil: unpaced
	tickets  atomic.Int64
}

// worker is one thread: one connection, its own renderers and row batch.
type worker struct {
	e         *engine
	id        int
	ep        *endpointState
	conn      *sql.Conn
	connID    atomic.Int64
	node      string // the server that serves the connection (Config.NodeName)
	stmts     map[string]*prepared
	lastSQL   string    // the SQL of the last statement run
	lastStmt  *prepared // and its entry in stmts; nil after the connection changes
	renderers []Renderer
	vals      []string
	batch     []results.Execution
	// eventRow is the index in batch of the current event's last row, -1
	// when it has none: a failed COMMIT is recorded on it.
	eventRow int
	// held is when the oldest statement whose row is not handed to the
	// writer started (Unix ns, noneHeld when none), heldUntil the end of
	// its progress bucket, sent the batches handed over (see
	// counts.held).
	held, heldUntil, sent int64
	flushed               time.Time
	clockBase             time.Time // see now
	yielded               time.Time
	counts                *counts // this worker's totals, in engine.counts
	// A plan is captured again every explainEvery successful executions
	// of a scenario by this worker (0: never), explainCount of them so far.
	explainEvery int64
	explainCount []int64
	eventNo      int64
	sinceConn    int64
	connected    bool // at least once
	killTimer    *time.Timer
	// Network calls are numbered (calls); inflight is the one in flight
	// (0: none), killedSeq the last one KILL QUERY was sent for, cutSeq
	// the last one whose connection was cut, and link how to cut the
	// current connection (see stop.go).
	calls     uint64
	inflight  atomic.Uint64
	killedSeq atomic.Uint64
	cutSeq    atomic.Uint64
	// endSeq is the call the end of the run stopped (stopAll): it is
	// recorded as cut at the end (errCutAtEnd), not as an error.
	endSeq atomic.Uint64
	link   atomic.Pointer[connLink]
	// qctx is what statements run with: never cancelled when the worker
	// holds its connection's socket, because a cancellable context costs
	// a goroutine hand-off per statement in database/sql and the driver.
	// Stopping a statement is done on the server with KILL QUERY instead,
	// and by cutting the socket (stop.go). A connection without its socket
	// runs with a context that cutting cancels.
	qctx     context.Context
	sleep    *time.Timer
	deadline time.Time // of the current phase: reconnecting gives up then
	// Buffers of the direct driver path (driver.go), reused by every
	// statement.
	call    driverCall
	rawExec func(any) error // w.rawExecDriver, made once
	nv      []driver.NamedValue
	dest    []driver.Value
	raw     []sql.RawBytes
	rawBuf  [][]byte
	// wire executes prepared statements on the connection's socket,
	// bypassing the driver (see package wire); nil when the connection
	// takes the driver path (see execPath).
	wire  *wire.Conn
	wargs []any
	// warnings is the warning count of the statement exec ran last: its
	// reply's on the direct path, 0 through the driver, which does not
	// give it (results.Run.WarningsCounted says which).
	warnings uint16
	// sampling is the sampling state of each scenario (worksample.go), nil
	// when work is not sampled; statusCost what reading the session
	// counters moves them by on this connection (statusOK: measured),
	// statusNs what the last reading before a write took.
	sampling   []scenarioSampling
	statusCost work.Status
	statusOK   bool
	statusNs   int64
}

// prepared is one SQL text on one connection.
type prepared struct {
	stmt  driver.Stmt // prepared by the driver; nil when not preparing (text protocol) or prepared by wire
	wire  *wire.Stmt  // prepared on the socket directly (worker.wire)
	err   error       // the prepare failed: executions report it
	query bool        // returns rows
}

const flushEvery = 200 * time.Millisecond

// waitSlice is the longest a worker sleeps in the kernel before checking
// whether the run stopped.
const waitSlice = 10 * time.Millisecond

// yieldEvery is how often a worker on blocking sockets passes through the
// scheduler: Go's monitor treats a goroutine that has not been through it
// for 10 ms as running too long, even when that time is spent in short
// system calls, and then signals its thread and takes its P, which costs
// throughput (bench/README.md, "Go runtime measurements"). Paced workers
// do not yield: a locked goroutine's yield waits for another thread to hand
// it back, which shows as latency tails. Each yield of a locked goroutine
// wakes two or three other threads, which then take the core from a worker
// or the server, so the yields come as rarely as leaves the monitor's 10 ms
// a margin of an event's length.
const yieldEvery = 8 * time.Millisecond

func (e *engine) newWorker(id int) *worker {
	w := &worker{e: e, id: id, ep: e.eps[id%len(e.eps)], qctx: context.Background(), counts: &e.counts[id]}
	w.rawExec = w.rawExecDriver
	if e.cfg.Explain != ExplainOff && e.cfg.ExplainEvery > 0 {
		// ExplainEvery is over all threads: each takes its share.
		w.explainEvery = max(1, e.cfg.ExplainEvery/int64(e.cfg.Threads))
		w.explainCount = make([]int64, len(e.scens))
	}
	w.renderers = make([]Renderer, len(e.scens))
	for i, s := range e.scens {
		w.renderers[i] = s.NewRenderer(e.cfg.Seed, id)
	}
	if e.sampling != nil {
		w.sampling = make([]scenarioSampling, len(e.scens))
		for i, s := range e.scens {
			w.sampling[i] = scenarioSampling{key: work.ScenarioKey(s.Name), period: initialPeriod}
		}
	}
	if e.cfg.QueryTimeout > 0 {
		w.killTimer = time.AfterFunc(time.Hour, w.killQuery)
		w.killTimer.Stop()
	}
	w.clockBase = time.Now()
	w.held = noneHeld
	w.sleep = time.NewTimer(time.Hour)
	w.sleep.Stop()
	return w
}

func (w *worker) run(ctx context.Context, phases []*phase) {
	if w.ep.Direct {
		// One thread per worker, blocked in its socket's read as a C
		// client's thread is: when the runtime takes the worker's P away
		// during a read (see yieldEvery), a locked goroutine gets a P back
		// on its own thread, where a free one would be queued and another
		// thread woken to run it.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		// Paced workers sleep in the kernel (see wait), where the default
		// timer slack would let a sleep end up to 50 us late.
		setTimerSlack(1)
		defer setTimerSlack(0) // the thread's default again
	}
	defer w.closeConn()
	defer w.flush()
	if lk := w.e.cfg.Lockstep; lk != nil {
		defer lk.leave(w.id)
	}
	for _, ph := range phases {
		w.deadline = ph.deadline
		w.loop(ctx, ph)
		w.flush()
	}
}

func (w *worker) loop(ctx context.Context, ph *phase) {
	for ctx.Err() == nil {
		i := ph.tickets.Add(1) - 1
		if ph.limit > 0 && i >= ph.limit {
			return
		}
		var intended time.Time
		if ph.pacer != nil {
			intended = ph.start.Add(ph.pacer.Intended(i))
			if !ph.deadline.IsZero() && !intended.Before(ph.deadline) {
				return
			}
			if d := time.Until(intended); d > 0 && !w.wait(ctx, d) {
				return
			}
		}
		if !ph.deadline.IsZero() && !time.Now().Before(ph.deadline) {
			return
		}
		w.event(ctx, ph, intended)
		if w.e.live != nil {
			w.counts.busy.Store(0)
		}
	}
}

// wait sleeps d unless the run stops first.
//
// A worker with a thread of its own (Direct endpoints) sleeps in the
// kernel, a slice at a time so that it notices the run stopping: Go's
// timers wake a goroutine up to a millisecond late when every thread is
// idle, and a paced run measures latency from the intended start, so that
// lateness would be counted as the server's.
func (w *worker) wait(ctx context.Context, d time.Duration) bool {
	if w.held != noneHeld && time.Now().Add(d).UnixNano() >= w.heldUntil {
		w.flush() // the progress line of their bucket waits for the rows held
	}
	if w.ep.Direct {
		end := time.Now().Add(d)
		for {
			if ctx.Err() != nil {
				return false
			}
			left := time.Until(end)
			if left <= 0 {
				return true
			}
			sleepThread(min(left, waitSlice)) // cut short by a signal: the loop sleeps the rest
		}
	}
	w.sleep.Reset(d)
	select {
	case <-ctx.Done():
		w.sleep.Stop()
		return false
	case <-w.sleep.C:
		return true
	}
}

// event runs one transaction: every enabled scenario Count times.
func (w *worker) event(ctx context.Context, ph *phase, intended time.Time) {
	e := w.e
	if w.conn == nil && !w.connect(ctx) {
		return
	}
	var lag time.Duration
	if !intended.IsZero() {
		lag = max(time.Since(intended), 0)
	}
	w.eventRow = -1
	inTrx := false
	if !e.cfg.SkipTrx {
		if err := w.txControl("BEGIN"); err != nil {
			w.lost(ctx, err)
			return
		}
		inTrx = true
	}
	seq := int32(0)
	ran := false
	for _, s := range e.scens {
		if s.disabled.Load() {
			continue
		}
		if e.live != nil {
			w.counts.busy.Store(int64(s.idx) + 1)
		}
		r := w.renderers[s.idx]
		for c := 0; c < s.Count; c++ {
			stmts := r.Next()
			if ph.record {
				w.vals = r.Values(w.vals[:0])
			}
			for si := range stmts {
				if !w.statement(ctx, ph, s, si, &stmts[si], seq, lag, &inTrx) {
					return
				}
				seq++
				ran = true
			}
		}
	}
	if inTrx {
		if err := w.txControl("COMMIT"); err != nil {
			k := classify(ctx, err, nil)
			if k != errCancelled {
				w.commitFailed(err)
			}
			if k == errConn || k == errAborted {
				w.lost(ctx, err)
				return
			}
		}
	}
	w.eventNo++
	if ph.record && ran {
		w.counts.events.Add(1)
	}
	if w.ep.Direct && ph.pacer == nil && time.Since(w.yielded) > yieldEvery {
		runtime.Gosched()
		w.yielded = time.Now()
	}
	if now := time.Now(); len(w.batch) > 0 && now.Sub(w.flushed) > flushEvery || w.held != noneHeld && now.UnixNano() >= w.heldUntil {
		w.flush()
	}
	w.sinceConn++
	if e.cfg.Reconnect > 0 && w.sinceConn >= e.cfg.Reconnect {
		w.closeConn()
	}
}

// statement executes one statement, retrying deadlocks and lock waits, and
// records it. It returns false when the event must stop (connection lost or
// run cancelled).
func (w *worker) statement(ctx context.Context, ph *phase, s *scenState, si int, st *Statement, seq int32, lag time.Duration, inTrx *bool) bool {
	e := w.e
	ws := w.startSample(ph, s, si, seq)
	lk := e.cfg.Lockstep
	if lk != nil && !lk.acquire(ctx, w.id) {
		return false
	}
	start := w.now()
	if w.held == noneHeld && w.e.tally != nil {
		w.hold(start.UnixNano())
	}
	x := w.execute(ctx, st, inTrx)
	took := time.Since(start)
	if lk != nil {
		lk.release(w.id)
	}
	// A statement the end of the run stopped is recorded, so that a
	// statement that stalls the run is seen, but as what it is: it ran at
	// least took, and is neither an execution nor an error.
	cut := x.err == errCutAtEnd || x.err == errCutNoReply
	if x.kind == errCancelled && !cut {
		return false
	}
	switch x.kind {
	case errNone:
		e.succeeded(s)
		w.afterSuccess(s, si, st, ws, x.retries, took)
	case errServer, errTimeout:
		e.noteError(s, x.err)
		e.failed(s, x.err)
	case errRetry, errAborted:
		e.noteError(s, x.err)
	}
	if ph.record {
		w.record(ph, s, si, seq, start, took+lag, lag, x, cut)
	}
	if cut {
		return false
	}
	if x.kind == errConn || x.kind == errAborted {
		w.lost(ctx, x.err)
		return false
	}
	return true
}

// execution is what one statement's execution, retries included, gave.
type execution struct {
	rows     int64
	sum      string
	err      error
	kind     errKind
	retries  int32
	warnings uint16
}

// execute runs st, retrying deadlocks and lock wait timeouts up to the
// configured count, in a fresh transaction when one was open.
func (w *worker) execute(ctx context.Context, st *Statement, inTrx *bool) execution {
	e := w.e
	var x execution
	for {
		x.rows, x.sum, x.err = w.do(st)
		x.warnings = w.warnings
		x.kind = classify(ctx, x.err, e.cfg.RetryErrors)
		if x.kind != errRetry || int(x.retries) >= e.cfg.MaxRetries {
			return x
		}
		x.retries++
		if *inTrx {
			// A deadlock rolled the transaction back; a lock wait timeout
			// rolled back the statement. Start the transaction over either
			// way so the retry runs in a fresh one.
			if rerr := w.restartTrx(); rerr != nil {
				x.err, x.kind = rerr, classify(ctx, rerr, nil)
				return x
			}
		}
	}
}

// startSample begins the work sample of this execution when it is one to
// sample: a write's counters are read now, outside the timed span and the
// lockstep's turn. Nil when it is not sampled.
func (w *worker) startSample(ph *phase, s *scenState, si int, seq int32) *workSample {
	if w.sampling == nil || !w.sampled(s, seq) {
		return nil
	}
	if s.Write {
		return w.beginWriteSample(ph, s, si, seq)
	}
	return w.newSample(ph, s, si, seq)
}

// afterSuccess finishes a successful execution's work sample and asks for
// its plan when its turn has come.
func (w *worker) afterSuccess(s *scenState, si int, st *Statement, ws *workSample, retries int32, took time.Duration) {
	if w.sampling != nil {
		if ws != nil && s.Write {
			w.endWriteSample(ws, s, retries)
		} else if ws != nil {
			w.requestReadSample(ws, s, st, retries)
		}
		w.noteExecution(s, took)
	}
	if w.explainEvery > 0 {
		// Each worker counts its own executions: a count shared by all
		// would move a cache line between cores on every statement.
		w.explainCount[s.idx]++
		if w.explainCount[s.idx]%w.explainEvery == 0 {
			w.requestExplain(s, si, st)
		}
	}
}

// record counts the statement and writes its row: latency is its time
// plus the lag behind its intended start when the run is paced.
func (w *worker) record(ph *phase, s *scenState, si int, seq int32, start time.Time, latency, lag time.Duration, x execution, cut bool) {
	e := w.e
	if cut {
		w.counts.cut.Add(1)
	} else {
		w.counts.execs.Add(1)
		if x.err != nil {
			w.counts.errs.Add(1)
		}
	}
	row := w.nextRow(start)
	params := row.Params[:0]
	*row = results.Execution{
		RunID:        e.cfg.RunID,
		Scenario:     s.Name,
		TemplateHash: s.Hash,
		Endpoint:     w.ep.Name,
		ClientHost:   e.cfg.ClientHost,
		Thread:       int32(w.id),
		Event:        w.eventNo,
		StatementSeq: seq,
		Start:        start,
		LatencyNs:    int64(latency),
		Rows:         x.rows,
		Retries:      x.retries,
		PlanHash:     s.plan(w.ep.idx, si),
		Checksum:     x.sum,
		Node:         w.node,
		Warnings:     int32(x.warnings),
	}
	if ph.pacer != nil {
		is := start.Add(-lag)
		row.IntendedStart = &is
	}
	if x.err != nil {
		row.ErrorCode, row.SQLState, row.ErrorMessage = errorFields(x.err)
	}
	row.CutAtEnd = cut
	row.Params = append(params, w.vals...)
	w.eventRow = len(w.batch) - 1
}

// commitFailed records the error of the event's COMMIT on its last row,
// and says so the first time for each error code.
func (w *worker) commitFailed(err error) {
	code, _, _ := errorFields(err)
	if w.eventRow >= 0 {
		w.batch[w.eventRow].CommitErrorCode = code
	}
	if _, seen := w.e.seenCommitErr.LoadOrStore(code, true); seen {
		return
	}
	what := "counted as a failed COMMIT"
	if metrics.IsConflict(code) {
		what = "counted as a conflict: the cluster's certification refused the transaction"
	}
	w.e.log.Printf("thread %d: COMMIT: %v (%s; the next ones are counted, not printed)", w.id, err, what)
}

// restartTrx rolls back and begins a new transaction.
func (w *worker) restartTrx() error {
	if err := w.txControl("ROLLBACK"); err != nil {
		return err
	}
	return w.txControl("BEGIN")
}

// now is the time read from the monotonic clock only: time.Now reads the
// wall clock too, and two clock reads per timestamp are measurable on a
// point select. The wall time is clockBase's, taken with time.Now at every
// flush (a fifth of a second apart at most), so it never strays from the
// system clock by more than the clock's drift over that time.
func (w *worker) now() time.Time {
	return w.clockBase.Add(time.Since(w.clockBase))
}

// nextRow returns the next free row of the batch, for the statement
// started at start, reusing its Params array. A full batch is handed to
// the writer first: the rows of an event stay in the batch until its
// COMMIT, which may mark the last one.
func (w *worker) nextRow(start time.Time) *results.Execution {
	if w.batch != nil && len(w.batch) == cap(w.batch) {
		w.flush()
		if w.e.tally != nil {
			w.hold(start.UnixNano())
		}
	}
	if w.batch == nil {
		select {
		case b := <-w.e.free:
			w.batch = b
		default:
			w.batch = make([]results.Execution, 0, w.e.cfg.BatchSize)
		}
	}
	w.batch = w.batch[:len(w.batch)+1]
	return &w.batch[len(w.batch)-1]
}

// flush hands the batch to the writer, after which the worker holds no
// row. It blocks only when the writer is behind by several batches per
// thread; that wait is counted.
func (w *worker) flush() {
	w.flushed = time.Now()
	w.clockBase = w.flushed
	if len(w.batch) > 0 {
		w.sent++
		b := rowBatch{rows: w.batch, worker: w.id, seq: w.sent}
		w.batch = nil
		w.eventRow = -1
		select {
		case w.e.rows <- b:
		default:
			t := time.Now()
			w.e.rows <- b
			w.e.stallNs.Add(int64(time.Since(t)))
		}
		w.counts.sent.Store(w.sent)
	}
	if w.held != noneHeld {
		w.held = noneHeld
		w.counts.held.Store(noneHeld)
	}
}

// hold notes that the worker holds a statement started at Unix time ns
// (running, or its row not handed over) for the progress lines.
func (w *worker) hold(ns int64) {
	w.held, w.heldUntil = ns, w.e.bucketEnd(ns)
	w.counts.held.Store(ns)
}

// do executes one statement and reads its whole result.
func (w *worker) do(st *Statement) (n int64, sum string, err error) {
	// The same statement usually runs many times in a row (Count per
	// event, one scenario per run when measuring overhead): the last
	// lookup is kept, and comparing a string with itself is one pointer
	// comparison.
	w.warnings = 0 // set by the direct path only
	p := w.lastStmt
	if p == nil || st.SQL != w.lastSQL {
		var ok bool
		if p, ok = w.stmts[st.SQL]; !ok {
			p = w.prepare(w.qctx, st.SQL)
			_, ok = w.stmts[st.SQL] // not kept after a connection error
		}
		if ok {
			w.lastSQL, w.lastStmt = st.SQL, p
		}
	}
	if p.err != nil {
		return 0, "", p.err
	}
	seq, err := w.arm()
	if err != nil {
		return 0, "", err
	}
	n, sum, err = w.exec(p, st.SQL, st.Args)
	return n, sum, w.disarm(seq, err)
}

// txStatement runs transaction control statements (BEGIN, COMMIT,
// ROLLBACK) as text.
var txStatement = &prepared{}

// txControl sends BEGIN, COMMIT or ROLLBACK. It takes no context: like
// every statement, it is stopped by KILL QUERY, not by cancellation.
func (w *worker) txControl(q string) error {
	seq, err := w.arm()
	if err != nil {
		return err
	}
	_, _, err = w.exec(txStatement, q, nil)
	return w.disarm(seq, err)
}

// prepare prepares one SQL text on the current connection. A server error
// is kept and reported by every execution of the statement, so the
// scenario's error policy applies to it.
func (w *worker) prepare(ctx context.Context, q string) *prepared {
	p := &prepared{query: returnsRows(q)}
	seq, err := w.arm()
	if err != nil {
		p.err = err
		return p
	}
	switch {
	case w.wire != nil:
		p.wire, p.err = w.wire.Prepare(q)
	case w.e.cfg.Prepared:
		rerr := w.conn.Raw(func(dc any) error {
			p.stmt, p.err = prepareDriver(ctx, dc, q)
			return p.err
		})
		if p.err == nil {
			p.err = rerr
		}
	}
	p.err = w.disarm(seq, p.err)
	if w.stmts == nil {
		w.stmts = map[string]*prepared{}
	}
	if p.err == nil || classify(ctx, p.err, nil) == errServer {
		w.stmts[q] = p
	}
	return p
}

// connect opens the worker's connection, retrying with backoff until it
// succeeds or the run stops.
func (w *worker) connect(ctx context.Context) bool {
	e := w.e
	w.flush() // connecting may take long: the progress lines need not wait for it
	backoff := 50 * time.Millisecond
	for {
		err := w.open(ctx)
		if err == nil {
			if w.connected {
				e.reconnects.Add(1)
			}
			w.connected = true
			w.sinceConn = 0
			if w.ep.down.CompareAndSwap(true, false) {
				e.log.Printf("%s: reconnected", w.ep.Name)
			}
			return true
		}
		if ctx.Err() != nil {
			return false
		}
		if w.ep.down.CompareAndSwap(false, true) {
			e.log.Printf("%s: cannot connect (%v); retrying", w.ep.Name, err)
		}
		if !w.deadline.IsZero() && time.Now().Add(backoff).After(w.deadline) {
			return false
		}
		if !w.wait(ctx, backoff) {
			return false
		}
		backoff = min(backoff*2, 2*time.Second)
	}
}

// open connects the worker, within stopTimes.connect and the phase: past
// them, or once the run stops, the connection is cut and open fails.
func (w *worker) open(ctx context.Context) (err error) {
	// Connecting past the phase's end is of no use: the worker would stop
	// right after.
	var deadline time.Time
	if d := w.e.stop.connect; d > 0 {
		deadline = time.Now().Add(d)
	}
	if !w.deadline.IsZero() && (deadline.IsZero() || w.deadline.Before(deadline)) {
		deadline = w.deadline
	}
	cancel := context.CancelFunc(func() {})
	if !deadline.IsZero() {
		ctx, cancel = context.WithDeadline(ctx, deadline)
	}
	defer cancel()
	conn, slot, err := w.dial(ctx)
	if err != nil {
		return err
	}
	w.conn = conn
	w.stmts = map[string]*prepared{}
	w.lastSQL, w.lastStmt = "", nil
	w.wire = nil
	link := &connLink{sock: slot.sock}
	w.qctx = context.Background()
	if slot.sock == nil {
		w.qctx, link.cancel = context.WithCancel(context.Background())
	}
	w.link.Store(link)
	stopCut := context.AfterFunc(ctx, link.cut)
	defer func() {
		if !stopCut() && err == nil {
			// The connection was cut as open succeeded: it is unusable.
			w.closeConn()
			err = errors.New("connect: no reply in time")
		}
	}()
	direct, why, fallback := w.execPath(slot.conn, slot.why)
	if direct {
		w.wire = wire.NewConn(slot.conn, slot.conn.caps)
	}
	id, node, err := w.identify(ctx, conn)
	if err != nil {
		w.closeConn()
		return err
	}
	w.connID.Store(id)
	w.node = node
	if err := w.e.readOnlySession(ctx, conn); err != nil {
		w.closeConn()
		return err
	}
	if sm := w.e.sampling; sm != nil && sm.writes {
		// Once per connection: it is the same for every reading.
		cost, err := workcapture.StatusCost(ctx, conn)
		w.statusCost, w.statusOK = cost, err == nil
		if err != nil {
			if _, loaded := w.e.seenErr.LoadOrStore("work-status", true); !loaded {
				w.e.log.Printf("work of writes not sampled on %s: %v", w.ep.Name, err)
			}
		}
	}
	for _, s := range w.e.scens {
		for _, q := range s.Queries {
			if _, ok := w.stmts[q]; ok {
				continue
			}
			if p := w.prepare(ctx, q); p.err != nil && classify(ctx, p.err, nil) != errServer {
				err := p.err
				w.closeConn()
				return err
			}
		}
	}
	w.notePath(direct, why, fallback)
	return nil
}

// identify asks a new connection for its id, for KILL QUERY (0 when the
// server has none), and for the server's name (Config.NodeName; "" when
// not asked or not known), both in one round trip.
func (w *worker) identify(ctx context.Context, conn *sql.Conn) (id int64, node string, err error) {
	if q := w.e.cfg.NodeName; q != "" {
		var name sql.NullString
		err = conn.QueryRowContext(ctx, "SELECT CONNECTION_ID(), "+q).Scan(&id, &name)
		if err == nil {
			return id, name.String, nil
		}
		if classify(ctx, err, nil) != errServer {
			return 0, "", err
		}
	}
	if err = conn.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&id); err != nil {
		if classify(ctx, err, nil) != errServer {
			return 0, "", err
		}
		return 0, "", nil // no KILL QUERY on this server
	}
	return id, "", nil
}

// dial takes a connection for the worker and the socket it was dialed on
// (on a Direct endpoint, a blocking one), or why there is none. A
// connection the pool hands back instead of dialing (one used for
// something else when the endpoint has no Admin pool) has no socket to
// share: it is closed, and a new one dialed, a few times at most.
func (w *worker) dial(ctx context.Context) (*sql.Conn, dialSlot, error) {
	for try := 0; ; try++ {
		var slot dialSlot
		conn, err := w.ep.DB.Conn(withDialSlot(ctx, &slot))
		switch {
		case err != nil:
			return nil, dialSlot{}, err
		case !w.ep.Direct || slot.sock != nil || slot.why != "":
			return conn, slot, nil
		case try == 3:
			slot.why = whyPooled
			return conn, slot, nil
		}
		_ = conn.Raw(func(any) error { return errBadConnMarker })
		conn.Close()
	}
}

// lost handles a connection failure: the connection is dropped and the
// next event reconnects.
func (w *worker) lost(ctx context.Context, err error) {
	if ctx.Err() == nil && w.ep.down.CompareAndSwap(false, true) {
		w.e.log.Printf("%s: connection lost (%v); reconnecting", w.ep.Name, err)
	}
	w.closeConn()
}

func (w *worker) closeConn() {
	if w.conn == nil {
		return
	}
	// Statements are not closed one by one: the server frees them with
	// the connection, which is discarded below.
	w.stmts = nil
	w.lastSQL, w.lastStmt = "", nil
	w.wire = nil
	// A connection in an unknown state must not go back to the pool.
	_ = w.conn.Raw(func(any) error { return errBadConnMarker })
	w.conn.Close()
	w.conn = nil
	if l := w.link.Swap(nil); l != nil && l.cancel != nil {
		l.cancel()
	}
	w.connID.Store(0)
}

var errBadConnMarker = driver.ErrBadConn

// errQueryTimeout is recorded for a statement stopped by QueryTimeout that
// the server ended without an error of its own.
var errQueryTimeout = &mysql.MySQLError{Number: erQueryInterrupted, SQLState: [5]byte{'7', '0', '1', '0', '0'},
	Message: "stopped by the query timeout (KILL QUERY)"}
