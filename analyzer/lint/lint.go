package lint

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/analyzer/rules"
	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/internal/usage"
)

// Options are what a lint run is asked to do: the lint command's
// flags, which cmd maps here one to one.
type Options struct {
	// SchemaFile holds the CREATE TABLE statements names resolve against
	// (--schema); without it, and without a Server, the built-in schema
	// of Tables main tables.
	SchemaFile string
	Tables     int
	// TableName is the prefix of the main tables that table(main)
	// parameters stand for.
	TableName string
	// Flavor is the family the command line targets ("": none given);
	// it wins over a server's and over lint.conf's.
	Flavor flavor.Name
	// Galera says the target is a Galera/PXC cluster, whatever lint.conf
	// says.
	Galera bool
	// ConfigFile replaces the lint.conf nearest to each linted file.
	ConfigFile string
	// Select, when given, runs only these rules; Ignore turns rules off.
	// Each value is a rule name or a comma list of them. Both win over
	// lint.conf (see ruleSelection); scenario-format always runs.
	Select, Ignore []string
	// Fix applies the suggested fixes to the user's files (never to a
	// built-in scenario), then lints what remains; UnsafeFixes applies
	// the fixes that change a statement's results too. Diff works out the
	// same fixes without writing them (Result.Changes), and lints the
	// files as they are.
	Fix, UnsafeFixes, Diff bool
	// Server is the live server names resolve against, which also tells
	// the flavour; nil lints offline.
	Server Server
	// CheckPlans explains the files' statements on Server and runs the
	// rules that compare them with the plans (NeedsPlan).
	CheckPlans bool
	// WriteFile writes a fixed file; nil means os.WriteFile.
	WriteFile func(path string, data []byte, perm os.FileMode) error
}

// Server is a live server lint reads from. Package analyzer/liveplan
// provides one, so that this package links no driver.
type Server interface {
	// Schema reads the tables of the server's database, grouping the
	// families of tableName, and the server's flavour.
	Schema(ctx context.Context, tableName string) (*ddl.Schema, flavor.Flavor, error)
	// CheckPlans explains the plain reads of files (each with its own
	// Options, else base) and runs the plan rules on them.
	CheckPlans(ctx context.Context, files []analyzer.File, base *analyzer.Options, tableName string) (*PlanReport, error)
}

// PlanReport is what explaining files on a live server found.
type PlanReport struct {
	Diagnostics []analyzer.Diagnostic
	Server      string        // the endpoint explained on
	Explained   int           // statements explained
	Skipped     []SkippedFile // files not explained, and why
}

// SkippedFile is a file a plan check did not explain, and why.
type SkippedFile struct {
	Path   string
	Reason string
}

// Result is what a lint run found, counted (as skeema's CheckSchema
// result is): the command prints it and exits by it.
type Result struct {
	// Diagnostics are the findings in file, position and rule order.
	Diagnostics []analyzer.Diagnostic
	// Files is how many files were linted.
	Files int
	// Errors, Warnings and Infos count the findings by severity.
	Errors, Warnings, Infos int
	// Fixed is how many edits Fix applied (or Diff would apply).
	Fixed int
	// Changes are the files Fix changed (or Diff would change), in file
	// order.
	Changes []FileChange
	// Plans is what CheckPlans found; nil without it.
	Plans *PlanReport
}

// Lint checks files: it finds each user file's lint.conf, applies fixes
// when asked (writing the files and reading them again), runs the rules,
// adds the plan rules' findings when asked, and counts what it found.
func Lint(ctx context.Context, files []analyzer.File, o Options) (*Result, error) {
	if o.CheckPlans && o.Server == nil {
		return nil, errors.New("lint: checking plans needs a live server")
	}
	sel, err := newRuleSelection(o.Select, o.Ignore)
	if err != nil {
		return nil, err
	}
	base, detected, err := o.base(ctx)
	if err != nil {
		return nil, err
	}
	sel.apply(base)
	files = append([]analyzer.File(nil), files...)
	if err := o.configure(files, base, detected.Name != "", sel); err != nil {
		return nil, err
	}
	res := &Result{Files: len(files)}
	if o.Fix || o.Diff {
		if res.Changes, err = o.fix(files); err != nil {
			return nil, err
		}
		for _, c := range res.Changes {
			res.Fixed += c.Edits
		}
	}
	if res.Diagnostics, err = analyzer.AnalyzeAll(ctx, files, base); err != nil {
		return nil, err
	}
	if srv, ok := o.Server.(analyzer.ServerParser); ok {
		if res.Diagnostics, err = analyzer.AskServer(ctx, srv, files, base, res.Diagnostics); err != nil {
			return nil, err
		}
	}
	if err := o.notVisible(res.Diagnostics); err != nil {
		return nil, err
	}
	if o.CheckPlans {
		if res.Plans, err = o.Server.CheckPlans(ctx, files, base, o.TableName); err != nil {
			return nil, err
		}
		res.Diagnostics = append(res.Diagnostics, res.Plans.Diagnostics...)
		analyzer.SortDiagnostics(res.Diagnostics)
	}
	for _, d := range res.Diagnostics {
		switch d.Severity {
		case analyzer.Error:
			res.Errors++
		case analyzer.Warning:
			res.Warnings++
		case analyzer.Info:
			res.Infos++
		}
	}
	return res, nil
}

