package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/term"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/ddl/load"
	"github.com/joinbench/joinbench/internal/segment"
	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/replay"
)

// schemaFlags name the built-in tables; prepare, warmup and cleanup share them.
type schemaFlags struct {
	Tables    int    `default:"1" group:"Schema" help:"Number of main tables (main1..mainN)."`
	TableName string `default:"main" group:"Schema" help:"Prefix of the main tables: PREFIX1..PREFIXN."`
}

type prepareCmd struct {
	connFlags `embed:""`
	schemaFlags

	TableSize    int64  `default:"10000" group:"Schema" help:"Rows in every table (main and level); ids are 1..ROWS."`
	Engine       string `default:"InnoDB" group:"Schema" help:"Storage engine of the tables."`
	TableOptions string `default:"CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC" group:"Schema" placeholder:"OPTIONS" help:"Table options after ENGINE=...; '-' for none."`
	AutoInc      bool   `default:"true" negatable:"" group:"Schema" help:"Declare id AUTO_INCREMENT; --no-auto-inc declares plain client-supplied ids. Rows are identical either way."`
	NoPrimaryKey bool   `group:"Schema" help:"Create the tables without a primary key (implies --no-auto-inc)."`

	Seed         uint64 `default:"1" group:"Data" help:"Seed of the generator: the same seed and sizes give the same rows on every server."`
	Distribution string `default:"uniform" enum:"uniform,gaussian,pareto,zipf" group:"Data" help:"Distribution of the id-like columns (l1_id..l5_id, parent_id): uniform, gaussian, pareto or zipf."`

	Threads      int    `short:"t" default:"2" group:"Load" help:"Connections loading at once: tables load in parallel and large tables in parallel row ranges."`
	ChunkSize    int    `default:"10000" group:"Load" help:"Rows per statement and per commit."`
	DeferIndexes bool   `default:"true" negatable:"" group:"Load" help:"Create each table with its primary key only and add its secondary indexes in one ALTER TABLE once its rows are in (a sorted build, about twice as fast on InnoDB); --no-defer-indexes creates them first and fills them row by row."`
	LoadMethod   string `default:"auto" enum:"auto,load-data,insert" group:"Load" help:"auto: LOAD DATA LOCAL INFILE streamed from the generator when the server has local_infile=ON, else batched INSERTs; load-data or insert to choose."`
	SkipBinlog   bool   `group:"Load" help:"SET sql_log_bin=0 in the load sessions so replicas do not get the rows (needs the privilege)."`
	Recreate     bool   `group:"Load" help:"Drop the tables first when they exist (without it an existing table is an error)."`
	FromTable    string `group:"Load" placeholder:"TABLE" help:"Resume an interrupted load at this table (tables before it are kept)."`
	FromRow      int64  `group:"Load" placeholder:"ID" help:"With --from-table: the first row id to load again (default 1)."`
	NoAnalyze    bool   `group:"Load" help:"Skip the final ANALYZE TABLE."`
	Segment      string `group:"Load" placeholder:"I/N" help:"Load segment I of N (from 1) of every table's rows, with N-1 other clients loading the rest; the last to finish adds the indexes and analyses. Default from JOB_COMPLETION_INDEX (from 0) and JOINBENCH_SEGMENTS when both are set. See docs/scale-out.md."`

	Snapshot    bool `group:"Snapshot" help:"Restore the tables from a snapshot of this dataset taken on a server of the same version and file format, in seconds; without one, load them and save a snapshot. The server's data directory must be on this machine. See docs/snapshots.md."`
	snapshotDir `embed:""`

	DumpCSV string `hidden:"" placeholder:"DIR" help:"Write the rows as LOAD DATA files DIR/<table>.tsv and exit (for measuring the server's raw load speed)."`
}

func (c *prepareCmd) Help() string {
	return `Creates the workload's tables, main1..mainN (the fact tables) and
level1..level5 (the dimension tables), and fills every one with
--table-size generated rows, then runs ANALYZE TABLE.

Rows are generated deterministically from --seed: each row is drawn from
its own random stream keyed by (seed, table, row id), so two servers loaded
with the same seed and sizes hold byte-identical rows whatever --threads
and --chunk-size were. The "load time" columns (datetime_field,
timestamp_field, time_accessed) hold one fixed instant derived from the
seed, not NOW(), for the same reason; loads run with time_zone '+00:00'.

Rows are streamed to the server with LOAD DATA LOCAL INFILE (no file is
written) in chunks of --chunk-size rows, each committed on its own. Each
table is created with its primary key only and gets its secondary indexes
by one ALTER TABLE as soon as its rows are in, while the other sessions keep
loading (--no-defer-indexes: created with every index). Load sessions set
foreign_key_checks=0, unique_checks=0 with --no-defer-indexes, and
sql_log_bin=0 only with --skip-binlog.

With --snapshot, the first prepare of a dataset saves a snapshot of its
tables' files (FLUSH TABLES ... FOR EXPORT) under --snapshot-dir, and the
next prepare of the same dataset (seed, sizes, distribution, schema
options) on a server of the same version, page size, row format and
checksum algorithm restores it (ALTER TABLE ... DISCARD/IMPORT TABLESPACE,
then ANALYZE TABLE) instead of loading. A snapshot taken on another server
is not used: prepare says why, loads, and saves one for this server.

Ctrl-C stops cleanly after the chunks in flight and prints the
--from-table/--from-row that resumes the load (under --snapshot: without
--snapshot, as a resumed load saves no snapshot; or --recreate to load
afresh and save one).`
}

func (c *prepareCmd) schemaOptions() ddl.SchemaOptions {
	return ddl.SchemaOptions{
		Tables: c.Tables, TableName: c.TableName, Engine: c.Engine, TableOptions: c.TableOptions,
		ClientIDs: !c.AutoInc, NoPrimaryKey: c.NoPrimaryKey,
	}
}

