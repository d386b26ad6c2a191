package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/joinbench/joinbench/analyzer/lint"
	"github.com/joinbench/joinbench/analyzer/output"
	"github.com/joinbench/joinbench/analyzer/rules"
	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/internal/suggest"
	"github.com/joinbench/joinbench/internal/usage"
)

// lintCmd checks scenario and DDL files without running them. Its driver
// is lint.Lint; this maps flags to it and prints what it found.
type lintCmd struct {
	Paths       []string `arg:"" optional:"" type:"path" placeholder:"PATH" help:"Files or folders (searched recursively for *.sql and NAME.list) to lint; a file reads the NAME.list files beside it. Default: the built-in corpus plus the --corpus folders."`
	Corpus      []string `type:"existingdir" placeholder:"DIR" help:"Also lint the *.sql files of this folder, with its NAME.list value lists, searched recursively (repeatable)."`
	NoBuiltin   bool     `help:"Leave the built-in scenarios out of the default set."`
	Override    bool     `help:"Let a linted scenario or list replace the built-in one of the same name (otherwise that is an error, as it is for list and run)."`
	Schema      string   `type:"existingfile" placeholder:"FILE.sql" help:"Resolve names against the CREATE TABLE statements of this file instead of the built-in schema."`
	Tables      int      `default:"1" help:"Number of main tables of the built-in schema (main1..mainN)."`
	TableName   string   `default:"main" help:"Prefix of the main tables (main1..mainN): of the built-in schema, or the tables of --schema and of a live server that table(main) parameters stand for."`
	Flavor      string   `enum:",mysql,mariadb,percona,tidb" default:"" help:"Server flavour the corpus targets: mysql, mariadb, percona or tidb. Overrides lint.conf and the flavour detected on a live server (default mysql)."`
	Galera      bool     `help:"The target is a Galera/PXC cluster (every DDL blocks the cluster; large writesets stall it). Overrides lint.conf."`
	Config      string   `type:"existingfile" placeholder:"FILE" help:"Read rule severities from this file instead of the lint.conf nearest to each linted file."`
	Select      []string `sep:"," placeholder:"RULE" help:"Run only these rules (comma list, repeatable). Wins over lint.conf: a selected rule runs even where lint.conf turns it off, at lint.conf's severity otherwise. scenario-format always runs."`
	Ignore      []string `sep:"," placeholder:"RULE" help:"Do not run these rules (comma list, repeatable), whatever lint.conf and --select say."`
	Format      string   `enum:"text,json,sarif,github" default:"text" short:"f" help:"Output: text (path:line:col: severity: message [rule]), json, sarif (SARIF 2.1.0 for code scanning, paths relative to the repository root) or github (GitHub Actions workflow annotations)."`
	Fix         bool     `help:"Apply suggested fixes (RIGHT JOIN to LEFT JOIN) in the files, keeping header and comments, and name each file changed on stderr; then report what remains. Built-in scenarios are never modified."`
	Diff        bool     `help:"Print what --fix would change, as a unified diff, without writing anything; exit 1 when there is something to fix."`
	UnsafeFixes bool     `help:"With --fix or --diff, also apply the fixes that change a statement's results (moving a preserved-side ON condition to WHERE); never applied otherwise."`
	Rules       bool     `help:"List the rules with their default severity and exit."`
	ExplainRule string   `placeholder:"RULE" help:"Print a rule's documentation, with a wrong and a right example, and exit; all prints every rule's (docs/rules.md)."`
	Explain     string   `hidden:"" renamed:"explain-rule" placeholder:"RULE" help:"Old spelling of --explain-rule."`
	JSON        bool     `hidden:"" aliasof:"format=json" help:"Print the findings as JSON: --format json."`

	// --dsn, --sandbox, the connection flags, --check-plans: cmd_lint_server.go
	lintServerFlags `embed:""`
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

With a live server (--dsn, --host, --port, --socket or --sandbox), names
resolve against the tables of its database and the flavour (and Galera)
is the server's. The Live server flags say how to connect, with the
environment variables and option file every other command reads, and
give up after --connect-timeout; lint only reads, never starting a
server or creating a database. The environment never names the server
for lint: without one of those flags lint stays offline. A user without
SELECT on the database sees only the tables it was granted something on:
when scenarios use tables it does not see, lint says once that they are
not visible to this user (exit 2) rather than report each as unknown.

With a live server and --check-plans, each plain SELECT scenario is also
rendered with sample values and explained (EXPLAIN FORMAT=JSON, in a
read-only transaction: nothing is executed, writes are never explained),
and the plan is compared with the file: a FORCE/USE INDEX the plan does
not use (plan-ignores-index-hint), a STRAIGHT_JOIN or join-order hint it
does not follow (plan-ignores-join-order), and a table joined by a full
scan though its join column leads an index (plan-full-scan-joined). These
rules run only with --check-plans.

Severities: each rule has a default (see --rules); a lint.conf file in the
linted file's folder or any folder above it changes them, one "rule =
off|info|warning|error" per line, and may set "flavor = mariadb" and
"galera = true". The command line wins over lint.conf: --select runs only
the rules it names (even one lint.conf turns off), --ignore turns rules
off. A finding is silenced by a comment on its line, or on a line of its
own just above it:
  -- lint:ignore right-join the scenario measures RIGHT JOIN handling
or for the whole file, anywhere in it:
  -- lint:file-ignore large-dml the update scenarios are meant to be large
The reason is required; a suppression that silences nothing is reported.

Output: --format github prints GitHub Actions workflow commands, which a
workflow shows as annotations on the files' lines; --format sarif a SARIF
log for code scanning. Both name files relative to the repository root
(the nearest folder above the current one holding .git, else the current
folder), SARIF with uriBaseId %SRCROOT%; each SARIF rule links to its
section of docs/rules.md.

Fixes: --fix writes the fixes and names each file it changed on stderr;
--diff prints the same fixes as a unified diff (patch -p0 applies it from
the current folder) and writes nothing.

Exit status: 0 no finding at error severity, 1 findings at error severity
(with --diff: something to fix), 2 usage or I/O errors.

Examples:
  joinbench lint
  joinbench lint --corpus ./scenarios --flavor mariadb
  joinbench lint --select right-join,outer-join-nullified ./scenarios
  joinbench lint --ignore large-dml,blocking-ddl ./scenarios
  joinbench lint --dsn 'root@tcp(db1:3306)/joinbench'   # schema and flavour of a live server
  joinbench lint --dsn 'root@tcp(db1:3306)/joinbench' --check-plans   # and the plans it chooses
  joinbench lint --sandbox dev --check-plans   # the same on a running named sandbox
  joinbench lint --host db1 --defaults-file ~/.my-db1.cnf   # user and password from the option file
  joinbench lint --format sarif ./scenarios > lint.sarif
  joinbench lint --format github ./scenarios   # in a GitHub Actions step
  joinbench lint --diff ./scenarios
  joinbench lint --fix scenarios/right/my_right_join.sql
  joinbench lint --explain-rule outer-join-nullified`
}

// lintFindings is returned when findings at error severity exist: exit 1
// without a further message.
type lintFindings struct{}

func (lintFindings) Error() string { return "" }
func (lintFindings) ExitCode() int { return 1 }

// lintGCPercent is the garbage collector's target for a lint: a heap
// four times what is live (Go's default is twice). A lint is a short batch
// whose live heap is mostly the corpus it keeps until every file is
// analysed, so each collection rescans that corpus for little garbage
// freed: on 10,000 files, 300 took 0.91 of the CPU of the default for 164
// MB of peak RSS against 107 (bench/README.md, "Lint of 10,000 files").
const lintGCPercent = 300

// lintGC sets lintGCPercent, unless the user set GOGC.
func lintGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(lintGCPercent)
	}
}

// Run lints the files the flags name, or explains or lists the rules.
func (c *lintCmd) Run(ctx context.Context, cl *cli) error {
	switch {
	case c.ExplainRule != "":
		return explainRule(os.Stdout, c.ExplainRule)
	case c.Rules:
		for _, a := range rules.All() {
			fmt.Printf("%-24s %-8s %s\n", a.Name, a.Severity, a.Doc)
		}
		return nil
	}
	opts, err := c.lintOptions()
	if err != nil {
		return err
	}
	lintGC()
	files, err := lint.ReadFiles(lint.Sources{Paths: c.Paths, Corpus: c.Corpus, Override: c.Override, NoBuiltin: c.NoBuiltin})
	if err != nil {
		return err
	}
	srv, err := c.open(ctx)
	if err != nil {
		return err
	}
	if srv != nil {
		defer srv.Close()
		opts.Server = srv
	}
	res, err := lint.Lint(ctx, files, opts)
	if err != nil {
		return err
	}
	return c.print(cl, res)
}

// lintOptions maps the flags to the lint driver's options, refusing the
// combinations that make no sense.
func (c *lintCmd) lintOptions() (lint.Options, error) {
	switch {
	case c.UnsafeFixes && !c.Fix && !c.Diff:
		return lint.Options{}, usage.Errorf("--unsafe-fixes applies fixes: give --fix or --diff too")
	case c.Diff && c.Fix:
		return lint.Options{}, usage.Errorf("--diff shows what --fix would write: give one of them")
	case c.Diff && c.Format != "text":
		return lint.Options{}, usage.Errorf("--diff prints a diff, not findings: leave --format out")
	case c.Diff && c.CheckPlans:
		return lint.Options{}, usage.Errorf("--diff prints a diff, not findings: leave --check-plans out")
	case c.Schema != "" && c.named():
		return lint.Options{}, usage.Errorf("--schema and a live server (--dsn, --host, --port, --socket or --sandbox) both name a schema: give one")
	}
	if err := c.lintServerFlags.check(); err != nil {
		return lint.Options{}, err
	}
	return lint.Options{
		SchemaFile: c.Schema, Tables: c.Tables, TableName: c.TableName,
		Flavor: flavor.Name(c.Flavor), Galera: c.Galera, ConfigFile: c.Config, Select: c.Select, Ignore: c.Ignore,
		Fix: c.Fix, Diff: c.Diff, UnsafeFixes: c.UnsafeFixes, CheckPlans: c.CheckPlans,
	}, nil
}

// print writes the findings to stdout in the chosen format and what
// happened on the way (files fixed, plans) to stderr; findings at error
// severity make the exit status 1. With --diff it prints the diff of the
// fixes instead of the findings, and exits 1 when there is one.
func (c *lintCmd) print(cl *cli, res *lint.Result) error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	if c.Diff {
		for _, ch := range res.Changes {
			if err := ch.WriteDiff(os.Stdout, displayPath(ch.Path, wd)); err != nil {
				return err
			}
		}
		if len(res.Changes) > 0 {
			return lintFindings{}
		}
		return nil
	}
	// The files changed are what --fix did: said even with --quiet.
	for _, ch := range res.Changes {
		fmt.Fprintf(os.Stderr, "joinbench lint: fixed %s (%d edit(s))\n", displayPath(ch.Path, wd), ch.Edits)
	}
	if !cl.Quiet {
		if p := res.Plans; p != nil {
			for _, s := range p.Skipped {
				fmt.Fprintf(os.Stderr, "joinbench lint: --check-plans: %s not checked: %s\n", s.Path, s.Reason)
			}
			if c.Format == "text" {
				fmt.Fprintf(os.Stderr, "joinbench lint: --check-plans: %d statement(s) explained on %s\n", p.Explained, p.Server)
			}
		}
	}
	out := output.Options{Version: version, Root: output.RepoRoot(wd), Rules: rules.All()}
	if err := output.WriteFindings(os.Stdout, c.Format, res.Diagnostics, out); err != nil {
		return err
	}
	if !cl.Quiet && c.Format == "text" && len(res.Diagnostics) > 0 {
		fmt.Fprintf(os.Stderr, "joinbench lint: %d file(s), %d error(s), %d warning(s)\n", res.Files, res.Errors, res.Warnings)
	}
	if res.Errors > 0 {
		return lintFindings{}
	}
	return nil
}

// displayPath is path relative to the current folder when it is below
// it, as the user would type it; else as it is.
func displayPath(path, wd string) string {
	if rel, err := filepath.Rel(wd, path); err == nil && filepath.IsAbs(path) && rel != ".." &&
		!strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return rel
	}
	return path
}

// explainRule prints a rule's documentation, or every rule's for "all"
// (docs/rules.md); an unknown rule is a usage error naming the rules
// there are.
func explainRule(w io.Writer, name string) error {
	if name == "all" {
		return rules.WriteReference(w)
	}
	a := rules.Lookup(name)
	if a == nil {
		var names []string
		for _, a := range rules.All() {
			names = append(names, a.Name)
		}
		return usage.Errorf("--explain-rule: no rule %s%s (rules: %s)", name, suggest.DidYouMean(name, names), strings.Join(names, ", "))
	}
	return a.WriteExplanation(w)
}