// notVisible is the one error that replaces the unknown tables of a lint
// against a server whose user sees only some tables of the database: they
// may exist, hidden from it, and a finding per use would bury that.
func (o *Options) notVisible(ds []analyzer.Diagnostic) error {
	v, ok := o.Server.(interface{ NotVisible() string })
	if !ok || v.NotVisible() == "" {
		return nil
	}
	n := 0
	for _, d := range ds {
		if d.Rule == rules.UnknownTable.Name {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return usage.Errorf("%d use(s) of tables not visible to this user (%s): lint as a user with SELECT on the database, or offline", n, v.NotVisible())
}

// base returns the options every file starts from (the schema, the
// targeted flavour and the fixes allowed) and the flavour detected on the
// server. A flavour given on the command line wins over the server's;
// Galera is the command line's or the server's.
func (o *Options) base(ctx context.Context) (*analyzer.Options, flavor.Flavor, error) {
	schema, detected, err := o.schema(ctx)
	if err != nil {
		return nil, detected, err
	}
	target := detected.Or(flavor.MySQL)
	if o.Flavor != "" {
		target = flavor.Flavor{Name: o.Flavor} // a version detected on another family means nothing here
	}
	target.Galera = o.Galera || detected.Galera
	return &analyzer.Options{Schema: schema, Flavor: target, Rules: rules.All(), UnsafeFixes: o.UnsafeFixes}, detected, nil
}

// schema returns the model names resolve against, and the flavour of the
// server it was read from (none for a file or the built-in schema).
func (o *Options) schema(ctx context.Context) (*ddl.Schema, flavor.Flavor, error) {
	switch {
	case o.Server != nil:
		return o.Server.Schema(ctx, o.TableName)
	case o.SchemaFile != "":
		b, err := os.ReadFile(o.SchemaFile)
		if err != nil {
			return nil, flavor.Flavor{}, usage.Errorf("--schema: %v", err)
		}
		s, err := ddl.ParseSchema(string(b))
		if err != nil {
			return nil, flavor.Flavor{}, usage.Errorf("%s:%v", o.SchemaFile, err)
		}
		s.GroupFamily(o.TableName)
		return s, flavor.Flavor{}, nil
	}
	s, err := ddl.BuiltinSchema(ddl.SchemaOptions{Tables: o.Tables, TableName: o.TableName})
	if err != nil {
		return nil, flavor.Flavor{}, usage.Wrap(err)
	}
	return s, flavor.Flavor{}, nil
}

// configure sets each file's options: base with the file's lint.conf (or
// ConfigFile's) laid over it. The command line's choices (the flavour,
// the rules selected), and a flavour detected on a server, win over the
// file's.
func (o *Options) configure(files []analyzer.File, base *analyzer.Options, detected bool, sel ruleSelection) error {
	var fixed *Config
	if o.ConfigFile != "" {
		b, err := os.ReadFile(o.ConfigFile)
		if err != nil {
			return usage.Errorf("--config: %v", err)
		}
		if fixed, err = ParseConfig(o.ConfigFile, b); err != nil {
			return usage.Wrap(err)
		}
	}
	flavorSet, galeraSet := o.Flavor != "" || detected, o.Galera || detected
	var finder ConfigFinder
	// Files of one config share its options (nothing changes them once
	// made), rather than a copy each: the analysis works out what it
	// needs of them once per options, not once per file.
	byConfig := map[*Config]*analyzer.Options{}
	for i := range files {
		cfg := fixed
		if cfg == nil && !files[i].Builtin {
			var err error
			if cfg, err = finder.Find(files[i].Path); err != nil {
				return usage.Wrap(err)
			}
		}
		opts, ok := byConfig[cfg]
		if !ok {
			opts = cfg.Apply(*base, flavorSet, galeraSet)
			sel.apply(opts)
			byConfig[cfg] = opts
		}
		files[i].Options = opts
	}
	return nil
}

// fix works out the suggested fixes of the user's scenario files. With
// Fix it writes each changed file and reads it again, as the loader
// would, for the analysis to see the fixed text; with Diff alone it
// writes nothing. It returns the changes.
func (o *Options) fix(files []analyzer.File) ([]FileChange, error) {
	write := o.WriteFile
	if write == nil {
		write = os.WriteFile
	}
	var changes []FileChange
	for i, f := range files {
		if f.Builtin || f.Scenario == nil {
			continue
		}
		out, k := analyzer.FixScenario(f.Scenario, f.Options)
		if k == 0 {
			continue
		}
		changes = append(changes, FileChange{Path: f.Path, Before: f.Scenario.Source, After: out, Edits: k})
		if !o.Fix {
			continue
		}
		if err := write(f.Path, []byte(out), 0o644); err != nil {
			return changes, fmt.Errorf("write fix: %w", err)
		}
		sc, err := f.Scenario.Reparse([]byte(out))
		if err != nil { // FixScenario keeps only text that loads
			return changes, fmt.Errorf("fix of %s: %w", f.Path, err)
		}
		files[i].Source, files[i].Scenario = out, sc
	}
	return changes, nil
}
