package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/ddl/load"
	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/replay"
	"github.com/joinbench/joinbench/replay/results"
	"github.com/joinbench/joinbench/replay/status"
)

// runCmd replays scenarios against the server and records every execution.
type runCmd struct {
	connFlags   `embed:""`
	corpusFlags `embed:""`

	Scenario []string `short:"s" sep:"none" group:"Selection" placeholder:"NAME=COUNT" help:"Execute scenario NAME COUNT times per event (repeatable; NAME alone means 1; COUNT 0 turns it off after --tags or --all)."`
	Tags     []string `group:"Selection" placeholder:"TAG,..." help:"Enable (count 1) every scenario that has one of these tags."`
	All      bool     `group:"Selection" help:"Enable every scenario (count 1)."`
	ReadOnly bool     `group:"Selection" help:"Refuse to run scenarios that write (a usage error names them)."`

	Threads        int           `short:"t" default:"1" group:"Load" help:"Worker threads, each with its own connection; spread round-robin over the endpoints."`
	Events         int64         `default:"0" group:"Load" help:"Stop after this many events over all threads (0 = no limit). An event is one transaction executing every enabled scenario COUNT times."`
	Time           time.Duration `default:"0s" group:"Load" help:"Stop starting events after this long (0 = no limit). With neither --events nor --time the run lasts 10s."`
	Warmup         time.Duration `default:"0s" group:"Load" help:"Run the workload this long first without recording it."`
	Rate           float64       `default:"0" group:"Load" placeholder:"EVENTS/S" help:"Start events at this fixed rate over all threads (open loop); latency is then measured from each event's intended start. 0 = as fast as possible."`
	SkipTrx        bool          `group:"Load" help:"Do not wrap events in BEGIN/COMMIT (statements autocommit)."`
	PsMode         string        `default:"auto" enum:"auto,disable" group:"Load" help:"auto: prepare every statement once per connection; disable: send text with values interpolated by the client."`
	ExecPath       string        `default:"direct" enum:"direct,driver" group:"Load" help:"direct: once the driver has connected, prepared statements are sent on the socket and their rows counted, decoded only for --checksum (least client overhead); driver: everything through the Go MySQL driver, for a server the direct path does not handle. --ps-mode disable, TLS and compression always use the driver; checksums are the same either way."`
	IgnoreErrors   string        `default:"1213,1205" group:"Load" placeholder:"CODES" help:"Server errors retried (after ROLLBACK and BEGIN in a transaction) and counted, comma-separated; 'none' for none."`
	Reconnect      int64         `default:"0" group:"Load" placeholder:"N" help:"Reopen each thread's connection after every N events (0 = never)."`
	QueryTimeout   time.Duration `default:"0s" group:"Load" help:"Stop a statement running longer than this with KILL QUERY from another connection; it is recorded as an error (0 = none)."`
	Seed           uint64        `default:"1" group:"Load" help:"Seed of the parameter values: the same seed replays the same values."`
	Distribution   string        `default:"uniform" enum:"uniform,gaussian,pareto,zipf" group:"Load" help:"Default distribution of the parameters that declare none."`
	Tables         int           `default:"1" group:"Schema" help:"Number of main tables that table(main) parameters choose from (as given to prepare)."`
	TableSize      int64         `default:"10000" group:"Schema" help:"Rows per table (as given to prepare): id parameters draw in 1..SIZE."`
	TableName      string        `default:"main" group:"Schema" help:"Prefix of the main tables (as given to prepare)."`
	Out            string        `default:"./results" type:"path" group:"Output" placeholder:"DIR" help:"Results folder: the run is written to DIR/run=<id>/."`
	RunID          string        `group:"Output" placeholder:"ID" help:"Run id (default: start time and a random suffix)."`
	Explain        string        `default:"json" enum:"json,analyze,off" group:"Output" help:"Capture plans: json (EXPLAIN FORMAT=JSON, plus tree where the server has it), analyze (also EXPLAIN ANALYZE, which executes the statement; never for writes) or off."`
	ExplainEvery   int64         `default:"10000" group:"Output" placeholder:"N" help:"Capture a scenario's plan again every N executions and report plan changes (0 = only at start)."`
	Checksum       bool          `group:"Output" help:"Store a checksum of every result set: the rows as a multiset, whatever their order (rows tying under an ORDER BY come back in any order)."`
	ReportInterval time.Duration `default:"1s" group:"Output" help:"Print progress and sample server counters this often (0 = never)."`
	JSON           bool          `name:"json" group:"Output" help:"Print the final summary as JSON on stdout."`
	// PollerIO keeps Go's network poller for the workers' sockets instead
	// of blocking reads (for comparing the two).
	PollerIO bool `hidden:"" help:"Use Go's network poller for the workers' sockets instead of blocking socket reads."`
}

