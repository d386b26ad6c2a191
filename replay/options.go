package replay

import (
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/replay/results"
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
	// PollerIO keeps Go's network poller for the workers' sockets instead
	// of blocking reads, and with it the driver path (for comparing the
	// two); run.json's exec paths record it.
	PollerIO bool

	// Actions are --action specs, ActionFiles files of them (see
	// ParseAction): statements, chunked DML, external commands and faults
	// executed at offsets into the measured phase.
	Actions     []string
	ActionFiles []string

	Out         string // results folder: the run is written to Out/run=<id>/
	RunID       string // default: the start time and a random suffix
	ToolVersion string // stored in run.json

	ReportInterval time.Duration // live progress and server status sampling; 0 = none
	Progress       io.Writer     // live report lines; nil = none
	Log            io.Writer     // notices: what runs where, plan changes, errors, fallbacks; nil = none
}

// DefaultDuration is how long a run lasts when it sets neither
// RunOptions.Events nor RunOptions.Time.
const DefaultDuration = 10 * time.Second

// withDefaults fills in the defaults, which run.json records.
func (o Options) withDefaults() Options {
	if o.Time == 0 && o.Events == 0 {
		o.Time = results.Duration(DefaultDuration)
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
	writes    []string // those that modify data
	builtin   bool     // some enabled scenario is built in (and needs the prepared tables)
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
	schema, err := ddl.BuiltinSchema(ddl.SchemaOptions{Tables: o.Tables, TableName: o.TableName})
	if err != nil {
		return nil, usage.Wrap(err)
	}
	w := &workload{}
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
		w.names = append(w.names, s.Name)
		if t.Write {
			w.writes = append(w.writes, s.Name)
		}
		w.builtin = w.builtin || s.Builtin
	}
	if o.ReadOnly {
		if err := RefuseWrites(w.scenarios); err != nil {
			return nil, err
		}
	}
	return w, nil
}
