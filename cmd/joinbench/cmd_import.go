package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/ddl/load"
	"github.com/joinbench/joinbench/ingest"
	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/usage"
)

// importCmd makes a corpus of a captured workload. The reading,
// fingerprinting and inference are package ingest's; this maps flags to it.
type importCmd struct {
	Files      []string `arg:"" optional:"" type:"existingfile" placeholder:"FILE" help:"Slow query logs, general query logs and dumps of the digest table (mysql -B output of SELECT * FROM performance_schema.events_statements_summary_by_digest), told apart by their first lines."`
	Out        string   `required:"" type:"path" placeholder:"DIR" help:"Folder to write the scenario files and their NAME.list value lists into (created if need be; files of the same names are replaced). Use it as --corpus DIR."`
	LogFormat  string   `enum:"auto,slow,general,digest" default:"auto" help:"What the FILEs are: auto (told by their first lines), slow, general or digest."`
	Digest     bool     `help:"Also read performance_schema.events_statements_summary_by_digest on the live server (--dsn, --sandbox ...)."`
	Top        int      `default:"50" help:"Write the scenarios of the first N fingerprints of the ranking (0: all)."`
	Sort       string   `enum:"time,count" default:"time" help:"Rank fingerprints by total time (then count), or by count (then total time). A general log times nothing: its statements rank by count either way."`
	Tables     []string `sep:"," placeholder:"TABLE" help:"Keep only the statements that name one of these tables (comma list, repeatable)."`
	JoinsOnly  bool     `help:"Keep only the statements that read two tables or more."`
	Writes     bool     `help:"Also write scenarios of INSERT, UPDATE, DELETE and REPLACE (and locking reads). They are left out by default, and the writes kept run only with run --imported-writes: an imported corpus replays reads."`
	Values     string   `enum:"infer,log" default:"infer" help:"infer: fit each placeholder to its column and the values seen (a sample of the column's data for an equality on an indexed column, an ENUM's members, the range of integers or days seen, the strings seen); log: keep the values the log saw, as a list per placeholder."`
	SampleSize int      `placeholder:"N" help:"Size of the sample(TABLE.COLUMN, N) placeholders written (default 1000 distinct values)."`
	Schema     string   `type:"existingfile" placeholder:"FILE.sql" help:"Read the columns values are compared with from the CREATE TABLE statements of this file (wins over the live server's; with neither, kinds come from the values alone). A live server named (--dsn, --sandbox ...) gives the schema of its database (and with --digest, the digest table's statements of that database)."`

	importServerFlags `embed:""`
}

// importServerFlags name the live server the schema and the digest table
// are read from, as lint names one.
type importServerFlags struct {
	DSN        string `name:"dsn" group:"Live server" placeholder:"DSN" help:"Read the schema (and, with --digest, the digest table) from this live server: a Go MySQL DSN, e.g. root@tcp(127.0.0.1:3306)/shop (the database defaults to --database)."`
	Host       string `group:"Live server" help:"Server host (default 127.0.0.1 when a server is named)."`
	Port       int    `group:"Live server" help:"Server TCP port (default 3306)."`
	Socket     string `group:"Live server" type:"path" placeholder:"PATH" help:"Unix socket file, instead of TCP."`
	loginFlags `embed:"" group:"Live server"`

	Sandbox    string `group:"Live server" placeholder:"NAME" help:"Use the running named sandbox NAME as the live server."`
	SandboxDir string `env:"JOINBENCH_SANDBOX_DIR" group:"Live server" type:"path" placeholder:"DIR" help:"Where named sandboxes live (default $XDG_STATE_HOME/joinbench/sandboxes or ~/.local/state/joinbench/sandboxes)."`
}

func (f *importServerFlags) named() bool {
	return f.DSN != "" || f.Host != "" || f.Port != 0 || f.Socket != "" || f.Sandbox != ""
}

func (c *importCmd) Help() string {
	return `Reads what a server logged or counted of the statements it ran and writes
one scenario file per statement shape, ready for lint, run and ab:

  - a slow query log of MySQL, MariaDB or Percona Server (long_query_time=0
    catches every statement; the fields of log_slow_verbosity and
    log_slow_extra are read where present),
  - a general query log (it times nothing: statements rank by count),
  - performance_schema.events_statements_summary_by_digest, read live
    (--digest) or from a dump file.

Statements are grouped by fingerprint as pt-query-digest does: literals
out, IN lists folded, comments, case and white space normalised; optimizer
hints are kept, since they change the plan. The groups are ranked by total
time and count, and the first --top become scenarios named after their
verb, tables and fingerprint (the same statements give the same names in a
new import). Each file's description says where it came from: executions,
total, p95 and max time, the file and line first seen.

Each value becomes a typed placeholder fitted to the column it is compared
with (--schema or the live server's): sample(TABLE.COLUMN) (values drawn
from the data at run start) for an equality on an indexed column, the
members of an ENUM, the range of integers or days seen, the strings seen; LIMIT
counts, constants the application always sends and values of expressions
stay as written. --values log keeps the values the log saw instead.

Safety: statements that may carry a password (IDENTIFIED BY, PASSWORD,
CREATE/ALTER USER, GRANT, CHANGE MASTER ...) are dropped whole as they are
read, so none reaches a scenario, a list or a result. Writes are left out
unless --writes, and then run only with run --imported-writes; SHOW, SET,
EXPLAIN, transactions and statements on the server's own schemas are never
imported.`
}

