package replay

import (
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/segment"
	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/replay/action"
	"github.com/joinbench/joinbench/results"
)

// Options are one run, as typed values. The embedded RunOptions (scenario
// selection, load and pacing, error policy, the schema parameters draw
// from, what is captured) are recorded in run.json as the run used them;
// the other fields say where things come from and go, and are not.
type Options struct {
	results.RunOptions

	// Override lets a scenario or list of a CorpusDirs folder replace the
	// built-in one of the same name.
	Override bool
	// SchemaFile, when set, is a file of CREATE TABLE statements the
	// scenarios' enum, set, id and table placeholders are compiled against
	// instead of the built-in schema: a corpus on the user's own tables.
	SchemaFile string
	// ImportedWrites lets the scenarios tagged imported that write run:
	// without it an imported corpus is read-only whatever ReadOnly says.
	ImportedWrites bool
	// PollerIO keeps Go's network poller for the workers' sockets instead
	// of blocking reads, and with it the driver path (for comparing the
	// two); run.json's exec paths record it.
	PollerIO bool

	// Actions are --action specs, ActionFiles files of them (see
	// action.Parse): statements, chunked DML, external commands and faults
	// executed at offsets into the measured phase.
	Actions     []string
	ActionFiles []string
	// ActionsFromWorkload times the actions from the measured phase's
	// first successful execution rather than from its start: a workload
	// that starts late (connecting on a busy machine) shifts them with it,
	// so the quiet stretch before the first action is never emptied.
	ActionsFromWorkload bool
	// Origin, when not nil, is set by the engine at the measured phase's
	// first successful execution (the workload's measured start), for a
	// caller that times something of its own from it, as the restore
	// lesson times its quiet window; with ActionsFromWorkload the run's
	// actions are timed from it too.
	Origin *action.Origin

	Out         string // results folder: the run is written to Out/run=<id>/
	RunID       string // default: the start time and a random suffix
	ToolVersion string // stored in run.json

	// Segment makes this client one of N running the run together (see
	// shareOut); the zero value runs it all.
	Segment segment.Segment
	// BarrierTimeout is how long a segment waits for the others to be
	// ready; 0 means DefaultBarrierTimeout.
	BarrierTimeout time.Duration

	// Lockstep makes the run take turns statement by statement with
	// another run (joinbench ab --interleave statements).
	Lockstep *LockstepSide

	ReportInterval time.Duration // live progress and server status sampling; 0 = none
	Progress       io.Writer     // live report lines; nil = none
	Log            io.Writer     // notices: what runs where, plan changes, errors, fallbacks; nil = none

	// Watch is given each run's live view (Live) as it starts: a metrics
	// endpoint reads it when scraped. Nil: none is kept.
	Watch func(*Live)
}

// DefaultDuration is how long a run lasts when it sets neither
// RunOptions.Events nor RunOptions.Time.
const DefaultDuration = 10 * time.Second

// Sane bounds, checked before anything is allocated or connected.
const (
	// MaxThreads bounds --threads: each thread holds a connection and, on
	// the direct path, an OS thread of its own. The server's
	// max_connections is checked too, once connected.
	MaxThreads = 10_000
	// MaxTables bounds --tables: the built-in schema is built (each table's
	// DDL parsed) before anything runs, a second per few thousand tables.
	MaxTables = 10_000
	// MinReportInterval is the shortest --report-interval: each one
	// prints a line and samples the server's counters.
	MinReportInterval = 100 * time.Millisecond
)

