package replay

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/replay/action"
	"github.com/joinbench/joinbench/replay/status"
	"github.com/joinbench/joinbench/results"
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
	opts Options
	// whole is what run.json records of a split run: the options as given,
	// before shareOut (nil when not split).
	whole *results.RunOptions
	retry []uint16
	work  *workload
	eps   []Endpoint
	// servers are the endpoints as given, and nodes the servers behind
	// them when they are a proxy's (Open).
	servers []server.Endpoint
	nodes   []openNode
	// specs are the run's actions as parsed, actions the same resolved
	// against the endpoints by Open.
	specs   []action.Spec
	actions []action.Action
	// dataset is what the caller found prepared (RecordDataset), and
	// digestAtEnd how to digest its contents after a run that wrote.
	dataset     *results.Dataset
	digestAtEnd func(context.Context) map[string]results.TableContents
}

// setupTimeout bounds the questions a session asks a server before the run
// (ping, limits, flavour, variables): a server that does not answer them
// is an error, not a wait.
const setupTimeout = 30 * time.Second

// Outcome is what a Session's run produced.
type Outcome struct {
	Result
	Run *results.Run // run.json as written at the end
	Dir string       // the run folder, Out/run=<id>
}

// NewSession checks o for user mistakes and compiles its scenarios.
func NewSession(o Options) (*Session, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	retry, err := ParseRetryErrors(o.IgnoreErrors)
	if err != nil {
		return nil, err
	}
	o = o.withDefaults()
	var whole *results.RunOptions
	if o.Segment.Split() {
		whole = o.record()
		if err := o.shareOut(); err != nil {
			return nil, err
		}
	}
	w, err := o.compile()
	if err != nil {
		return nil, err
	}
	cfg := o.config(retry)
	cfg.Scenarios = w.scenarios
	if err := cfg.validateLoad(); err != nil {
		return nil, err
	}
	specs, err := action.ParseAll(o.Actions, o.ActionFiles)
	if err != nil {
		return nil, err
	}
	if err := action.CheckOffsets(specs, time.Duration(o.Time)); err != nil {
		return nil, err
	}
	return &Session{opts: o, whole: whole, retry: retry, work: w, specs: specs}, nil
}

// UsesBuiltin reports whether a built-in scenario is enabled: those need
// the tables joinbench prepare creates.
func (s *Session) UsesBuiltin() bool { return s.work.builtin }

// Open opens the endpoints as the workers use them (see openEndpoint).
// nodes, when the endpoints are a proxy's, are the servers behind it: the
// actions run on them, and their status is read from each directly.
func (s *Session) Open(ctx context.Context, endpoints, nodes []server.Endpoint) error {
	if len(s.eps) > 0 {
		return errors.New("replay: session already open")
	}
	if len(endpoints) == 0 {
		return usage.Errorf("no server to run against")
	}
	ctx, cancel := context.WithTimeout(ctx, setupTimeout)
	defer cancel()
	targets := endpoints
	if len(nodes) > 0 {
		targets = nodes
	}
	actions, err := action.Resolve(s.specs, targets)
	if err != nil {
		return err
	}
	s.actions = actions
	s.servers = endpoints
	for _, n := range nodes {
		on, err := openNodeOf(ctx, n)
		if err != nil {
			return err
		}
		s.nodes = append(s.nodes, on)
	}
	o := openOptions{Prepared: s.opts.PsMode != results.PsDisable, PollerIO: s.opts.PollerIO,
		MaxIdle: s.opts.Threads/len(endpoints) + 4}
	for _, ep := range endpoints {
		e, err := openEndpoint(ctx, ep, o)
		if err != nil {
			return err
		}
		s.eps = append(s.eps, e)
	}
	// Threads are dealt round-robin: the first endpoints take one more.
	for i := range s.eps {
		workers := s.opts.Threads / len(s.eps)
		if i < s.opts.Threads%len(s.eps) {
			workers++
		}
		if err := checkConnections(ctx, &s.eps[i], workers); err != nil {
			return err
		}
	}
	return nil
}

// RecordDataset has run.json say what data the run runs on, as the
// caller read it from the server after Open.
func (s *Session) RecordDataset(d *results.Dataset) { s.dataset = d }

// DigestAtEnd gives the digest of the dataset's contents that a run which
// wrote (a write scenario, an action) takes when it ends, into run.json's
// dataset.contents_at_end.
func (s *Session) DigestAtEnd(digest func(context.Context) map[string]results.TableContents) {
	s.digestAtEnd = digest
}

// endDigestTimeout bounds the digest at the end of a run that wrote,
// taken even when the run was interrupted.
const endDigestTimeout = 2 * time.Minute

// digestEnd records what a run that wrote left of the dataset.
func (s *Session) digestEnd(ctx context.Context, run *results.Run) {
	if s.digestAtEnd == nil || run.Dataset == nil || len(run.WriteScenarios) == 0 && len(run.Actions) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), endDigestTimeout)
	defer cancel()
	run.Dataset.ContentsAtEnd = s.digestAtEnd(ctx)
}

