package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/analyzer/liveplan"
	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/internal/usage"
)

// lintPlanFlags are lint's flags for a live server's plans.
type lintPlanFlags struct {
	CheckPlans bool   `help:"With --dsn or --sandbox: also EXPLAIN each plain SELECT scenario (rendered with sample values, in a read-only transaction; nothing is executed) and report index and join-order hints the plan does not follow and full scans of joined tables whose join column has an index (the plan-* rules)."`
	Sandbox    string `placeholder:"NAME" help:"Use the running named sandbox NAME (its joinbench database) as the live server, as --dsn would."`
	SandboxDir string `type:"path" placeholder:"DIR" help:"Where named sandboxes live (default $XDG_STATE_HOME/joinbench/sandboxes or ~/.local/state/joinbench/sandboxes)."`
}

// AfterApply turns --sandbox into the DSN of the sandbox's database, so
// that the schema, the flavour and the plans are read as with --dsn. Kong
// calls it once the flags are read, before Run.
func (c *lintCmd) AfterApply() error {
	if c.Sandbox == "" {
		return nil
	}
	if c.DSN != "" {
		return usage.Errorf("--dsn and --sandbox both name a server: give one")
	}
	s, err := sandbox.Lookup(c.SandboxDir, c.Sandbox)
	if err != nil {
		return err
	}
	if !s.Running() {
		return usage.Errorf("--sandbox: sandbox %s is stopped: start it with 'joinbench sandbox start --name %s'", c.Sandbox, c.Sandbox)
	}
	c.DSN = s.DSN(server.DefaultDatabase)
	return nil
}

// checkPlans adds the findings of the plan rules to diags when
// --check-plans is given: the plain SELECT scenarios of files are
// explained on the --dsn server.
func (c *lintCmd) checkPlans(ctx context.Context, cl *cli, files []analyzer.File, base *analyzer.Options, diags []analyzer.Diagnostic) ([]analyzer.Diagnostic, error) {
	if !c.CheckPlans {
		return diags, nil
	}
	if c.DSN == "" {
		return nil, usage.Errorf("--check-plans explains scenarios on a live server: give --dsn or --sandbox")
	}
	cfg, err := mysql.ParseDSN(c.DSN)
	if err != nil {
		return nil, usage.Errorf("--dsn: %v", err)
	}
	db, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		return nil, usage.Errorf("--dsn: %v", err)
	}
	defer db.Close()
	res, err := liveplan.Check(ctx, db, files, base, liveplan.Options{TableName: c.TableName})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cfg.Addr, err)
	}
	if !cl.Quiet {
		for _, s := range res.Skipped {
			fmt.Fprintf(os.Stderr, "joinbench lint: --check-plans: %s not checked: %s\n", s.Path, s.Reason)
		}
		if c.Format == "text" {
			fmt.Fprintf(os.Stderr, "joinbench lint: --check-plans: %d statement(s) explained on %s\n", res.Explained, cfg.Addr)
		}
	}
	diags = append(diags, res.Diagnostics...)
	analyzer.SortDiagnostics(diags)
	return diags, nil
}