// check refuses options that are a user's mistake, one flag at a time and
// naming it, before anything is done: no server, no folder, no memory.
func (o *Options) check() error {
	switch {
	case o.Threads < 1:
		return usage.Errorf("--threads must be at least 1, got %d", o.Threads)
	case o.Threads > MaxThreads:
		return usage.Errorf("--threads %d: at most %d (each thread holds a connection, and on the direct path an OS thread)", o.Threads, MaxThreads)
	case o.Tables < 1:
		return usage.Errorf("--tables must be at least 1, got %d", o.Tables)
	case o.Tables > MaxTables:
		return usage.Errorf("--tables %d: at most %d", o.Tables, MaxTables)
	case o.TableSize < 1:
		return usage.Errorf("--table-size must be at least 1, got %d", o.TableSize)
	case o.Events < 0:
		return usage.Errorf("--events cannot be negative, got %d", o.Events)
	case o.Time < 0:
		return usage.Errorf("--time cannot be negative, got %s", time.Duration(o.Time))
	case o.Warmup < 0:
		return usage.Errorf("--warmup cannot be negative, got %s", time.Duration(o.Warmup))
	case math.IsNaN(o.Rate) || math.IsInf(o.Rate, 0) || o.Rate < 0:
		return usage.Errorf("--rate must be a number of events per second, 0 or more, got %v", o.Rate)
	case o.QueryTimeout < 0:
		return usage.Errorf("--query-timeout cannot be negative, got %s", time.Duration(o.QueryTimeout))
	case o.Reconnect < 0:
		return usage.Errorf("--reconnect cannot be negative, got %d", o.Reconnect)
	case o.ExplainEvery < 0:
		return usage.Errorf("--explain-every cannot be negative, got %d", o.ExplainEvery)
	case o.ReportInterval < 0 || o.ReportInterval > 0 && o.ReportInterval < MinReportInterval:
		return usage.Errorf("--report-interval %s: 0 (none) or at least %s", o.ReportInterval, MinReportInterval)
	case o.Work != "" && o.Work != results.WorkSample && o.Work != results.WorkDuring && o.Work != results.WorkOff:
		return usage.Errorf("--work %q: sample, during or off", o.Work)
	case math.IsNaN(o.WorkBudget) || o.WorkBudget < 0 || o.WorkBudget > 0.5:
		return usage.Errorf("--work-budget %v: a share of each scenario's time between 0 and 50%%", o.WorkBudget)
	}
	if o.RunID != "" {
		if err := results.CheckRunID(o.RunID); err != nil {
			return usage.Errorf("--run-id: %v", err)
		}
	}
	if o.Out != "" {
		if st, err := os.Stat(o.Out); err == nil && !st.IsDir() {
			return usage.Errorf("--out %s: not a folder", o.Out)
		}
		if o.RunID != "" {
			seg := 0
			if o.Segment.Split() {
				seg = o.Segment.Index
			}
			if results.RunTaken(o.Out, o.RunID, seg) {
				return usage.Errorf("--run-id %s: %s already holds that run", o.RunID, o.Out)
			}
		}
	}
	return nil
}

// withDefaults fills in the defaults, which run.json records.
func (o Options) withDefaults() Options {
	if o.Time == 0 && o.Events == 0 {
		o.Time = results.Duration(DefaultDuration)
	}
	if o.Work == "" {
		o.Work = results.WorkSample
	}
	if o.WorkBudget == 0 {
		o.WorkBudget = DefaultWorkBudget
	}
	return o
}

// record is what run.json stores of o: the options, with the scenario
// specs sorted as run.json has always listed them.
func (o *Options) record() *results.RunOptions {
	r := o.RunOptions
	r.Scenario = slices.Sorted(slices.Values(o.Scenario))
	return &r
}

// config is the engine configuration of o, without endpoints and sink.
func (o *Options) config(retry []uint16) Config {
	c := Config{
		Threads: o.Threads, Events: o.Events, Duration: time.Duration(o.Time), Warmup: time.Duration(o.Warmup), Rate: o.Rate,
		SkipTrx: o.SkipTrx, Prepared: o.PsMode != results.PsDisable, DriverPath: o.ExecPath == results.ExecDriver,
		RetryErrors: retry, Reconnect: o.Reconnect, QueryTimeout: time.Duration(o.QueryTimeout), Seed: o.Seed,
		ExplainEvery: o.ExplainEvery, ReportInterval: o.ReportInterval, Progress: o.Progress, Log: o.Log,
		Lockstep: o.Lockstep, Watch: o.Watch, ReadOnly: o.ReadOnly,
	}
	switch o.Explain {
	case results.ExplainJSON:
		c.Explain = ExplainJSON
	case results.ExplainAnalyze:
		c.Explain = ExplainAnalyze
	}
	if o.Checksum {
		c.Checksum = NewChecksum
	}
	if o.Work != results.WorkOff {
		c.Work = WorkConfig{Budget: o.WorkBudget, FirstEvents: DefaultWorkFirstEvents, During: o.Work == results.WorkDuring}
	}
	return c
}