// DB is the first endpoint's pool, for work on the schema before the run
// (a cluster replicates it to the others). Open first.
func (s *Session) DB() *sql.DB { return s.eps[0].admin() }

// Close closes the endpoints' connections.
func (s *Session) Close() error {
	var errs []error
	for _, ep := range s.eps {
		errs = append(errs, ep.DB.Close())
		if ep.Admin != nil {
			errs = append(errs, ep.Admin.Close())
		}
	}
	for _, n := range s.nodes {
		errs = append(errs, n.db.Close())
	}
	s.eps, s.nodes = nil, nil
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
	db := s.eps[0].admin()
	sctx, cancel := context.WithTimeout(ctx, setupTimeout)
	defer cancel()
	fl, err := server.DetectFlavor(sctx, db)
	if err != nil {
		return nil, err
	}
	if err := s.work.drawSamples(sctx, db, o.Seed, log.Printf); err != nil {
		return nil, err
	}
	vars, err := ReadServerVariables(sctx, db)
	if err != nil {
		log.Printf("warning: %v", err)
	}
	host, _ := os.Hostname()
	runID := cmp.Or(o.RunID, results.NewRunID(time.Now()))
	dir, err := s.createDir(runID, host)
	if err != nil {
		return nil, err
	}
	defer dir.Close()
	eps, nodes := s.sampledEndpoints(runID, fl)
	run := s.runRecord(sctx, runID, host, fl, vars, eps)
	if err := dir.WriteRun(run); err != nil {
		return nil, err
	}
	log.Printf("run %s: %d scenario(s), %d thread(s) on %s (%s %s), results in %s",
		runID, len(s.work.scenarios), o.Threads, strings.Join(run.Endpoints, ", "), fl.Name, fl.Version, dir.Path())

	cfg := s.engineConfig(runID, host, fl, eps, nodes, dir)
	if slices.ContainsFunc(s.eps, func(ep Endpoint) bool { return ep.Direct }) {
		// Spare Ps keep the runtime from taking Ps back from workers
		// blocked in reads (see ProcsForBlockingIO), for this run only.
		defer holdProcs(o.Threads)()
	}
	if o.Segment.Split() {
		if cfg.StartAt, err = s.meet(ctx, run, dir, log); err != nil {
			return nil, err
		}
		cfg.Pacer = o.segmentPacer()
	}
	res, runErr := Run(ctx, cfg)
	if res == nil {
		return nil, runErr
	}
	if we := (*results.WriteError)(nil); errors.As(runErr, &we) {
		runErr = fmt.Errorf("%w: the run was stopped; the files finished before are kept in %s", we, dir.Path())
	}
	s.digestEnd(ctx, run)
	runErr = completeRun(dir, run, res, runErr)
	return &Outcome{Result: *res, Run: run, Dir: dir.Path()}, runErr
}

// createDir makes the run's folder, or its segment's in a split run.
// Executions go to a journal made Parquet at the end, unless asked for as
// they come: encoding them during the run takes client CPU from the
// measured time (results.Options.Journal).
func (s *Session) createDir(runID, host string) (*results.RunDir, error) {
	o := &s.opts
	ropts := results.Options{Journal: !o.LiveResults}
	var dir *results.RunDir
	var err error
	if o.Segment.Split() {
		dir, err = results.CreateSegment(o.Out, runID, host, o.Segment.Index, ropts)
	} else {
		dir, err = results.CreateWithOptions(o.Out, runID, host, ropts)
	}
	if err != nil {
		return nil, usage.Wrap(err)
	}
	return dir, nil
}

// sampledEndpoints are the run's endpoints and nodes, each given a status
// sampler when the run reports status. Status read through a proxy would
// be whichever node it picks: behind one, it is read on the nodes.
func (s *Session) sampledEndpoints(runID string, fl flavor.Flavor) ([]Endpoint, []Node) {
	o := &s.opts
	eps := make([]Endpoint, len(s.eps))
	for i, ep := range s.eps {
		eps[i] = ep
		if o.ReportInterval > 0 && len(s.nodes) == 0 {
			eps[i].Sampler = s.statusSampler(ep.admin(), ep.Name, runID, fl.Galera)
		}
	}
	var nodes []Node
	for _, n := range s.nodes {
		node := Node{Name: n.ep.Name, DB: n.db}
		if o.ReportInterval > 0 {
			node.Sampler = s.statusSampler(n.db, n.ep.Name, runID, fl.Galera)
		}
		nodes = append(nodes, node)
	}
	return eps, nodes
}

// runRecord is run.json as the run starts: what runs, where and how.
func (s *Session) runRecord(ctx context.Context, runID, host string, fl flavor.Flavor, vars map[string]string, eps []Endpoint) *results.Run {
	o := &s.opts
	var names []string
	for _, ep := range eps {
		names = append(names, ep.Name)
	}
	run := &results.Run{
		RunID: runID, ToolVersion: o.ToolVersion, ServerVersion: fl.Version, Flavor: fl.Name,
		Endpoints: names, ClientHost: host, ServerVars: vars, Options: o.record(),
		Scenarios: s.work.names, WriteScenarios: s.work.writes, WriteKinds: s.work.writeKinds, Start: time.Now(),
		Nodes:   s.nodeNames(ctx, fl.Galera),
		Dataset: s.dataset,
	}
	run.RecordScenarioSQL(s.work.names, s.work.sql)
	if o.Segment.Split() {
		run.Segment, run.Segments = o.Segment.Index, o.Segment.Count
	}
	for _, a := range s.specs {
		run.Actions = append(run.Actions, a.Text)
	}
	return run
}

