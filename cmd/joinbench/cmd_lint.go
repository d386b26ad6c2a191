package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/ddl/load"
	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/server/flavor"
	"github.com/joinbench/joinbench/internal/usage"
)

// lintCmd checks scenario and DDL files without running them.
type lintCmd struct {
	Paths       []string `arg:"" optional:"" type:"path" placeholder:"PATH" help:"Files or folders (searched recursively for *.sql and NAME.list) to lint; a file reads the NAME.list files beside it. Default: the built-in corpus plus the --corpus folders."`
	Corpus      []string `type:"existingdir" placeholder:"DIR" help:"Also lint the *.sql files of this folder, with its NAME.list value lists, searched recursively (repeatable)."`
	NoBuiltin   bool     `help:"Leave the built-in scenarios out of the default set."`
	Override    bool     `help:"Let a linted scenario or list replace the built-in one of the same name (otherwise that is an error, as it is for list and run)."`
	Schema      string   `type:"existingfile" placeholder:"FILE.sql" help:"Resolve names against the CREATE TABLE statements of this file instead of the built-in schema."`
	Tables      int      `default:"1" help:"Number of main tables of the built-in schema (main1..mainN)."`
	TableName   string   `default:"main" help:"Prefix of the main tables (main1..mainN): of the built-in schema, or the tables of --schema and --dsn that table(main) parameters stand for."`
	Flavor      string   `enum:",mysql,mariadb,percona,tidb" default:"" help:"Server flavour the corpus targets: mysql, mariadb, percona or tidb. Overrides lint.conf and the flavour detected with --dsn (default mysql)."`
	DSN         string   `name:"dsn" placeholder:"DSN" help:"Read the schema (tables, columns, indexes) from this live server's database instead of the built-in model, and detect the flavour (and Galera) from it. Go MySQL DSN naming the database, e.g. root@tcp(127.0.0.1:3306)/joinbench."`
	Galera      bool     `help:"The target is a Galera/PXC cluster (every DDL blocks the cluster; large writesets stall it). Overrides lint.conf."`
	Config      string   `type:"existingfile" placeholder:"FILE" help:"Read rule severities from this file instead of the lint.conf nearest to each linted file."`
	Format      string   `enum:"text,json,sarif" default:"text" short:"f" help:"Output: text (path:line:col: severity: message [rule]), json, or sarif (SARIF 2.1.0 for code scanning)."`
	Fix         bool     `help:"Apply suggested fixes (RIGHT JOIN to LEFT JOIN) in the files, keeping header and comments; then report what remains. Built-in scenarios are never modified."`
	UnsafeFixes bool     `help:"With --fix, also apply the fixes that change a statement's results (moving a preserved-side ON condition to WHERE); never applied otherwise."`
	Rules       bool     `help:"List the rules with their default severity and exit."`
	Explain     string   `placeholder:"RULE" help:"Print a rule's documentation, with a wrong and a right example, and exit."`

	// --check-plans, --sandbox: cmd_lint_plans.go
	lintPlanFlags `embed:""`
}

func (c *lintCmd) Help() string {
	return `Statically checks scenario files (and DDL files) before anything runs:
SQL syntax once placeholders are substituted, tables, columns and aliases
against the schema, placeholder types, optimizer and index hints, RIGHT
JOINs, outer joins nullified by WHERE, joins without an index, unbounded
writes and blocking DDL. Every finding names the original file, line and
column.

Files are read as list, show and run read them: a folder as a --corpus
folder (its NAME.list value lists included), a file named on its own with
the NAME.list files beside it, so the pre-commit hook, which names files,
resolves a scenario's lists. What would stop those commands (a header or
placeholder mistake, a bare ?, an unknown list, a scenario name defined
twice) is a finding of rule scenario-format.

With --dsn (or --sandbox) and --check-plans, each plain SELECT scenario
is also rendered with sample values and explained (EXPLAIN FORMAT=JSON, in
a read-only transaction: nothing is executed, writes are never explained),
and the plan is compared with the file: a FORCE/USE INDEX the plan does not use
(plan-ignores-index-hint), a STRAIGHT_JOIN or join-order hint it does not
follow (plan-ignores-join-order), and a table joined by a full scan though
its join column leads an index (plan-full-scan-joined). These rules run
only with --check-plans.

Severities: each rule has a default (see --rules); a lint.conf file in the
linted file's folder or any folder above it changes them, one "rule =
off|info|warning|error" per line, and may set "flavor = mariadb" and
"galera = true". A finding is silenced by a comment on its line, or on a
line of its own just above it:
  -- lint:ignore right-join the scenario measures RIGHT JOIN handling
or for the whole file, anywhere in it:
  -- lint:file-ignore large-dml the update scenarios are meant to be large
The reason is required; a suppression that silences nothing is reported.

Exit status: 0 no finding at error severity, 1 findings at error severity,
2 usage or I/O errors.

Examples:
  joinbench lint
  joinbench lint --corpus ./scenarios --flavor mariadb
  joinbench lint --dsn 'root@tcp(db1:3306)/joinbench'   # schema and flavour of a live server
  joinbench lint --dsn 'root@tcp(db1:3306)/joinbench' --check-plans   # and the plans it chooses
  joinbench lint --sandbox dev --check-plans   # the same on a running named sandbox
  joinbench lint --format sarif ./scenarios > lint.sarif
  joinbench lint --fix scenarios/right/my_right_join.sql
  joinbench lint --explain outer-join-nullified`
}

