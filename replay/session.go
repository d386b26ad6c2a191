package replay

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/replay/results"
	"github.com/joinbench/joinbench/replay/status"
)

// Session is one run made from Options, in three steps: NewSession checks
// the options and compiles the scenarios (no server needed, so mistakes
// show before one is started); Open opens the endpoints, after which the
// caller may prepare tables through DB; Run detects the server, records
// the run in its results folder and replays the workload. Close releases
// the connections.
//
// Preparing tables is left to the caller on purpose: replay runs a
// workload and does not create tables (package ddl does).
type Session struct {
	opts  Options
	retry []uint16
	work  *workload
	eps   []Endpoint
	// specs are the run's actions as parsed, actions the same resolved
	// against the endpoints by Open.
	specs   []ActionSpec
	actions []Action
}

// Outcome is what a Session's run produced.
type Outcome struct {
	Result
	Run *results.Run // run.json as written at the end
	Dir string       // the run folder, Out/run=<id>
}

// NewSession checks o for user mistakes and compiles its scenarios.
func NewSession(o Options) (*Session, error) {
	if o.Threads < 1 {
		return nil, usage.Errorf("--threads must be at least 1, got %d", o.Threads)
	}
	if o.Tables < 1 || o.TableSize < 1 {
		return nil, usage.Errorf("--tables and --table-size must be at least 1")
	}
	retry, err := ParseRetryErrors(o.IgnoreErrors)
	if err != nil {
		return nil, err
	}
	o = o.withDefaults()
	w, err := o.compile()
	if err != nil {
		return nil, err
	}
	cfg := o.config(retry)
	cfg.Scenarios = w.scenarios
	if err := cfg.validateLoad(); err != nil {
		return nil, err
	}
	specs, err := ParseActions(o.Actions, o.ActionFiles)
	if err != nil {
		return nil, err
	}
	if err := checkActions(specs, time.Duration(o.Time)); err != nil {
		return nil, err
	}
	return &Session{opts: o, retry: retry, work: w, specs: specs}, nil
}

// UsesBuiltin reports whether a built-in scenario is enabled: those need
// the tables joinbench prepare creates.
func (s *Session) UsesBuiltin() bool { return s.work.builtin }

// Open opens the endpoints as the workers use them (see openEndpoint).
func (s *Session) Open(ctx context.Context, endpoints []server.Endpoint) error {
	if len(s.eps) > 0 {
		return errors.New("replay: session already open")
	}
	if len(endpoints) == 0 {
		return usage.Errorf("no server to run against")
	}
	actions, err := ResolveActions(s.specs, endpoints)
	if err != nil {
		return err
	}
	s.actions = actions
	o := openOptions{Prepared: s.opts.PsMode != results.PsDisable, PollerIO: s.opts.PollerIO,
		MaxIdle: s.opts.Threads/len(endpoints) + 4}
	for _, ep := range endpoints {
		e, err := openEndpoint(ctx, ep, o)
		if err != nil {
			return err
		}
		s.eps = append(s.eps, e)
	}
	return nil
}

// DB is the first endpoint's pool, for work on the schema before the run
// (a cluster replicates it to the others). Open first.
func (s *Session) DB() *sql.DB { return s.eps[0].DB }

// Close closes the endpoints' connections.
func (s *Session) Close() error {
	var errs []error
	for _, ep := range s.eps {
		errs = append(errs, ep.DB.Close())
	}
	s.eps = nil
	return errors.Join(errs...)
}

// Run detects the server, writes run.json in a new run folder, replays
// the workload and completes run.json with the outcome. With a nil Outcome
// nothing ran; with both an Outcome and an error, the run ran and was
// recorded, and the error says what went wrong. Cancelling ctx stops the
// run as Run (the engine) says.
func (s *Session) Run(ctx context.Context) (*Outcome, error) {
	if len(s.eps) == 0 {
		return nil, errors.New("replay: session not open")
	}
	o := &s.opts
	log := &lockedWriter{w: o.Log}
	db := s.eps[0].DB
	fl, err := server.DetectFlavor(ctx, db)
	if err != nil {
		return nil, err
	}
	vars, err := ReadServerVariables(ctx, db)
	if err != nil {
		log.Printf("warning: %v", err)
	}

	host, _ := os.Hostname()
	runID := o.RunID
	if runID == "" {
		runID = results.NewRunID(time.Now())
	}
	dir, err := results.Create(o.Out, runID, host)
	if err != nil {
		return nil, usage.Wrap(err)
	}
	defer dir.Close()
	eps := make([]Endpoint, len(s.eps))
	var names []string
	direct := false
	for i, ep := range s.eps {
		eps[i] = ep
		if o.ReportInterval > 0 {
			eps[i].Sampler = status.NewSampler(ep.DB, ep.Name, runID, fl.Galera)
		}
		names = append(names, ep.Name)
		direct = direct || ep.Direct
	}
	run := &results.Run{
		RunID: runID, ToolVersion: o.ToolVersion, ServerVersion: fl.Version, Flavor: fl.Name,
		Endpoints: names, ClientHost: host, ServerVars: vars, Options: o.record(),
		Scenarios: s.work.names, WriteScenarios: s.work.writes, Start: time.Now(),
	}
	for _, a := range s.specs {
		run.Actions = append(run.Actions, a.Text)
	}
	if err := dir.WriteRun(run); err != nil {
		return nil, err
	}
	log.Printf("run %s: %d scenario(s), %d thread(s) on %s (%s %s), results in %s",
		runID, len(s.work.scenarios), o.Threads, strings.Join(names, ", "), fl.Name, fl.Version, dir.Path())

	cfg := o.config(s.retry)
	cfg.RunID, cfg.ClientHost, cfg.Endpoints, cfg.Scenarios = runID, host, eps, s.work.scenarios
	cfg.Sink = ResultsSink(dir)
	cfg.Actions = s.actions
	if cfg.Explain != ExplainOff {
		cfg.Explainer = NewExplainer(fl)
	}
	if direct {
		// Spare Ps keep the runtime from taking Ps back from workers
		// blocked in reads (see ProcsForBlockingIO), for this run only.
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
		ProcsForBlockingIO(o.Threads)
	}
	res, runErr := Run(ctx, cfg)
	if res == nil {
		return nil, runErr
	}
	run.Start, run.End = res.Start, res.End
	run.Interrupted = res.Summary.Interrupted
	run.Executions, run.Errors = res.Summary.Executions, res.Summary.Errors
	run.ExecPaths = res.Paths
	if err := dir.WriteRun(run); err != nil && runErr == nil {
		runErr = err
	}
	if err := dir.Close(); err != nil && runErr == nil {
		runErr = fmt.Errorf("close results: %w", err)
	}
	return &Outcome{Result: *res, Run: run, Dir: dir.Path()}, runErr
}