// engineConfig is the engine's configuration for this session's run.
func (s *Session) engineConfig(runID, host string, fl flavor.Flavor, eps []Endpoint, nodes []Node, dir *results.RunDir) Config {
	o := &s.opts
	cfg := o.config(s.retry)
	cfg.RunID, cfg.ClientHost, cfg.Endpoints, cfg.Scenarios = runID, host, eps, s.work.scenarios
	cfg.NodeName = nodeNameQuery(fl.Galera)
	cfg.Nodes = nodes
	cfg.Sink = ResultsSink(dir)
	if !o.Segment.Split() || o.Segment.Index == 1 {
		// The actions are the run's, as the workload is: of a run split
		// over several clients, segment 1 performs them, once (every
		// segment checked them, so that a mistake stops each one).
		cfg.Actions = s.actions
		cfg.ActionsFromWorkload = o.ActionsFromWorkload
	}
	cfg.Origin = o.Origin
	if cfg.Explain != ExplainOff {
		cfg.Explainer = NewExplainer(fl)
	}
	cfg.Work.Flavor = fl
	return cfg
}

// completeRun writes run.json with the run's outcome and closes the
// folder; the error returned is the run's with what failed here added.
func completeRun(dir *results.RunDir, run *results.Run, res *Result, runErr error) error {
	run.Start, run.End = res.Start, res.End
	run.Interrupted = res.Summary.Interrupted
	run.Executions, run.Errors, run.CutAtEnd = res.Summary.Executions, res.Summary.Errors, res.Summary.CutAtEnd
	run.Unanswered = res.Summary.Unanswered
	run.ExecPaths = res.Paths
	run.WarningsCounted = results.WarningsCounted(res.Paths)
	run.Work, run.Machine = res.Work, res.Machine
	run.ClientCPUSeconds, run.ClientCPUPerQueryUs = res.Summary.ClientCPUSeconds, res.Summary.ClientCPUPerQueryUs
	if runErr != nil {
		run.Error = runErr.Error()
	}
	if err := dir.WriteRun(run); err != nil {
		runErr = errors.Join(runErr, fmt.Errorf("run.json not completed (report warns of it): %w", err))
	}
	if err := dir.Close(); err != nil && runErr == nil {
		runErr = fmt.Errorf("close results: %w", err)
	}
	return runErr
}

// nodeNameQuery is how a connection asks which server it reached: a
// Galera node by its wsrep_node_name (node1 in a cluster sandbox), any
// other server by its host name and port.
func nodeNameQuery(galera bool) string {
	if galera {
		return "@@wsrep_node_name"
	}
	return "CONCAT(@@hostname, ':', @@port)"
}

// openNode is a server behind a proxy, and its pool: for actions and
// status, never for the workers.
type openNode struct {
	ep server.Endpoint
	db *sql.DB
}

// openNodeOf opens and checks a pool on a node behind a proxy.
func openNodeOf(ctx context.Context, ep server.Endpoint) (openNode, error) {
	db, err := ep.OpenDB()
	if err != nil {
		return openNode{}, usage.Wrap(err)
	}
	db.SetMaxOpenConns(adminConns)
	if err := ep.Ping(ctx, db); err != nil {
		db.Close()
		return openNode{}, err
	}
	return openNode{ep: ep, db: db}, nil
}

// nodeNames names the servers whose status the run reads (the nodes
// behind a proxy, else the endpoints), for run.json: a sandbox node by its
// name, a Galera node by its wsrep_node_name; none when no name is known.
func (s *Session) nodeNames(ctx context.Context, galera bool) []results.Node {
	type named struct {
		ep server.Endpoint
		db *sql.DB
	}
	var servers []named
	for _, n := range s.nodes {
		servers = append(servers, named{n.ep, n.db})
	}
	if len(s.nodes) == 0 {
		for i, ep := range s.servers {
			servers = append(servers, named{ep, s.eps[i].admin()})
		}
	}
	var out []results.Node
	for _, n := range servers {
		name := n.ep.Node
		if name == "" && galera {
			var v sql.NullString
			if err := n.db.QueryRowContext(ctx, "SELECT @@wsrep_node_name").Scan(&v); err == nil {
				name = v.String
			}
		}
		if name != "" {
			out = append(out, results.Node{Name: name, Endpoint: n.ep.Name})
		}
	}
	return out
}

// statusSampler samples one server's status; in a run with actions, its
// tablespaces' size too, for the disk an action takes (a table copy).
func (s *Session) statusSampler(db *sql.DB, endpoint, runID string, galera bool) *status.Sampler {
	sm := status.NewSampler(db, endpoint, runID, galera)
	if len(s.actions) > 0 {
		sm.SampleDisk()
	}
	return sm
}
