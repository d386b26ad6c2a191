package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/analysis/judge"
	"github.com/joinbench/joinbench/analysis/render"
	"github.com/joinbench/joinbench/analysis/report"
	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/results"
)

// compareCmd compares a candidate run with a base run.
type compareCmd struct {
	Base         string `arg:"" name:"base" help:"Base run: a run folder, a folder of run=* folders, or a glob (each run folder is one round)."`
	Candidate    string `arg:"" name:"candidate" help:"Candidate run, as BASE."`
	verdictFlags `embed:""`
	Resamples    int    `default:"2000" help:"Bootstrap resamples per ratio."`
	Seed         uint64 `default:"1" help:"Seed of the bootstrap and of the rounds' latency samples: same inputs and seed, same output."`
	MinSamples   int    `default:"30" help:"Fewest successful executions per side for a latency verdict from a single round (over rounds: two rounds per side with at least one each)."`
	Format       string `short:"f" enum:"text,markdown,json,html" default:"text" help:"Output format: text, markdown (for a pull request comment), json, or html (one self-contained page: a forest plot of every scenario's ratio, the verdicts, and per scenario the two latency distributions, its work and its two plans side by side; no network needed)."`
	Output       string `short:"o" type:"path" placeholder:"FILE" help:"Write the comparison to FILE instead of standard output."`
	JSON         bool   `hidden:"" aliasof:"format=json" help:"Print the comparison as JSON: --format json."`
}

// verdictFlags decide verdicts; compare and ab share them.
type verdictFlags struct {
	Threshold  fraction `default:"10%" help:"Smallest slowdown that counts as a regression, as 10% or 0.10 (a bare number of 1 or more, as 5, is refused: 5% or 0.05)."`
	Confidence fraction `default:"95%" help:"Confidence level of the intervals (and of the error-rate test), as 95% or 0.95. Over rounds, of all intervals together: an A/A comparison fails with at most 1 - confidence chance."`
	NoiseFloor fraction `default:"50%" help:"Smallest latency change judged from the pooled executions alone, which cannot see the variation between runs: with a single round on a side, and over rounds beside the interval over rounds (unless --noise-file calibrates the scenario). As 50% or 0.5."`
	NoiseFile  string   `type:"existingfile" placeholder:"FILE" help:"Calibration written by --calibrate on this setup: each scenario's noise between rounds. A scenario noisier than --threshold with the rounds at hand is 'too noisy to judge'."`
	Calibrate  string   `type:"path" placeholder:"FILE" help:"The sides are alike (an A/A comparison: nothing changed): write each scenario's noise between rounds to FILE for --noise-file. Needs two or more rounds per side; verdicts do not change the exit status."`
	Unpaired   bool     `help:"Compare rounds as independent samples (Welch) even when they ran in adjacent pairs."`
	WorkBound  float64  `default:"1.5" placeholder:"FACTOR" help:"Growth of the work per execution (rows examined, index lookups, page requests or join buffer comparisons, by 100 or more) that is a regression, even with a single round: the work of the same executions with the same values, recorded by run (--work), compared when both sides ran the same --seed on data neither changed. A factor: 1.5 is 1.5x; 1 does not judge work."`
	// AllowMissing: without it a scenario one side did not measure (its
	// run died, or every execution failed) fails the gate.
	AllowMissing bool `help:"Accept scenarios measured on one side only (the corpus changed between the runs): by default a scenario missing on a side, or whose executions there all failed, fails the comparison. A side without any readable execution always fails."`
	// AllowDifferentData: without it runs on different data are refused.
	AllowDifferentData bool `help:"Compare runs made on different data (another --tables, --table-size, --seed, ... given to prepare, or other row counts), with a warning: by default they are refused, as the difference would come from the data, not from the server."`

	// judged, when set, is given the comparison once it is written (ab
	// --candidate-slow says whether its known slowdown was caught).
	judged func(*compare.Comparison)
}