func (c *runCmd) Help() string {
	return `Replays the chosen scenarios with --threads workers, each holding one
connection, and records every execution in Parquet: the run's folder
DIR/run=<id>/ gets executions-<host>-<n>.parquet (one row per statement
executed: latency, rows, error, plan hash, parameter values), plans.parquet
(each distinct EXPLAIN plan once), status-<host>-<n>.parquet (server
counters per report interval) and run.json (server, settings, options).

An event is one transaction (BEGIN ... COMMIT unless --skip-trx) that
executes every enabled scenario COUNT times. The run ends after --events
events or --time, whichever comes first. To measure parallel execution, set
--events equal to --threads with each count at 1.

Errors: deadlocks and lock wait timeouts (--ignore-errors) are retried and
counted; other server errors are recorded with their SQL state; a scenario
that fails 20 times in a row without ever succeeding is disabled. Lost
connections are recorded and the workers reconnect with backoff, so a
server restart does not end the run. Ctrl-C stops the run, writes what was
recorded and prints the summary.

Statements are executed as prepared statements (--ps-mode auto), sent on
the connection's socket directly and their rows counted, decoded only for
--checksum (--exec-path driver sends them through the driver). Values
are those of --seed: the same seed, threads and counts replay the same
statements.

With no server named, a throwaway sandbox server is started and the
tables are prepared in it first (--tables, --table-size, --seed).

Examples:
  joinbench run --dsn 'root@tcp(127.0.0.1:3306)/joinbench' --all --time 60s --threads 8
  joinbench run -s simple_inner_pk=2 -s index_updates --events 1000 --rate 50
  joinbench run --tags simple --read-only --json > summary.json`
}

