package replay

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/replay/action"
	"github.com/joinbench/joinbench/results"
)

// ExplainMode chooses what EXPLAIN captures.
type ExplainMode int

const (
	ExplainOff     ExplainMode = iota
	ExplainJSON                // EXPLAIN FORMAT=JSON (and tree where the server has it)
	ExplainAnalyze             // EXPLAIN ANALYZE; executes the statement, so write scenarios get plain EXPLAIN
)

// Endpoint is one server the run drives.
type Endpoint struct {
	Name string  // host:port as stored on every row; never holds a password
	DB   *sql.DB // workers take one connection each
	// Admin serves everything else: KILL QUERY, EXPLAIN, checks. Nil: DB.
	// A separate pool keeps the workers' pool free of connections dialed
	// for other uses, which a worker could not cut (stop.go).
	Admin   *sql.DB
	Sampler StatusSampler
	// Direct says DB dials blocking sockets (see UseBlockingIO): its
	// workers keep one thread each and execute prepared statements on the
	// socket themselves (package wire), unless Config.DriverPath, text
	// statements (Prepared false) or the connection (TLS, compression)
	// need the driver.
	Direct bool
	// Fallback says why an endpoint that was to be Direct is not; it is
	// logged once and recorded in the run's exec paths.
	Fallback string
}

// Node is a server behind the run's endpoints (a proxy's), reached
// directly.
type Node struct {
	Name    string  // host:port, as actions and status rows name it
	DB      *sql.DB // an action takes a connection of its own from it
	Sampler StatusSampler
}

// admin is the pool for everything but the workers.
func (ep *Endpoint) admin() *sql.DB {
	if ep.Admin != nil {
		return ep.Admin
	}
	return ep.DB
}

// Config is everything a run needs. Zero values mean: no limit, no pacing,
// defaults for the rest.
type Config struct {
	RunID      string
	ClientHost string
	Endpoints  []Endpoint
	Scenarios  []*Scenario // those with Count 0 are ignored

	Threads  int
	Events   int64         // stop after this many events in all; 0 = no limit
	Duration time.Duration // stop starting events after this; 0 = no limit
	Warmup   time.Duration // executed first, not recorded
	Rate     float64       // events per second over all threads (open loop); 0 = as fast as possible
	// Pacer, when set with Rate, schedules the events instead of a
	// ConstantPacer of Rate (a segment of a split run paces its share).
	Pacer Pacer
	// StartAt, when set, is when the measured phase (or the warmup) starts:
	// the segments of a split run start together.
	StartAt time.Time

	SkipTrx bool // do not wrap events in BEGIN/COMMIT
	// Prepared executes through statements prepared once per connection;
	// false sends text (the DSN should set interpolateParams=true).
	Prepared bool
	// DriverPath executes every statement through the driver, also on
	// Direct endpoints (a server the direct path does not handle).
	DriverPath bool
	// RetryErrors are server error numbers retried (after ROLLBACK and
	// BEGIN when in a transaction) and counted; nil means DefaultRetryErrors.
	RetryErrors []uint16
	MaxRetries  int   // per statement; 0 means 10
	Reconnect   int64 // reopen each connection after this many events; 0 = never
	// QueryTimeout cancels a statement on the server with KILL QUERY sent on
	// another connection; 0 = none.
	QueryTimeout time.Duration
	// NodeName is an SQL expression that names the server a connection
	// reaches, asked once per connection (e.g. @@wsrep_node_name) and
	// recorded on its rows (results.Execution.Node); "" asks nothing.
	NodeName string
	Seed     uint64

	Explain      ExplainMode
	ExplainEvery int64 // also explain about every N executions of a scenario (each of T threads every N/T of its own); 0 = only at start
	Explainer    Explainer

	// Checksum, when set, returns a fresh hash for one result set. It must
	// ignore row order: rows that tie under a statement's ORDER BY come back
	// in any order, even from one server, so an ordered hash would report
	// differences where there are none.
	Checksum func() Checksummer

	Sink           Sink
	ReportInterval time.Duration // 0 = no live report and no status sampling
	Progress       io.Writer     // live report lines; nil = none
	Log            io.Writer     // notices: plan changes, errors, reconnects; nil = none
	// DisableAfter switches a scenario off after this many consecutive
	// failures when none has succeeded; 0 means 20.
	DisableAfter int64
	BatchSize    int // rows per batch handed to the writer; 0 means 1024, less with many threads

	// Actions run at their offsets into the measured phase (package
	// action).
	Actions []action.Action
	// ActionsFromWorkload times the actions from the measured phase's
	// first successful execution instead of from its start.
	ActionsFromWorkload bool
	// Origin is Options.Origin: set at the measured phase's first
	// successful execution when not nil.
	Origin *action.Origin
	// Nodes, when the endpoints are a proxy's, are the servers behind it:
	// actions run on them (their targets index Nodes) and their status is
	// sampled on each directly. Nil: actions and status on the endpoints.
	Nodes []Node

	// Lockstep, when set, makes this run take turns statement by
	// statement with another run of as many threads (see Lockstep); the
	// two meet before they start, so StartAt is theirs.
	Lockstep *LockstepSide

	// Work samples the work of executions into a Sink that is a WorkSink
	// (worksample.go); its zero value samples nothing.
	Work WorkConfig

	// ReadOnly has the server refuse every write of the run's statements:
	// the workers', the work samplers' and the EXPLAIN connections run in
	// read-only transactions (readonly.go).
	ReadOnly bool

	// Watch, when set, is given the run's live view (Live) before its
	// workers start.
	Watch func(*Live)
}