func (f *verdictFlags) check() error {
	if f.Confidence <= 0 || f.Confidence >= 1 {
		return usage.Errorf("--confidence: %v is not between 0 and 100%%", float64(f.Confidence))
	}
	if f.WorkBound < 1 || math.IsNaN(f.WorkBound) || math.IsInf(f.WorkBound, 0) {
		return usage.Errorf("--work-bound: %v is not a factor of 1 or more (1.5 is 1.5x; 1 does not judge work)", f.WorkBound)
	}
	if f.Calibrate != "" && f.NoiseFile != "" {
		return usage.Errorf("--calibrate and --noise-file cannot be combined: a calibration is measured without an earlier one")
	}
	if f.Calibrate != "" {
		if err := checkWritable(f.Calibrate); err != nil {
			return usage.Errorf("--calibrate %s: %v", f.Calibrate, err)
		}
	}
	return nil
}

// checkWritable checks, before any work, that path can be written: a
// file there is opened for writing (not truncated), else one is created
// and removed.
func checkWritable(path string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return errors.New("is a folder")
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err == nil {
		return f.Close()
	}
	if !errors.Is(err, os.ErrNotExist) {
		return unwrapPath(err)
	}
	f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return unwrapPath(err)
	}
	f.Close()
	return os.Remove(path)
}

// unwrapPath is the cause of a *os.PathError, whose path the caller says.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// options are the comparison options the flags give (the calibration
// read from --noise-file).
func (f *verdictFlags) options(cl *cli) (compare.Options, error) {
	o := compare.Options{Threshold: float64(f.Threshold), Confidence: float64(f.Confidence), NoiseFloor: float64(f.NoiseFloor),
		Unpaired: f.Unpaired, AllowMissing: f.AllowMissing, AllowDifferentData: f.AllowDifferentData, WorkBound: f.WorkBound,
		Warn: warnFunc(cl)}
	if f.NoiseFile != "" {
		n, err := compare.ReadNoise(f.NoiseFile)
		if err != nil {
			return o, usage.Wrap(err)
		}
		o.Noise = n
	}
	return o, nil
}

// compareOrCalibrate runs the comparison (or, with --calibrate, the
// calibration), writes it in format to out, and returns the error that
// sets the exit status.
func (f *verdictFlags) compareOrCalibrate(cl *cli, base, cand []string, opt compare.Options, format, out string) error {
	var cmp *compare.Comparison
	if f.Calibrate != "" {
		n, c, err := judge.Calibrate(base, cand, opt)
		if errors.Is(err, compare.ErrNoRounds) {
			return usage.Errorf("--calibrate: %v", err)
		}
		if err != nil {
			return inputError(err)
		}
		if err := n.Write(f.Calibrate); err != nil {
			return usage.Wrap(err)
		}
		if flagged := c.Counts[compare.Regression] + c.Counts[compare.Improvement] + c.Counts[compare.WrongResults]; flagged > 0 {
			opt.Warn(fmt.Errorf("%d scenario(s) differ between the two sides of this A/A comparison: are the sides alike?", flagged))
		}
		if !cl.Quiet {
			fmt.Fprintf(os.Stderr, "joinbench: calibration of %d scenario(s) written to %s\n", len(n.Scenarios), f.Calibrate)
		}
		cmp = c
	} else {
		c, err := judge.Compare(base, cand, opt)
		if err != nil {
			return inputError(err)
		}
		cmp = c
	}
	if err := writeOut(out, func(w io.Writer) error { return render.Comparison(w, cmp, format) }); err != nil {
		return err
	}
	if f.judged != nil {
		f.judged(cmp)
	}
	if f.Calibrate == "" && cmp.Failed() {
		return comparisonFailed{reasons: cmp.Failures}
	}
	return nil
}

// inputError marks the errors of a comparison that are the inputs' (a
// run.json no run writes, runs on different data, a calibration refused)
// as the user's to fix.
func inputError(err error) error {
	var bad *report.BadRunFileError
	var differ *compare.DatasetsDiffer
	var noise *compare.NoiseError
	if errors.As(err, &bad) || errors.As(err, &differ) || errors.As(err, &noise) {
		return usage.Wrap(err)
	}
	return err
}

