package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/replay/report"
	"github.com/joinbench/joinbench/replay/results"
)

// compareCmd compares a candidate run with a base run.
type compareCmd struct {
	Base       string   `arg:"" name:"base" help:"Base run: a run folder, a folder of run=* folders, or a glob (several runs are pooled)."`
	Candidate  string   `arg:"" name:"candidate" help:"Candidate run, as BASE."`
	Threshold  fraction `default:"10%" help:"Smallest slowdown that counts as a regression, as 10% or 0.10."`
	Confidence fraction `default:"95%" help:"Confidence level of the intervals (and of the error-rate test)."`
	Resamples  int      `default:"2000" help:"Bootstrap resamples per ratio."`
	Seed       uint64   `default:"1" help:"Seed of the bootstrap and the latency samples: same inputs and seed, same output."`
	MinSamples int      `default:"30" help:"Fewest successful executions per side for a latency verdict."`
	Format     string   `short:"f" enum:"text,markdown,json" default:"text" help:"Output format: text, markdown (for a pull request comment) or json."`
	Out        string   `short:"o" type:"path" placeholder:"FILE" help:"Write the comparison to FILE instead of standard output."`
}

func (c *compareCmd) Help() string {
	return `For each scenario, compares the candidate with the base: the ratio
(candidate/base) of the median, p95 and p99 latency of successful
executions with a percentile-bootstrap confidence interval (at most 10000
latencies sampled per scenario and side; seeded, so reproducible); the
error rate (two-proportion z test); the plans used (a changed plan is shown
as a diff of the two plan trees); and the result checksums of executions
with the same parameter values.

Verdicts:
  wrong results  a parameter set returns a different result checksum
                 (sets whose checksum already varies within one run are
                 ignored)
  regression     the interval of the median or of the p95 ratio lies wholly
                 above 1+threshold, or the error rate rose by at least one
                 point and significantly
  improvement    the interval of the median ratio lies wholly below
                 1/(1+threshold)
  no change      anything else; "insufficient data" when a side has fewer
                 than --min-samples successful executions

Exit status: 1 when any scenario is a regression or gives wrong results,
0 otherwise, 2 on a usage error.

Examples:
  joinbench compare results/run=mariadb-10.11 results/run=mariadb-11.4
  joinbench compare base/ cand/ --threshold 5% --format markdown > comment.md`
}

func (c *compareCmd) Run(ctx context.Context, cl *cli) error {
	base, err := results.FindRuns([]string{c.Base})
	if err != nil {
		return err
	}
	cand, err := results.FindRuns([]string{c.Candidate})
	if err != nil {
		return err
	}
	if c.Confidence <= 0 || c.Confidence >= 1 {
		return usage.Errorf("--confidence: %v is not between 0 and 100%%", float64(c.Confidence))
	}
	cmp, err := report.Compare(base, cand, report.CompareOptions{
		Threshold: float64(c.Threshold), Confidence: float64(c.Confidence), Resamples: c.Resamples,
		Seed: c.Seed, MinSamples: c.MinSamples, Warn: warnFunc(cl),
	})
	if err != nil {
		return err
	}
	if err := writeOut(c.Out, func(w io.Writer) error { return cmp.Write(w, c.Format) }); err != nil {
		return err
	}
	if cmp.Failed() {
		return regressionsFound{n: cmp.Counts[report.Regression], wrong: cmp.Counts[report.WrongResults]}
	}
	return nil
}

// regressionsFound makes compare exit 1 with a one-line reason.
type regressionsFound struct{ n, wrong int }

func (e regressionsFound) Error() string {
	var parts []string
	if e.wrong > 0 {
		parts = append(parts, fmt.Sprintf("%d scenario(s) with wrong results", e.wrong))
	}
	if e.n > 0 {
		parts = append(parts, fmt.Sprintf("%d regression(s)", e.n))
	}
	return strings.Join(parts, ", ")
}

func (regressionsFound) ExitCode() int { return 1 }

// fraction is a flag value written as a percentage ("10%") or a fraction
// ("0.10").
type fraction float64

func (f *fraction) Decode(ctx *kong.DecodeContext) error {
	var s string
	if err := ctx.Scan.PopValueInto("value", &s); err != nil {
		return err
	}
	v, err := parseFraction(s)
	if err != nil {
		return err
	}
	*f = fraction(v)
	return nil
}

func parseFraction(s string) (float64, error) {
	t := strings.TrimSpace(s)
	pct := strings.HasSuffix(t, "%")
	v, err := strconv.ParseFloat(strings.TrimSuffix(t, "%"), 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%q is not a percentage (10%%) or a fraction (0.10)", s)
	}
	if pct {
		v /= 100
	}
	return v, nil
}