// selection returns the enabled scenarios and their counts.
func (c *runCmd) retryErrors() ([]uint16, error) {
	s := strings.TrimSpace(c.IgnoreErrors)
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

func (c *runCmd) Run(ctx context.Context, cl *cli) error {
	logw := logWriter(cl)
	if c.Threads < 1 {
		return usage.Errorf("--threads must be at least 1, got %d", c.Threads)
	}
	if c.Tables < 1 || c.TableSize < 1 {
		return usage.Errorf("--tables and --table-size must be at least 1")
	}
	retry, err := c.retryErrors()
	if err != nil {
		return err
	}
	duration := c.Time
	if duration == 0 && c.Events == 0 {
		duration = 10 * time.Second
	}

	// Scenarios, compiled against the built-in schema.
	cp, err := c.load()
	if err != nil {
		return err
	}
	counts, err := cp.Select(corpus.Selection{All: c.All, Tags: c.Tags, Specs: c.Scenario})
	if err != nil {
		return err
	}
	schema, err := ddl.BuiltinSchema(ddl.SchemaOptions{Tables: c.Tables, TableName: c.TableName})
	if err != nil {
		return usage.Wrap(err)
	}
	var scens []*replay.Scenario
	var names, writes []string
	builtin := false
	for _, s := range cp.Scenarios() {
		n := counts[s.Name]
		if n == 0 {
			continue
		}
		t, err := corpus.Compile(s, schema, corpus.CompileOptions{
			Tables: c.Tables, TableSize: c.TableSize, Distribution: c.Distribution, TableName: c.TableName})
		if err != nil {
			return err
		}
		scens = append(scens, replay.FromTemplate(t, n))
		names = append(names, s.Name)
		if t.Write {
			writes = append(writes, s.Name)
		}
		builtin = builtin || s.Builtin
	}
	if c.ReadOnly {
		if err := replay.RefuseWrites(scens); err != nil {
			return err
		}
	}

	// Servers. The engine reports lost connections itself, once per
	// endpoint; the driver's own log lines would repeat them per thread.
	_ = mysql.SetLogger(log.New(io.Discard, "", 0))
	tgt, err := c.connect(ctx, logw)
	if err != nil {
		return err
	}
	defer tgt.Close()
	var dbs []*sql.DB
	defer func() {
		for _, db := range dbs {
			db.Close()
		}
	}()
	var direct []bool // per endpoint: blocking sockets the workers share (replay.Endpoint.Direct)
	for _, ep := range tgt.Endpoints {
		db, b, err := replay.Open(ctx, ep, replay.OpenOptions{
			Prepared: c.PsMode != "disable", PollerIO: c.PollerIO, MaxIdle: c.Threads/len(tgt.Endpoints) + 4})
		if err != nil {
			return err
		}
		dbs = append(dbs, db)
		direct = append(direct, b)
	}
	if tgt.Sandbox != nil && tgt.Sandbox.Name == "" {
		fmt.Fprintf(logw, "preparing %d main table(s) of %d rows in the throwaway server\n", c.Tables, c.TableSize)
		dist, err := ddl.ParseDistribution("uniform")
		if err != nil {
			return err
		}
		if _, err := load.Prepare(ctx, dbs[0], load.PrepareOptions{
			Schema:  ddl.SchemaOptions{Tables: c.Tables, TableName: c.TableName},
			Gen:     ddl.GenOptions{Seed: c.Seed, TableSize: c.TableSize, Distribution: dist},
			Threads: 2, ChunkSize: 10000, Recreate: true,
		}); err != nil {
			return err
		}
	} else if builtin {
		opts := ddl.SchemaOptions{Tables: c.Tables, TableName: c.TableName}
		missing, err := load.MissingTables(ctx, dbs[0], opts.TableNames())
		if err != nil {
			return err
		}
		if len(missing) > 0 {
			return usage.Errorf("tables missing in %s on %s: %s (run joinbench prepare with the same --tables and --table-name)",
				tgt.Database, tgt.Endpoints[0].Name, strings.Join(missing, ", "))
		}
	}
	fl, err := server.DetectFlavor(ctx, dbs[0])
	if err != nil {
		return err
	}
	vars, err := replay.ReadServerVariables(ctx, dbs[0])
	if err != nil {
		fmt.Fprintf(logw, "warning: %v\n", err)
	}

	// Results folder and run.json.
	host, _ := os.Hostname()
	runID := c.RunID
	if runID == "" {
		runID = results.NewRunID(time.Now())
	}
	dir, err := results.Create(c.Out, runID, host)
	if err != nil {
		return usage.Wrap(err)
	}
	defer dir.Close()
	var endpoints []string
	var eps []replay.Endpoint
	for i, ep := range tgt.Endpoints {
		endpoints = append(endpoints, ep.Name)
		var sampler replay.StatusSampler
		if c.ReportInterval > 0 {
			sampler = status.NewSampler(dbs[i], ep.Name, runID, fl.Galera)
		}
		eps = append(eps, replay.Endpoint{Name: ep.Name, DB: dbs[i], Sampler: sampler, Direct: direct[i]})
	}
	run := &results.Run{
		RunID: runID, ToolVersion: version, ServerVersion: fl.Version, Flavor: fl.Name,
		Endpoints: endpoints, ClientHost: host, ServerVars: vars, Options: c.options(duration),
		Scenarios: names, WriteScenarios: writes, Start: time.Now(),
	}
	if err := dir.WriteRun(run); err != nil {
		return err
	}
	fmt.Fprintf(logw, "run %s: %d scenario(s), %d thread(s) on %s (%s %s), results in %s\n",
		runID, len(scens), c.Threads, strings.Join(endpoints, ", "), fl.Name, fl.Version, dir.Path())

	cfg := replay.Config{
		RunID: runID, ClientHost: host, Endpoints: eps, Scenarios: scens,
		Threads: c.Threads, Events: c.Events, Duration: duration, Warmup: c.Warmup, Rate: c.Rate,
		SkipTrx: c.SkipTrx, Prepared: c.PsMode != "disable", DriverPath: c.ExecPath == "driver", RetryErrors: retry,
		Reconnect: c.Reconnect, QueryTimeout: c.QueryTimeout, Seed: c.Seed,
		ExplainEvery: c.ExplainEvery, Sink: replay.ResultsSink(dir),
		ReportInterval: c.ReportInterval, Log: logw,
	}
	if !cl.Quiet {
		cfg.Progress = os.Stderr
	}
	switch c.Explain {
	case "json":
		cfg.Explain, cfg.Explainer = replay.ExplainJSON, replay.NewExplainer(fl)
	case "analyze":
		cfg.Explain, cfg.Explainer = replay.ExplainAnalyze, replay.NewExplainer(fl)
	}
	if c.Checksum {
		cfg.Checksum = replay.NewChecksum
	}
	if slices.Contains(direct, true) {
		// Spare Ps keep the runtime from taking Ps back from workers
		// blocked in reads (see replay.ProcsForBlockingIO).
		replay.ProcsForBlockingIO(c.Threads)
	}
	res, runErr := replay.Run(ctx, cfg)
	if res == nil {
		return runErr
	}
	run.Start, run.End = res.Start, res.End
	run.Interrupted = res.Summary.Interrupted
	run.Executions, run.Errors = res.Summary.Executions, res.Summary.Errors
	if err := dir.WriteRun(run); err != nil && runErr == nil {
		runErr = err
	}
	if err := dir.Close(); err != nil && runErr == nil {
		runErr = fmt.Errorf("close results: %w", err)
	}
	if c.JSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res.Summary); err != nil {
			return err
		}
	} else if err := res.Summary.WriteText(os.Stdout); err != nil {
		return err
	}
	fmt.Fprintf(logw, "results: %s\n", filepath.Clean(dir.Path()))
	return runErr
}

// options are the run's settings stored in run.json (no connection
// details: those may hold a password).
func (c *runCmd) options(duration time.Duration) map[string]any {
	scen := append([]string(nil), c.Scenario...)
	sort.Strings(scen)
	return map[string]any{
		"scenario": scen, "tags": c.Tags, "all": c.All, "read_only": c.ReadOnly,
		"threads": c.Threads, "events": c.Events, "time": duration.String(), "warmup": c.Warmup.String(),
		"rate": c.Rate, "skip_trx": c.SkipTrx, "ps_mode": c.PsMode, "exec_path": c.ExecPath, "ignore_errors": c.IgnoreErrors,
		"reconnect": c.Reconnect, "query_timeout": c.QueryTimeout.String(), "seed": c.Seed,
		"distribution": c.Distribution, "tables": c.Tables, "table_size": c.TableSize, "table_name": c.TableName,
		"explain": c.Explain, "explain_every": c.ExplainEvery, "checksum": c.Checksum,
		"corpus": c.Corpus, "no_builtin": c.NoBuiltin,
	}
}