// ParseRetryErrors reads the server error numbers to retry, as given to
// --ignore-errors: comma-separated numbers, or "none" (or nothing) for none.
func ParseRetryErrors(s string) ([]uint16, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "none") {
		return []uint16{}, nil
	}
	var out []uint16
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseUint(strings.TrimSpace(f), 10, 16)
		if err != nil {
			return nil, usage.Errorf("--ignore-errors: %q is not an error number", f)
		}
		out = append(out, uint16(v))
	}
	return out, nil
}

// workload is what a run executes: its scenarios compiled against the
// built-in schema.
type workload struct {
	scenarios []*Scenario
	names     []string // enabled, in corpus order
	sql       []string // their statement texts, for run.json
	writes    []string // those with a statement that is not a plain read
	// writeKinds are the kinds of the statements of each of writes that
	// are not plain reads, each once, in statement order.
	writeKinds map[string][]string
	builtin    bool // some enabled scenario is built in (and needs the prepared tables)
	// templates are the compiled scenarios with sample(...) parameters,
	// whose values the run reads from the server before it renders.
	templates []*corpus.Template
}

// compile loads the corpus o names, selects its scenarios and compiles
// them for the run.
func (o *Options) compile() (*workload, error) {
	cp, err := corpus.Load(corpus.LoadOptions{Dirs: o.CorpusDirs, Override: o.Override, NoBuiltin: o.NoBuiltin})
	if err != nil {
		return nil, err
	}
	counts, err := cp.Select(corpus.Selection{All: o.All, Tags: o.Tags, Specs: o.Scenario})
	if err != nil {
		return nil, err
	}
	schema, err := o.schema()
	if err != nil {
		return nil, err
	}
	w := &workload{}
	var writing []*corpus.Scenario
	for _, s := range cp.Scenarios() {
		n := counts[s.Name]
		if n == 0 {
			continue
		}
		t, err := corpus.Compile(s, schema, corpus.CompileOptions{
			Tables: o.Tables, TableSize: o.TableSize, Distribution: o.Distribution, TableName: o.TableName})
		if err != nil {
			return nil, err
		}
		w.scenarios = append(w.scenarios, FromTemplate(t, n))
		if samplesOf(t) {
			w.templates = append(w.templates, t)
		}
		w.names = append(w.names, s.Name)
		w.sql = append(w.sql, s.Body)
		if kinds := s.Writes(); len(kinds) > 0 {
			if w.writeKinds == nil {
				w.writeKinds = map[string][]string{}
			}
			w.writes = append(w.writes, s.Name)
			w.writeKinds[s.Name] = kindNames(kinds)
			writing = append(writing, s)
		}
		w.builtin = w.builtin || s.Builtin
	}
	switch {
	case o.ReadOnly:
		if err := refuseWrites(writing); err != nil {
			return nil, err
		}
	case !o.ImportedWrites:
		if err := refuseImportedWrites(writing); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// schema is the model the scenarios compile against: SchemaFile's, else
// the built-in one.
func (o *Options) schema() (*ddl.Schema, error) {
	if o.SchemaFile == "" {
		s, err := ddl.BuiltinSchema(ddl.SchemaOptions{Tables: o.Tables, TableName: o.TableName})
		if err != nil {
			return nil, usage.Wrap(err)
		}
		return s, nil
	}
	b, err := os.ReadFile(o.SchemaFile)
	if err != nil {
		return nil, usage.Errorf("--schema: %v", err)
	}
	s, err := ddl.ParseSchema(string(b))
	if err != nil {
		return nil, usage.Errorf("%s:%v", o.SchemaFile, err)
	}
	s.GroupFamily(o.TableName)
	return s, nil
}