// Result is what Run returns.
type Result struct {
	Start, End time.Time // of the measured phase
	Summary    Summary
	// Paths say, per endpoint, how its workers executed statements.
	Paths []results.EndpointPath
	// Actions are what the run's actions did (also in Summary.Actions,
	// with what each cost).
	Actions []results.Action
	// Work is what the run sampled of its executions' work; nil when it
	// sampled none.
	Work *results.WorkSampling
	// Machine is how busy the client machine's CPUs were over the
	// measured phase; nil when unknown.
	Machine *results.MachineLoad
}

// maxPlanStmts bounds the statements per scenario render that carry a plan
// hash.
const maxPlanStmts = 8

// scenState is a scenario's run-time state shared by the workers: only
// atomics are touched on the hot path.
type scenState struct {
	*Scenario
	idx         int
	disabled    atomic.Bool
	succeeded   atomic.Bool
	consecutive atomic.Int64
	plans       []atomic.Pointer[string] // [endpoint*maxPlanStmts + statement]
	disabledMsg atomic.Pointer[string]
	// workCostNs is what the last work sample of the scenario cost,
	// workPeriod the longest sampling period a worker computed.
	workCostNs atomic.Int64
	workPeriod atomic.Uint64
}

func (s *scenState) plan(ep, stmt int) string {
	if stmt >= maxPlanStmts {
		return ""
	}
	if p := s.plans[ep*maxPlanStmts+stmt].Load(); p != nil {
		return *p
	}
	return ""
}

type endpointState struct {
	Endpoint
	idx      int
	down     atomic.Bool
	explains chan explainReq
	works    chan workReq // reads to sample (worksample.go)
	later    laterReads   // reads to sample after the measured phase
	paths    pathTally
	// unresponsive is set when a call or a status sample got no reply in
	// time, and cleared by a status sample that did: the final sample
	// is not waited for then.
	unresponsive atomic.Bool
}

type engine struct {
	cfg    Config
	scens  []*scenState
	eps    []*endpointState
	rows   chan rowBatch
	free   chan []results.Execution
	log    *lockedWriter
	cancel context.CancelCauseFunc

	// counts holds each worker's running totals, indexed by worker;
	// totals sums them.
	counts []counts

	reconnects, stallNs atomic.Int64
	// unanswered counts the calls cut for want of a reply (stop.go).
	unanswered atomic.Int64
	// stopping is set when the workers must start no more calls (stop.go).
	stopping atomic.Bool
	stop     stopTimes

	mu  sync.Mutex // guards acc and tally
	acc *Accumulator
	// tally counts rows by bucket for the progress lines (nil without
	// them); taken is, per worker, the last batch of it the writer took,
	// and churned says the run had retries or conflicts (progress.go).
	tally   *tally
	taken   []atomic.Int64
	churned atomic.Bool

	seenErr       sync.Map // "scenario/code" already logged
	seenCommitErr sync.Map // error codes of COMMIT already logged

	stalls *stallRecorder // nil without actions; guarded by mu
	// origin is set by the writer at the first successful execution of
	// the measured phase, when the actions are timed from it or the
	// caller gave one (Config.Origin); else nil.
	origin *action.Origin

	sampling *sampling // nil when work is not sampled
	live     *Live     // nil without Config.Watch (live.go)
}

// counts are one worker's totals of the measured phase. Only that worker
// writes them; the reporter reads them. Each sits on its own cache lines:
// totals shared by all workers would move a cache line between cores on
// every statement.
type counts struct {
	events, execs, errs atomic.Int64
	cut                 atomic.Int64 // statements cut at the end, in neither execs nor errs
	// held is when the oldest statement whose row the worker has not
	// handed to the writer started (Unix ns; noneHeld when none), sent
	// the batches it handed over: the progress lines wait for them.
	held, sent atomic.Int64
	// busy is 1 + the index of the scenario the worker is running, 0
	// between events; kept only for a live view (Config.Watch).
	busy atomic.Int64
	_    [128 - 7*8]byte
}

// cutTotal sums the workers' statements cut at the end of the run.
func (e *engine) cutTotal() int64 {
	var n int64
	for i := range e.counts {
		n += e.counts[i].cut.Load()
	}
	return n
}

// totals sums the workers' counts.
func (e *engine) totals() (events, execs, errs int64) {
	for i := range e.counts {
		c := &e.counts[i]
		events += c.events.Load()
		execs += c.execs.Load()
		errs += c.errs.Load()
	}
	return events, execs, errs
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Printf(format string, args ...any) {
	if l == nil || l.w == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, format+"\n", args...)
}