func (c *importCmd) Run(ctx context.Context, cl *cli) error {
	if err := c.check(); err != nil {
		return err
	}
	set := ingest.NewSet(&ingest.Filter{Tables: c.Tables, JoinsOnly: c.JoinsOnly, Writes: c.Writes})
	schema, err := c.schemaFile()
	if err != nil {
		return err
	}
	if c.named() {
		if schema, err = c.readLive(ctx, set, schema); err != nil {
			return err
		}
	}
	for _, f := range c.Files {
		if err := set.ReadFile(f, c.LogFormat); err != nil {
			return err
		}
	}
	rep := ingest.Choose(set, c.Top, c.Sort == "count", ingest.BuildOptions{
		InferOptions: ingest.InferOptions{Values: ingest.Values(c.Values), SampleSize: c.SampleSize},
		Schema:       schema, Writes: c.Writes,
	})
	if err := rep.Write(c.Out); err != nil {
		return err
	}
	fmt.Fprint(logWriter(cl), rep.Summary(c.Out))
	if len(rep.Written) == 0 {
		return usage.Errorf("no scenario written: every statement read was left out (see above)")
	}
	return nil
}

// check refuses the flag combinations that cannot work.
func (c *importCmd) check() error {
	switch {
	case len(c.Files) == 0 && !c.Digest:
		return usage.Errorf("nothing to import: name log or dump FILEs, or --digest with a live server")
	case c.Digest && !c.named():
		return usage.Errorf("--digest reads the digest table of a live server: give --dsn or --sandbox")
	case c.Top < 0:
		return usage.Errorf("--top must be 0 (all) or more, got %d", c.Top)
	case c.SampleSize < 0 || c.SampleSize > corpus.MaxSampleSize:
		return usage.Errorf("--sample-size must be in 1..%d, got %d", corpus.MaxSampleSize, c.SampleSize)
	}
	return nil
}

// schemaFile reads --schema, or returns nil without it.
func (c *importCmd) schemaFile() (*ddl.Schema, error) {
	if c.Schema == "" {
		return nil, nil
	}
	return schemaFile(c.Schema)
}

// schemaFile reads the model of the CREATE TABLE statements of a
// --schema file; its mistakes are the user's.
func schemaFile(path string) (*ddl.Schema, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, usage.Errorf("--schema: %v", err)
	}
	s, err := ddl.ParseSchema(string(b))
	if err != nil {
		return nil, usage.Errorf("%s:%v", path, err)
	}
	return s, nil
}

// readLive reads from the live server the schema (unless schema, from
// --schema, is given) and, with --digest, the digest table's statements
// of the server's database.
func (c *importCmd) readLive(ctx context.Context, set *ingest.Set, schema *ddl.Schema) (*ddl.Schema, error) {
	o := c.loginOptions()
	o.Host, o.Port, o.Socket = c.Host, c.Port, c.Socket
	if c.DSN != "" {
		o.DSNs = []string{c.DSN}
	}
	tgt, err := server.ConnectExisting(ctx, o, server.SandboxOptions{Name: c.Sandbox, Dir: c.SandboxDir})
	if err != nil {
		return nil, err
	}
	defer tgt.Close()
	ep := tgt.Endpoints[0]
	db, err := ep.OpenDB()
	if err != nil {
		return nil, usage.Errorf("%s: %v", ep.Name, err)
	}
	defer db.Close()
	qctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if schema == nil {
		if schema, err = load.SchemaFromServer(qctx, db, tgt.Database); err != nil {
			return nil, fmt.Errorf("%s: %w", ep.Name, err)
		}
	}
	if c.Digest {
		// The digest table counts every database of the server: only
		// the one named describes the schema read. (A log file may come
		// from another server, whose database has another name.)
		set.Filter.Database = tgt.Database
		err := set.ReadDigestTable(qctx, db, ep.Name)
		set.Filter.Database = ""
		if err != nil {
			return nil, err
		}
	}
	return schema, nil
}