func (c *compareCmd) Help() string {
	return `For each scenario, compares the candidate with the base: the ratio
(candidate/base) of the median, p95 and p99 latency of successful
executions with a confidence interval; the error rate (two-proportion z
test); the plans used (a changed plan is shown as a diff of the two plan
trees); and the result checksums of executions with the same parameter
values.

Each run folder of a side is one round. Whole runs on a shared machine
drift against each other by far more than executions within a run vary,
so the interval comes from the spread between rounds when there are
several:
  paired t   the rounds of both sides belong to one series of joinbench
             ab (adjacent base and candidate rounds): t interval of the
             mean log ratio of each pair's per-round quantile
  Welch t    two or more rounds per side otherwise: Welch t interval of
             the difference of the mean log per-round quantiles
  bootstrap  a single round on a side: percentile bootstrap of the pooled
             executions (all of them, as the latency histogram holds them;
             seeded, so reproducible). It cannot see the variation
             between runs, so a latency change counts only beyond
             --noise-floor (50%), or a calibrated scenario's own noise
Every verdict line says which, with the rounds and successful executions
of each side. A "no change" says the smallest slowdown its interval would
have called a regression ("no change <56%": nothing of 56% or more);
docs/compare.md, "What a verdict can see".

Verdicts, the first that holds (the figures are the flags' defaults):
` + compare.RuleHelp(compare.Options{}, 74) + `

A side whose runs hold no readable execution at all (the run died before
writing any, or its files cannot be read) is an error: nothing is
compared and the exit status is 1, whatever the flags. A run whose
run.json says it failed, did not finish, or counts more executions than
its files hold is compared with a warning.

Calibration: compare two sides where nothing changed (A/A rounds, e.g.
joinbench ab with --candidate the base) with --calibrate noise.json to
store each scenario's spread between rounds; give it to later comparisons
on the same setup with --noise-file noise.json.

Runs that differ by their actions (run --action: a TOI ALTER against a
rolling RSU one, one DELETE against its chunks) compare methods: what
each run's actions cost its own workload (throughput during the actions
against the run's baseline before them, the stall per endpoint, flow
control per node), not the whole-run latency of two separate runs, which
is shown for information: its regressions do not fail the comparison.

Exit status: 1 when the comparison fails (a side failed: its server
stopped answering, lost its connections, or completed markedly fewer
statements than the other; a scenario is a regression, gives wrong
results, or is measured on one side only without --allow-missing; with
--calibrate verdicts do not count) and when a side holds no execution at
all; 0 otherwise; 2 on a usage error (a path without run folders, a bad
flag, a run.json no run writes).

Examples:
  joinbench compare results/run=mariadb-10.11 results/run=mariadb-11.4
  joinbench compare results/ab=ID/side=base results/ab=ID/side=candidate --noise-file noise.json
  joinbench compare base/ cand/ --threshold 5% --format markdown > comment.md
  joinbench compare base/ cand/ --format html -o compare.html`
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
	if err := c.check(); err != nil {
		return err
	}
	recoverRuns(append(base[:len(base):len(base)], cand...), warnFunc(cl))
	opt, err := c.options(cl)
	if err != nil {
		return err
	}
	opt.Resamples, opt.Seed, opt.MinSamples = c.Resamples, c.Seed, c.MinSamples
	return c.compareOrCalibrate(cl, base, cand, opt, c.Format, c.Output)
}

// comparisonFailed makes compare exit 1 with a one-line reason
// (compare.Comparison.Failures).
type comparisonFailed struct{ reasons []string }

func (e comparisonFailed) Error() string { return strings.Join(e.reasons, ", ") }

func (comparisonFailed) ExitCode() int { return 1 }

// fraction is a flag value written as a percentage ("10%") or a fraction
// below 1 ("0.10"). A bare number of 1 or more is refused: "--threshold 5"
// was read as 500% once, and "1" could be 1% or 100%.
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
	v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(t, "%")), 64)
	if err != nil || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a percentage (10%%) or a fraction (0.10)", s)
	}
	if pct {
		return v / 100, nil
	}
	if v >= 1 {
		return 0, fmt.Errorf("%q is ambiguous: write a percentage (%s%%) or a fraction below 1 (%s)", s, t, strconv.FormatFloat(v/100, 'f', -1, 64))
	}
	return v, nil
}
