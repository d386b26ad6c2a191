package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	stdlog "log"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/ddl/load"
	"github.com/joinbench/joinbench/internal/segment"
	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/replay"
	"github.com/joinbench/joinbench/results"
)

// runCmd replays scenarios against the server and records every execution.
type runCmd struct {
	runFlags `embed:""`

	Format string `short:"f" enum:"text,json" default:"text" help:"Output format of the final summary on stdout: text or json."`
	JSON   bool   `hidden:"" aliasof:"format=json" help:"Print the final summary as JSON: --format json."`
}

// runFlags are the workload and how it is recorded: run's flags, which ab
// runs on each of its servers.
type runFlags struct {
	connFlags    `embed:""`
	corpusFlags  `embed:""`
	metricsFlags `embed:""`

	Scenario       []string `short:"s" sep:"none" group:"Selection" placeholder:"NAME=COUNT" help:"Execute scenario NAME COUNT times per event (repeatable; NAME alone means 1; COUNT 0 turns it off after --tags or --all)."`
	Tags           []string `sep:"," group:"Selection" placeholder:"TAG" help:"Enable (count 1) every scenario that has one of these tags; join tags with + to require each (left+hint). As list --tags shows them."`
	All            bool     `group:"Selection" help:"Enable every scenario (count 1)."`
	ReadOnly       bool     `group:"Selection" help:"Refuse to run any scenario with a statement that is not a plain read (DML, DDL, locking read, SELECT ... INTO, SET, CALL, LOCK TABLES ...): a usage error names its file:line and kind, before connecting. Statements then run in read-only transactions, so the server refuses a write no parse sees (a stored function that writes: error 1792)."`
	ImportedWrites bool     `group:"Selection" help:"Let the scenarios tagged imported (written by joinbench import --writes) that write run: without it they are refused as --read-only refuses writes."`

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
	Distribution   string        `default:"uniform" enum:"uniform,gaussian,pareto,zipf,hotspot" group:"Load" help:"Default distribution of the parameters that declare none: uniform, gaussian, pareto, zipf or hotspot (20% of the values get 80% of the draws)."`
	Action         []string      `sep:"none" group:"Actions" placeholder:"OFFSET@ENDPOINT: KIND ..." help:"At OFFSET into the measured phase, on ENDPOINT (a sandbox node name such as node2, a number from 1, host:port, or all: a rolling rsu, a crash of every node at once), run: $${action_kinds}. Repeatable; recorded in actions.parquet."`
	ActionsFile    []string      `type:"existingfile" group:"Actions" placeholder:"FILE" help:"Read --action specs from FILE, one per line (# comments). Repeatable."`
	Tables         int           `default:"1" group:"Schema" help:"Number of main tables that table(main) parameters choose from (as given to prepare)."`
	TableSize      int64         `default:"10000" group:"Schema" help:"Rows per table (as given to prepare): id parameters draw in 1..SIZE."`
	TableName      string        `default:"main" group:"Schema" help:"Prefix of the main tables (as given to prepare)."`
	Schema         string        `type:"existingfile" group:"Schema" placeholder:"FILE.sql" help:"Compile the scenarios' enum, set, id and table placeholders against the CREATE TABLE statements of this file instead of the built-in schema: a --corpus on your own tables (prepare is then not needed)."`
	Out            string        `default:"./results" type:"path" group:"Output" placeholder:"DIR" help:"Results folder: the run is written to DIR/run=<id>/."`
	RunID          string        `group:"Output" placeholder:"ID" help:"Run id (default: start time and a random suffix)."`
	Explain        string        `default:"json" enum:"json,analyze,off" group:"Output" help:"Capture plans: json (EXPLAIN FORMAT=JSON, plus tree where the server has it), analyze (also EXPLAIN ANALYZE, which executes the statement; never for writes) or off."`
	ExplainEvery   int64         `default:"10000" group:"Output" placeholder:"N" help:"Capture a scenario's plan again every N executions and report plan changes (0 = only at start)."`
	LiveResults    bool          `group:"Output" help:"Write the executions files as the run goes, each finished within a second and readable while the run is going, instead of a journal turned into Parquet when the run ends. Costs the client about 0.5 µs more CPU per statement while it is measured, and makes a file a second."`
	Checksum       bool          `group:"Output" help:"Store a checksum of every result set: the rows as a multiset, whatever their order (rows tying under an ORDER BY come back in any order)."`
	Work           string        `default:"sample" enum:"sample,during,off" group:"Output" help:"sample: record the work of some executions (rows examined per table, index lookups, pages, join buffer comparisons; writes: session status deltas) in work-<host>-<n>.parquet, which compare judges exactly with the same --seed (see docs/work.md); sampled reads are run again under ANALYZE after the measured phase, with the values they ran with, so that no measured execution shares the server with a sample; during: the same, but while the workload runs (the samples compete with it: heavy joins measured slower); off: none."`
	WorkBudget     fraction      `default:"1%" group:"Output" placeholder:"SHARE" help:"Most of each scenario's execution time that work samples may cost (sampled reads are run again under ANALYZE on another connection, after the measured phase), as 1% or 0.01. The first 4 events of every thread are sampled whatever it is."`
	ReportInterval time.Duration `default:"1s" group:"Output" help:"Print progress and sample server counters this often (0 = never)."`
	Segment        string        `group:"Scale-out" placeholder:"I/N" help:"Be segment I of N (from 1) of one run made by N clients with the same options and --run-id: --threads, --events and --rate are shared out, the segments start together (a barrier in the database under test) and write into one run folder. Default from JOB_COMPLETION_INDEX (from 0) and JOINBENCH_SEGMENTS when both are set. See docs/scale-out.md."`
	BarrierTimeout time.Duration `default:"10m" group:"Scale-out" help:"With --segment: how long to wait for the other segments before failing."`
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
server restart does not end the run. A statement with no reply, not even
to KILL QUERY (a hung server, a cut network), has its connection closed
and is recorded as a timeout, so the run ends whatever the server does:
statements still running at the end of --time get 5s (or --query-timeout,
when longer), then KILL QUERY and 3s; they are recorded as cut at the end
(cut_at_end, with how long they had run), counted apart and kept out of
latencies and errors. Ctrl-C (or SIGTERM) stops the run the same way at
once, writes what was recorded and prints the summary; a second one exits
at once.

Statements are executed as prepared statements (--ps-mode auto), sent on
the connection's socket directly and their rows counted, decoded only for
--checksum (--exec-path driver sends them through the driver). Values
are those of --seed: the same seed, threads and counts replay the same
statements.

With no server named, a throwaway sandbox server is started and the
tables are prepared in it first (--tables, --table-size, --seed).

Actions (--action, --actions-file) run during the measured phase, each on
its own connection or process, at OFFSET from its start: a schema change by
TOI (sql), by RSU on one node or on every node in turn (rsu on all), or by
an external tool (exec); a DELETE or UPDATE in chunks, each its own
transaction, by primary-key ranges or LIMIT; a fault on a sandbox node:
SIGSTOP for a while (pause), LOCK TABLES ... WRITE held (lock: a slow
applier), a clean stop and start (restart), a node made PERCENT slower on
CPU or disk, relative to its own rate measured first (slow), SIGKILL and
recovery as an operator does it, of one node or of all at once (crash,
each node's row saying when it was writable and Synced again, and whether
by bootstrap, IST or SST). Each is printed when it starts
and ends and recorded in actions.parquet; a failing one does not stop the
run; one still running at the end is stopped (its statement killed, its
fault undone). The summary gives, per action and endpoint, the longest
stretch without a successful write and the worst latency in it. An offset
at or past --time, or an unknown endpoint, is a usage error.

With --read-only only plain reads run: every statement of every enabled
scenario is classified from its parse, and a scenario with DML, DDL (DROP,
TRUNCATE ...), a locking read (FOR UPDATE, FOR SHARE, LOCK IN SHARE MODE),
SELECT ... INTO, SET, CALL, LOCK TABLES, a transaction statement or a
statement the parser cannot read is refused before anything is connected
to or written; the statements that run, and their work samples, run in
read-only transactions (SET SESSION TRANSACTION READ ONLY), so that the
server refuses a write the parse cannot see, such as a stored function
called by a SELECT (error 1792). Without it, run.json lists such
scenarios with their kinds (write_scenarios, write_kinds).

Exit status: 0 when the run completed, 1 when it failed (a results file
could not be written, every scenario was disabled), 2 on a usage error,
130 when it was interrupted (what was recorded is kept).

Examples:
  joinbench run --dsn 'root@tcp(127.0.0.1:3306)/joinbench' --all --time 60s --threads 8
  joinbench run -s simple_inner_pk=2 -s index_updates --events 1000 --rate 50
  joinbench run --tags simple --read-only --format json > summary.json
  joinbench run --sandbox g -s index_updates -t 6 --time 60s \
    --action '10s@node2: sql: ALTER TABLE main1 ADD INDEX k_year (year_field)' \
    --action '30s@node1: chunked 5000: DELETE FROM main1 WHERE id > 90000' \
    --action '45s@node3: lock 5s: main1'
  joinbench run --sandbox g --all -t 6 --time 90s \
    --action '10s@all: rsu: ALTER TABLE main1 ADD INDEX k_year (year_field)'
  joinbench run --sandbox g -s index_updates -t 6 --time 3m \
    --action '30s@node3: slow 21% io for 60s' --action '2m@all: crash'
  joinbench run --sandbox g --all -t 6 --time 5m --action '10s@node1: exec: pt-online-schema-change --alter "ADD INDEX k_year (year_field)" h={host},P={port},u={user},D={database},t=main1 --execute'`
}

func (c *runCmd) Run(ctx context.Context, cl *cli) error {
	o, err := c.segmentOptions(cl)
	if err != nil {
		return err
	}
	metrics, err := c.metricsFlags.serve(&o, logWriter(cl))
	if err != nil {
		return err
	}
	return metrics.close(ctx, runOnce(ctx, &c.connFlags, o, logWriter(cl), c.show))
}

// segmentOptions are the run's options with the segment this client is
// (--segment, or the environment's; the whole run when neither says).
func (c *runFlags) segmentOptions(cl *cli) (replay.Options, error) {
	o := c.options(cl)
	seg, err := segment.Resolve(c.Segment, nil)
	if err != nil {
		return o, usage.Wrap(err)
	}
	o.Segment, o.BarrierTimeout = seg, c.BarrierTimeout
	return o, nil
}

// options maps the flags to the run's options.
func (c *runFlags) options(cl *cli) replay.Options {
	o := replay.Options{
		RunOptions: results.RunOptions{
			Scenario: c.Scenario, Tags: c.Tags, All: c.All, ReadOnly: c.ReadOnly, CorpusDirs: c.Corpus, NoBuiltin: c.NoBuiltin,
			Threads: c.Threads, Events: c.Events, Time: results.Duration(c.Time), Warmup: results.Duration(c.Warmup),
			Rate: c.Rate, SkipTrx: c.SkipTrx, PsMode: results.PsMode(c.PsMode), ExecPath: results.ExecPath(c.ExecPath), Seed: c.Seed,
			IgnoreErrors: c.IgnoreErrors, Reconnect: c.Reconnect, QueryTimeout: results.Duration(c.QueryTimeout),
			Distribution: c.Distribution, Tables: c.Tables, TableSize: c.TableSize, TableName: c.TableName,
			Explain: results.Explain(c.Explain), ExplainEvery: c.ExplainEvery, Checksum: c.Checksum,
			LiveResults: c.LiveResults, Work: c.Work, WorkBudget: float64(c.WorkBudget),
		},
		Actions: c.Action, ActionFiles: c.ActionsFile,
		Override: c.Override, SchemaFile: c.Schema, ImportedWrites: c.ImportedWrites, PollerIO: c.PollerIO, Out: c.Out, RunID: c.RunID, ToolVersion: version,
		ReportInterval: c.ReportInterval, Log: logWriter(cl),
	}
	if !cl.Quiet {
		o.Progress = os.Stderr
	}
	return o
}

// show prints a run's summary on stdout, then where its results are.
func (c *runCmd) show(out *replay.Outcome, log io.Writer) error {
	if c.Format == "json" {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out.Summary); err != nil {
			return err
		}
	} else if err := out.Summary.WriteText(os.Stdout); err != nil {
		return err
	}
	fmt.Fprintf(log, "results: %s\n", filepath.Clean(out.Dir))
	return nil
}

var silenceDriverLog sync.Once

// runOnce makes one run of o on the server the connection flags name: with
// none, a throwaway sandbox whose tables are prepared first. show gets the
// outcome while the server is still up (a throwaway one is stopped after),
// unless nothing ran; the run's own error is returned after it.
func runOnce(ctx context.Context, cf *connFlags, o replay.Options, log io.Writer, show func(*replay.Outcome, io.Writer) error) error {
	s, err := replay.NewSession(o)
	if err != nil {
		return err
	}
	// The engine silences its own connections' driver logs; these are the
	// target's (checks, sandbox). Once: ab in lockstep makes two runs at
	// once, and the logger is the driver's global.
	silenceDriverLog.Do(func() { _ = mysql.SetLogger(stdlog.New(io.Discard, "", 0)) })
	tgt, err := cf.connect(ctx, log)
	if err != nil {
		return err
	}
	defer tgt.Close()
	defer s.Close()
	if err := s.Open(ctx, tgt.Endpoints, tgt.Nodes); err != nil {
		return err
	}
	if err := readyTables(ctx, tgt, s, o, log); err != nil {
		return err
	}
	if s.UsesBuiltin() {
		d, found := readDataset(ctx, s.DB(), log)
		warnDatasetTerms(d, o, log)
		if found != nil {
			d.Contents = readContents(ctx, s.DB(), found, log)
		}
		s.RecordDataset(d)
		if found != nil {
			// A run that wrote says what it left, for the next run to be
			// told apart from this one's start.
			s.DigestAtEnd(func(ctx context.Context) map[string]results.TableContents {
				return readContents(ctx, s.DB(), found, log)
			})
		}
	}
	out, runErr := s.Run(ctx)
	if out == nil {
		return runErr
	}
	if err := show(out, log); err != nil {
		return err
	}
	return runErr
}

// readyTables prepares the tables in a throwaway server, or checks that a
// named server has those the built-in scenarios use.
func readyTables(ctx context.Context, tgt *server.Target, s *replay.Session, o replay.Options, log io.Writer) error {
	schema := ddl.SchemaOptions{Tables: o.Tables, TableName: o.TableName}
	if tgt.Sandbox != nil && tgt.Sandbox.Name == "" {
		fmt.Fprintf(log, "preparing %d main table(s) of %d rows in the throwaway server\n", o.Tables, o.TableSize)
		dist, err := ddl.ParseDistribution("uniform")
		if err != nil {
			return err
		}
		po := load.PrepareOptions{Schema: schema, Gen: ddl.GenOptions{Seed: o.Seed, TableSize: o.TableSize, Distribution: dist},
			Threads: 2, ChunkSize: 10000, Recreate: true}
		_, err = load.Prepare(ctx, s.DB(), po)
		return err
	}
	if !s.UsesBuiltin() {
		return nil
	}
	// Bounded as the run's other questions before it starts: a server
	// that stops answering here is reported, not waited for.
	mctx, cancel := context.WithTimeout(ctx, datasetTimeout)
	defer cancel()
	missing, err := load.MissingTables(mctx, s.DB(), schema.TableNames())
	if err != nil {
		return err
	}
	if len(missing) > 0 {
		return usage.Errorf("tables missing in %s on %s: %s (run joinbench prepare with the same --tables and --table-name)",
			tgt.Database, tgt.Endpoints[0].Name, strings.Join(missing, ", "))
	}
	return nil
}

// warnDatasetTerms says when the run draws ids on other terms than the
// data was prepared with: ids beyond the prepared rows find nothing, and
// a smaller range is a hotter workload than the flags suggest. A warning,
// not a refusal: a run on a subset can be what the user wants. (The seeds
// of data and parameters are independent: they need not match.)
func warnDatasetTerms(d *results.Dataset, o replay.Options, log io.Writer) {
	if d == nil {
		return
	}
	if d.TableSize != o.TableSize {
		fmt.Fprintf(log, "warning: the tables were prepared with --table-size %d; this run draws ids in 1..%d (give --table-size %d to match)\n",
			d.TableSize, o.TableSize, d.TableSize)
	}
}

// datasetTimeout bounds reading the dataset: a server that does not
// answer is the run's to report, not a wait.
const datasetTimeout = 10 * time.Second

// contentsTimeout bounds the digest of the tables' contents: whole tables
// of up to a million rows each, ranges beyond (load.Contents).
const contentsTimeout = 2 * time.Minute

// readContents digests the dataset's tables as they are now, as run.json
// records them; nil when that failed (said on log).
func readContents(ctx context.Context, db *sql.DB, d *load.Dataset, log io.Writer) map[string]results.TableContents {
	ctx, cancel := context.WithTimeout(ctx, contentsTimeout)
	defer cancel()
	c, err := load.Contents(ctx, db, d)
	if err != nil {
		fmt.Fprintf(log, "warning: %v: run.json records no digest of the tables' contents\n", err)
		return nil
	}
	out := make(map[string]results.TableContents, len(c))
	for t, tc := range c {
		out[t] = results.TableContents{Rows: tc.Rows, Checksum: tc.Checksum, Ranges: tc.Ranges, Excluded: tc.Excluded, Indexes: tc.Indexes}
	}
	return out
}

// readDataset is the dataset prepare recorded on the server, as run.json
// records it (without the digest of its contents: readContents); nil when
// there is none, or it cannot be read (said on log). found is the record
// as read.
func readDataset(ctx context.Context, db *sql.DB, log io.Writer) (_ *results.Dataset, found *load.Dataset) {
	rctx, cancel := context.WithTimeout(ctx, datasetTimeout)
	defer cancel()
	d, err := load.ReadDataset(rctx, db)
	if err != nil {
		fmt.Fprintf(log, "warning: %v: run.json records no dataset\n", err)
	}
	if d == nil {
		return nil, nil
	}
	return &results.Dataset{
		Tables: d.Tables, TableName: d.TableName, TableSize: d.TableSize, Seed: d.Seed, Distribution: d.Distribution,
		Engine: d.Engine, TableOptions: d.TableOptions, ClientIDs: d.ClientIDs, NoPrimaryKey: d.NoPrimaryKey,
		IndexesDuringLoad: d.IndexesDuringLoad, Schema: d.Schema, Generated: d.DatasetKey.Rows,
		Rows: d.Rows, Sample: d.Sample, Prepared: d.Recorded,
	}, d
}