// lintFindings is returned when findings at error severity exist: exit 1
// without a further message.
type lintFindings struct{}

func (lintFindings) Error() string { return "" }
func (lintFindings) ExitCode() int { return 1 }

func (c *lintCmd) Run(ctx context.Context, cl *cli) error {
	if c.Explain != "" {
		a := analyzer.Lookup(c.Explain)
		if a == nil {
			var names []string
			for _, a := range analyzer.Analyzers() {
				names = append(names, a.Name)
			}
			return usage.Errorf("--explain: no rule %s (rules: %s)", c.Explain, strings.Join(names, ", "))
		}
		return a.WriteExplanation(os.Stdout)
	}
	if c.Rules {
		for _, a := range analyzer.Analyzers() {
			fmt.Printf("%-24s %-8s %s\n", a.Name, a.Severity, a.Doc)
		}
		return nil
	}
	schema, detected, err := c.schema(ctx)
	if err != nil {
		return err
	}
	flavorSet := c.Flavor != "" || detected.Name != ""
	target := detected.Or(flavor.MySQL)
	if c.Flavor != "" {
		target = flavor.Flavor{Name: flavor.Name(c.Flavor)} // a version detected on another family means nothing here
	}
	target.Galera = c.Galera || detected.Galera
	if c.UnsafeFixes && !c.Fix {
		return usage.Errorf("--unsafe-fixes applies fixes: give --fix too")
	}
	base := analyzer.Options{Schema: schema, Flavor: target, UnsafeFixes: c.UnsafeFixes}
	var fixed *analyzer.Config
	if c.Config != "" {
		b, err := os.ReadFile(c.Config)
		if err != nil {
			return usage.Errorf("--config: %v", err)
		}
		if fixed, err = analyzer.ParseConfig(c.Config, b); err != nil {
			return usage.Wrap(err)
		}
	}
	files, user, err := c.files()
	if err != nil {
		return err
	}
	var finder analyzer.ConfigFinder
	for i := range files {
		cfg := fixed
		if cfg == nil && user[i] {
			if cfg, err = finder.Find(files[i].Path); err != nil {
				return usage.Wrap(err)
			}
		}
		files[i].Options = cfg.Apply(base, flavorSet, c.Galera || detected.Name != "")
	}
	if c.Fix {
		n := 0
		for i, f := range files {
			if !user[i] || f.Scenario == nil {
				continue
			}
			out, k := analyzer.FixScenario(f.Scenario, f.Options)
			if k == 0 {
				continue
			}
			if err := os.WriteFile(f.Path, []byte(out), 0o644); err != nil {
				return fmt.Errorf("write fix: %w", err)
			}
			sc, err := f.Scenario.Reparse([]byte(out))
			if err != nil { // FixScenario keeps only text that loads
				return fmt.Errorf("fix of %s: %w", f.Path, err)
			}
			files[i].Source, files[i].Scenario = out, sc
			n += k
		}
		if !cl.Quiet && n > 0 {
			fmt.Fprintf(os.Stderr, "joinbench lint: applied %d fix(es)\n", n)
		}
	}
	diags, err := analyzer.AnalyzeAll(ctx, files, &base)
	if err != nil {
		return err
	}
	if diags, err = c.checkPlans(ctx, cl, files, &base, diags); err != nil {
		return err
	}
	switch c.Format {
	case "json":
		err = analyzer.WriteJSON(os.Stdout, diags)
	case "sarif":
		err = analyzer.WriteSARIF(os.Stdout, diags, version)
	default:
		err = analyzer.WriteText(os.Stdout, diags)
	}
	if err != nil {
		return err
	}
	errs, warns := 0, 0
	for _, d := range diags {
		switch d.Severity {
		case analyzer.Error:
			errs++
		case analyzer.Warning:
			warns++
		}
	}
	if !cl.Quiet && c.Format == "text" && len(diags) > 0 {
		fmt.Fprintf(os.Stderr, "joinbench lint: %d file(s), %d error(s), %d warning(s)\n", len(files), errs, warns)
	}
	if errs > 0 {
		return lintFindings{}
	}
	return nil
}

