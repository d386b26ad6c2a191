package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/joinbench/joinbench/analysis/render"
	"github.com/joinbench/joinbench/analysis/report"
	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/results"
)

// reportCmd summarises the results of one or more runs.
type reportCmd struct {
	Runs   []string `arg:"" name:"run" help:"Run folder (results/run=<id>), a folder holding run=* folders, or a glob of either (quote it)."`
	Format string   `short:"f" enum:"text,markdown,json,html" default:"text" help:"Output format: text, markdown, json, or html (one self-contained page with charts, opens offline)."`
	Output string   `short:"o" type:"path" placeholder:"FILE" help:"Write the report to FILE instead of standard output."`
	JSON   bool     `hidden:"" aliasof:"format=json" help:"Print the report as JSON: --format json."`
}

func (c *reportCmd) Help() string {
	return `Reads every executions-<host>-<n>.parquet of each run (all client hosts
together), plans.parquet, status-<host>-<n>.parquet and run.json, and prints per
scenario: executions, errors, mean, p50, p95, p99 and max latency (ms, of
successful executions) and executions per second; throughput and p95 over
time (one-second buckets, wider for long runs); and each distinct plan as a
readable tree; JSON adds p50 and p99 over time, retries, each scenario's SQL
and its slowest executions with their parameters, and the first message of
each error code. The HTML report adds the run's settings and server
variables, the p95 over time of the scenarios that took the most time, an
errors and retries panel, the server counters over time and, per scenario,
a latency-by-percentile chart, a histogram with its CDF, throughput and
p50, p95 and p99 over time, its SQL and its slowest executions.

A file that cannot be read (truncated by an interrupted run, not Parquet) is
skipped with a warning on stderr; the rest of the run is still reported.
Memory is bounded by per-scenario histograms, not by the number of rows.

Examples:
  joinbench report results/run=20250301-120000
  joinbench report results --format html -o report.html
  joinbench report 'results/run=2025*' --format json | jq '.runs[].scenarios[] | {scenario, p95_ms}'`
}

func (c *reportCmd) Run(ctx context.Context, cl *cli) error {
	dirs, err := results.FindRuns(c.Runs)
	if err != nil {
		return err
	}
	recoverRuns(dirs, warnFunc(cl))
	// Text and markdown show no slowest executions: they are spared the
	// second read of the pages those are in.
	details := c.Format == "html" || c.Format == "json"
	rep, err := report.Build(dirs, report.Options{Warn: warnFunc(cl), SkipDetails: !details})
	if err != nil {
		return err
	}
	return writeOut(c.Output, func(w io.Writer) error { return render.Report(w, rep, c.Format) })
}

// warnFunc prints non-fatal read problems on stderr unless --quiet.
func warnFunc(cl *cli) func(error) {
	return func(err error) {
		if !cl.Quiet {
			fmt.Fprintln(os.Stderr, "joinbench: warning:", err)
		}
	}
}

// writeOut runs write on standard output or on a new file.
func writeOut(path string, write func(io.Writer) error) error {
	if path == "" || path == "-" {
		return write(os.Stdout)
	}
	f, err := os.Create(path)
	if err != nil {
		return usage.Errorf("--output: %v", err)
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
