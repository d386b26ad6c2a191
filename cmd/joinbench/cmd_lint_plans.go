package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/analyzer/liveplan"
	"github.com/joinbench/joinbench/internal/usage"
)

// checkPlans adds the findings of the plan rules to diags when
// --check-plans is given: the plain SELECT scenarios of files are
// explained on the --dsn server.
func (c *lintCmd) checkPlans(ctx context.Context, cl *cli, files []analyzer.File, base *analyzer.Options, diags []analyzer.Diagnostic) ([]analyzer.Diagnostic, error) {
	if !c.CheckPlans {
		return diags, nil
	}
	if c.DSN == "" {
		return nil, usage.Errorf("--check-plans explains scenarios on a live server: give --dsn")
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