// schema returns the model names resolve against: a live server's
// (--dsn, which also tells the flavour), a DDL file's (--schema) or the
// built-in one.
func (c *lintCmd) schema(ctx context.Context) (*ddl.Schema, flavor.Flavor, error) {
	switch {
	case c.DSN != "" && c.Schema != "":
		return nil, flavor.Flavor{}, usage.Errorf("--dsn and --schema both name a schema: give one")
	case c.DSN != "":
		return liveSchema(ctx, c.DSN, c.TableName)
	case c.Schema != "":
		b, err := os.ReadFile(c.Schema)
		if err != nil {
			return nil, flavor.Flavor{}, usage.Errorf("--schema: %v", err)
		}
		s, err := ddl.ParseSchema(string(b))
		if err != nil {
			return nil, flavor.Flavor{}, usage.Errorf("%s:%v", c.Schema, err)
		}
		s.GroupFamily(c.TableName)
		return s, flavor.Flavor{}, nil
	}
	s, err := ddl.BuiltinSchema(ddl.SchemaOptions{Tables: c.Tables, TableName: c.TableName})
	if err != nil {
		return nil, flavor.Flavor{}, usage.Wrap(err)
	}
	return s, flavor.Flavor{}, nil
}

// liveSchema reads the schema of the DSN's database and the server's
// flavour. Lint only reads: it never starts a sandbox nor creates the
// database.
func liveSchema(ctx context.Context, dsn, tableName string) (*ddl.Schema, flavor.Flavor, error) {
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		return nil, flavor.Flavor{}, usage.Errorf("--dsn: %v", err)
	}
	if cfg.DBName == "" {
		return nil, flavor.Flavor{}, usage.Errorf("--dsn: name the database whose schema to read, e.g. root@tcp(127.0.0.1:3306)/joinbench")
	}
	endpoint := cfg.Addr
	db, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		return nil, flavor.Flavor{}, usage.Errorf("--dsn: %v", err)
	}
	defer db.Close()
	if err := db.PingContext(ctx); err != nil {
		return nil, flavor.Flavor{}, usage.Errorf("--dsn: cannot reach %s: %v", endpoint, err)
	}
	fl, err := server.DetectFlavor(ctx, db)
	if err != nil {
		return nil, flavor.Flavor{}, fmt.Errorf("%s: %w", endpoint, err)
	}
	s, err := load.SchemaFromServer(ctx, db, cfg.DBName)
	if err != nil {
		return nil, flavor.Flavor{}, fmt.Errorf("%s: read schema of %s: %w", endpoint, cfg.DBName, err)
	}
	s.GroupFamily(tableName)
	if len(s.Tables()) == 0 {
		return nil, flavor.Flavor{}, usage.Errorf("--dsn: database %q on %s has no tables: run joinbench prepare first, or lint against the built-in schema", cfg.DBName, endpoint)
	}
	return s, fl, nil
}

// files gathers what to lint, read by the corpus loader as list, show and
// run read it: folders as --corpus folders, files one by one with the value
// lists beside them, the built-in scenarios too (linted only when no path
// is given) so that a name defined twice is found. A file the loader
// refuses comes with its mistake. user[i] tells a file of the user's from
// a built-in one.
func (c *lintCmd) files() (out []analyzer.File, user []bool, err error) {
	// The rules parse each statement themselves: the loader's kinds are
	// classified only where --check-plans asks for them.
	opts := corpus.LoadOptions{Override: c.Override, NoBuiltin: c.NoBuiltin, LazyKinds: true}
	for _, root := range c.Paths {
		st, err := os.Stat(root)
		if err != nil {
			return nil, nil, usage.Errorf("%v", err)
		}
		if st.IsDir() {
			opts.Dirs = append(opts.Dirs, root)
		} else {
			opts.Files = append(opts.Files, root)
		}
	}
	opts.Dirs = append(opts.Dirs, c.Corpus...)
	_, read, err := corpus.Check(opts)
	if err != nil {
		return nil, nil, err
	}
	for _, f := range read {
		if f.Builtin && len(c.Paths) > 0 || f.Scenario == nil && f.Err == nil {
			continue // a built-in scenario not asked for, or a list that loaded
		}
		out = append(out, analyzer.File{Path: f.Path, Source: f.Source, Scenario: f.Scenario, Err: f.Err, More: f.More})
		user = append(user, !f.Builtin)
	}
	if len(out) == 0 {
		return nil, nil, usage.Errorf("no .sql files to lint")
	}
	return out, user, nil
}