func (c *prepareCmd) Run(ctx context.Context, cl *cli) error {
	opts, err := c.loadOptions()
	if err != nil {
		return err
	}
	if c.DumpCSV != "" {
		return c.dumpCSV(opts.Gen)
	}
	logw := logWriter(cl)
	tgt, db, err := openTarget(ctx, &c.connFlags, logw, c.Threads+2)
	if err != nil {
		return err
	}
	defer tgt.Close()
	defer db.Close()
	if c.Snapshot {
		if opts.Snapshots, err = c.store(); err != nil {
			return err
		}
	}
	opts.Progress = loadProgress(cl)
	opts.Log = func(s string) { fmt.Fprintln(logw, s) }
	res, err := load.Prepare(ctx, db, opts)
	if err != nil {
		return err
	}
	fmt.Fprintln(logw, prepareOutcome(res, opts.Segment, tgt))
	return nil
}

// loadOptions checks the flags and turns them into the loader's options
// (without the server-side parts: snapshots, progress, log).
func (c *prepareCmd) loadOptions() (load.PrepareOptions, error) {
	if c.Tables < 1 || c.Tables > replay.MaxTables {
		return load.PrepareOptions{}, usage.Errorf("--tables must be between 1 and %d, got %d", replay.MaxTables, c.Tables)
	}
	if c.TableSize < 1 {
		return load.PrepareOptions{}, usage.Errorf("--table-size must be at least 1, got %d", c.TableSize)
	}
	dist, err := ddl.ParseDistribution(c.Distribution)
	if err != nil {
		return load.PrepareOptions{}, usage.Wrap(err)
	}
	method, err := load.ParseMethod(c.LoadMethod)
	if err != nil {
		return load.PrepareOptions{}, usage.Wrap(err)
	}
	seg, err := segment.Resolve(c.Segment, nil)
	if err != nil {
		return load.PrepareOptions{}, usage.Wrap(err)
	}
	return load.PrepareOptions{
		Schema: c.schemaOptions(), Gen: ddl.GenOptions{Seed: c.Seed, TableSize: c.TableSize, Distribution: dist},
		Threads: c.Threads, ChunkSize: c.ChunkSize, IndexesDuringLoad: !c.DeferIndexes,
		Recreate: c.Recreate, FromTable: c.FromTable, FromRow: c.FromRow,
		Method: method, SkipBinlog: c.SkipBinlog, NoAnalyze: c.NoAnalyze,
		Segment: seg,
	}, nil
}

// dumpCSV writes the rows as LOAD DATA files and prints their paths.
func (c *prepareCmd) dumpCSV(gen ddl.GenOptions) error {
	files, err := ddl.DumpTSV(c.DumpCSV, c.schemaOptions(), gen)
	if err != nil {
		return usage.Wrap(err)
	}
	for _, f := range files {
		fmt.Println(f)
	}
	return nil
}

// loadProgress is a bar on a terminal, a line every 10 s otherwise, nothing
// with --quiet.
func loadProgress(cl *cli) load.Progress {
	switch {
	case cl.Quiet:
		return nil
	case term.IsTerminal(int(os.Stderr.Fd())):
		return load.NewBarProgress(os.Stderr)
	default:
		return load.NewLogProgress(os.Stderr, 10*time.Second)
	}
}

// prepareOutcome is the line that says what a prepare did: a segment's
// share, a restore from a snapshot or a load.
func prepareOutcome(res *load.PrepareResult, seg segment.Segment, tgt *server.Target) string {
	where := tgt.Endpoints[0].Name
	switch {
	case seg.Split():
		last := ""
		if res.Finished {
			last = "; it was the last and finished the prepare"
		}
		return fmt.Sprintf("segment %s loaded its %d rows in %s on %s (%.0f rows/s, %s)%s",
			seg, res.Rows, res.Duration.Round(time.Millisecond), where, res.RowsPerSecond(), res.Method, last)
	case res.Restored != "":
		return fmt.Sprintf("restored %d tables in %s on %s from snapshot %s: %d rows in %s",
			len(res.Tables), tgt.Database, where, res.Restored, res.Rows, res.Duration.Round(time.Millisecond))
	default:
		return fmt.Sprintf("prepared %d tables in %s on %s: %d rows in %s (%.0f rows/s, %s)",
			len(res.Tables), tgt.Database, where, res.Rows, res.Duration.Round(time.Millisecond), res.RowsPerSecond(), res.Method)
	}
}

// logWriter is where commands log: stderr, or nowhere with --quiet.
func logWriter(cl *cli) io.Writer {
	if cl.Quiet {
		return io.Discard
	}
	return os.Stderr
}

// openTarget connects and opens the first endpoint (schema work goes to one
// server; a cluster replicates it).
func openTarget(ctx context.Context, cf *connFlags, log io.Writer, conns int) (*server.Target, *sql.DB, error) {
	tgt, err := cf.connect(ctx, log)
	if err != nil {
		return nil, nil, err
	}
	ep := tgt.Endpoints[0]
	if len(tgt.Endpoints) > 1 {
		fmt.Fprintf(log, "using %s of the %d endpoints\n", ep.Name, len(tgt.Endpoints))
	}
	db, err := ep.OpenDB()
	if err != nil {
		tgt.Close()
		return nil, nil, usage.Errorf("endpoint %s: %v", ep.Name, err)
	}
	db.SetMaxOpenConns(max(conns, 2))
	db.SetMaxIdleConns(max(conns, 2))
	if err := ep.Ping(ctx, db); err != nil {
		db.Close()
		tgt.Close()
		return nil, nil, err
	}
	return tgt, db, nil
}