// Validate checks a configuration for user mistakes.
func (c *Config) Validate() error {
	if len(c.Endpoints) == 0 {
		return usage.Errorf("no server to run against")
	}
	if err := c.validateLoad(); err != nil {
		return err
	}
	if c.Sink == nil {
		return errors.New("replay: no result sink")
	}
	return nil
}

// validateLoad checks the settings that need no server.
func (c *Config) validateLoad() error {
	if c.Threads < 1 {
		return usage.Errorf("--threads must be at least 1, not %d", c.Threads)
	}
	if c.Events < 0 || c.Duration < 0 || c.Warmup < 0 || !(c.Rate >= 0) || math.IsInf(c.Rate, 0) || c.QueryTimeout < 0 ||
		c.Reconnect < 0 || c.ExplainEvery < 0 || c.ReportInterval < 0 {
		return usage.Errorf("events, duration, warmup, rate, query timeout, reconnect, explain every and report interval cannot be negative (nor the rate infinite)")
	}
	n := 0
	for _, s := range c.Scenarios {
		if s.Count < 0 {
			return usage.Errorf("scenario %s: count cannot be negative", s.Name)
		}
		if s.Count > 0 {
			n++
		}
	}
	if n == 0 {
		return usage.Errorf("no scenario enabled: choose some with --scenario NAME=COUNT, --tags or --all")
	}
	if l := c.Lockstep; l != nil {
		switch {
		case l.threads() != c.Threads:
			return fmt.Errorf("replay: a lockstep of %d thread pairs for a run of %d threads", l.threads(), c.Threads)
		case c.Rate > 0:
			return usage.Errorf("--rate does not apply to runs that take turns statement by statement: the turns set the pace")
		case !c.StartAt.IsZero():
			return errors.New("replay: a run in lockstep starts when it meets the other, not at StartAt")
		}
	}
	return nil
}

func (e *engine) disabledCount() int {
	n := 0
	for _, s := range e.scens {
		if s.disabled.Load() {
			n++
		}
	}
	return n
}

func (e *engine) summary() Summary {
	e.mu.Lock()
	scs, total := e.acc.Close()
	e.mu.Unlock()
	byName := map[string]*ScenarioSummary{}
	for i := range scs {
		byName[scs[i].Scenario] = &scs[i]
	}
	for _, s := range e.scens {
		sc := byName[s.Name]
		if sc == nil {
			scs = append(scs, ScenarioSummary{Scenario: s.Name})
			sc = &scs[len(scs)-1]
			byName[s.Name] = sc
		}
		if m := s.disabledMsg.Load(); m != nil {
			sc.Disabled = *m
		}
	}
	sort.Slice(scs, func(i, j int) bool { return scs[i].Scenario < scs[j].Scenario })
	events, execs, errs := e.totals()
	s := Summary{
		RunID:          e.cfg.RunID,
		Elapsed:        total.Duration.Seconds(),
		Threads:        e.cfg.Threads,
		Events:         events,
		Executions:     execs,
		Errors:         errs,
		Retries:        total.Retries,
		Conflicts:      total.Conflicts,
		FailedCommits:  total.FailedCommits,
		CutAtEnd:       e.cutTotal(),
		Reconnects:     e.reconnects.Load(),
		Unanswered:     e.unanswered.Load(),
		WriterStallsMs: float64(e.stallNs.Load()) / 1e6,
		Scenarios:      scs,
	}
	if total.Duration > 0 {
		s.EventsPerSec = float64(s.Events) / total.Duration.Seconds()
		s.QPS = total.Throughput
	}
	return s
}

// noteError logs the first occurrence of each error of a scenario.
func (e *engine) noteError(s *scenState, err error) {
	code, _, _ := errorFields(err)
	key := fmt.Sprintf("%s/%d", s.Name, code)
	if _, loaded := e.seenErr.LoadOrStore(key, true); !loaded {
		e.log.Printf("%s", describeError(s.Name, err))
	}
}

// failed applies the disabling policy after a failure that is the
// scenario's own (server error or timeout).
func (e *engine) failed(s *scenState, err error) {
	n := s.consecutive.Add(1)
	if n >= e.cfg.DisableAfter && !s.succeeded.Load() && s.disabled.CompareAndSwap(false, true) {
		msg := fmt.Sprintf("%s after %d consecutive failures and no success", describeError(s.Name, err), n)
		s.disabledMsg.Store(&msg)
		e.log.Printf("disabled %s", msg)
		if e.disabledCount() == len(e.scens) {
			e.cancel(errors.New("every scenario failed on every execution and was disabled"))
		}
	}
}

func (e *engine) succeeded(s *scenState) {
	if !s.succeeded.Load() {
		s.succeeded.Store(true)
	}
	if s.consecutive.Load() != 0 {
		s.consecutive.Store(0)
	}
}
