package compare

import (
	"fmt"
	"slices"
	"strings"

	"github.com/joinbench/joinbench/analysis/metrics"
	"github.com/joinbench/joinbench/analysis/stats"
	"github.com/joinbench/joinbench/results"
)

// Verdicts of a scenario comparison, worst first.
const (
	WrongResults     = "wrong results"
	Regression       = "regression"
	Improvement      = "improvement"
	NoChange         = "no change"
	InsufficientData = "insufficient data"
	OnlyInBase       = "only in base"
	OnlyInCandidate  = "only in candidate"
	// TooNoisy is the verdict on a scenario whose calibrated A/A noise,
	// with the rounds at hand, is larger than the threshold: neither a
	// change nor its absence can be told at that threshold.
	TooNoisy = "too noisy to judge"
)

// Methods of a latency verdict (ScenarioComparison.Method).
const (
	// MethodPaired: t interval over the log ratios of adjacent base and
	// candidate rounds.
	MethodPaired = "paired"
	// MethodWelch: Welch t interval over the logs of per-round statistics
	// of the two sides.
	MethodWelch = "welch"
	// MethodBootstrap: one round on a side, so the variation between runs
	// is unknown; percentile bootstrap over the pooled executions, and
	// only changes beyond the noise floor count.
	MethodBootstrap = "bootstrap"
)

// Side describes the runs on one side of a comparison.
type Side struct {
	Runs          []string `json:"runs"`
	RunIDs        []string `json:"run_ids"`
	ServerVersion string   `json:"server_version,omitempty"`
	Flavor        string   `json:"flavor,omitempty"`
	Files         int      `json:"executions_files"`
	Executions    int64    `json:"executions"`
	// Retries, Conflicts and FailedCommits are those of every scenario
	// (metrics.Summary says what each counts).
	Retries       int64 `json:"retries"`
	Conflicts     int64 `json:"conflicts"`
	FailedCommits int64 `json:"failed_commits"`
	// Rounds is the number of rounds: each run folder is one, except a
	// run in lockstep with the other side's, which holds one per time
	// slice (results.Replicate.Slice).
	Rounds int `json:"rounds"`
	// NoSuccess is set when every execution the side read failed: it
	// measured nothing, and the comparison fails (a gate must not pass on
	// "insufficient data").
	NoSuccess bool `json:"no_success,omitempty"`
	// WarningsCounted: every run of the side counted the warnings of
	// each statement (results.Run.WarningsCounted).
	WarningsCounted bool `json:"warnings_counted,omitempty"`
}

// ErrorRates compares the failed fraction of executions.
type ErrorRates struct {
	Base      float64 `json:"base"`
	Candidate float64 `json:"candidate"`
	PValue    float64 `json:"p_value"`
	// Increased: at least one percentage point more, and significant at
	// the comparison's confidence (two-proportion z test).
	Increased bool `json:"increased"`
	Decreased bool `json:"decreased"`
	// NewCodes are error codes seen only in the candidate.
	NewCodes []int32 `json:"new_codes,omitempty"`
}

// ChecksumCheck compares result checksums per parameter set.
type ChecksumCheck struct {
	Compared   int64 `json:"compared"`   // parameter sets seen on both sides with a stable checksum
	Mismatched int64 `json:"mismatched"` // of those, with different checksums
	// CutByLimit are the differing sets whose result filled the statement's
	// final LIMIT: rows tying under its ORDER BY at the cut may be kept by
	// one plan and dropped by another, so they do not count as wrong.
	CutByLimit int64 `json:"cut_by_limit,omitempty"`
	// Examples are parameter values of some mismatches.
	Examples [][]string `json:"examples,omitempty"`
}

// ScenarioComparison is the verdict on one scenario.
type ScenarioComparison struct {
	Scenario  string           `json:"scenario"`
	Verdict   string           `json:"verdict"`
	Reasons   []string         `json:"reasons,omitempty"`
	Base      *metrics.Summary `json:"base,omitempty"`
	Candidate *metrics.Summary `json:"candidate,omitempty"`
	Median    *stats.Interval  `json:"median,omitempty"`
	P95       *stats.Interval  `json:"p95,omitempty"`
	P99       *stats.Interval  `json:"p99,omitempty"`
	Errors    *ErrorRates      `json:"errors,omitempty"`
	// Warnings compares how often each side answered with warnings, when
	// both counted them and either gave some (warnings.go).
	Warnings         *WarningRates `json:"warnings,omitempty"`
	PlanChanged      bool          `json:"plan_changed"`
	BasePlans        []string      `json:"base_plans,omitempty"`
	CandidatePlans   []string      `json:"candidate_plans,omitempty"`
	PlanDiff         string        `json:"plan_diff,omitempty"`
	Checksums        ChecksumCheck `json:"checksums"`
	StatementChanged bool          `json:"statement_changed,omitempty"`
	// Unmeasured names the side (results.SideBase or SideCandidate) with
	// no successful execution of a scenario the other side measured: it
	// is missing from that side's files, or every execution of it failed.
	// Such a scenario fails the comparison unless AllowMissing.
	Unmeasured string `json:"unmeasured,omitempty"`

	// How the latency verdict was reached: Method (MethodPaired,
	// MethodWelch or MethodBootstrap) over this many rounds and
	// successful executions per side.
	Method              string `json:"method,omitempty"`
	BaseRounds          int    `json:"base_rounds,omitempty"`
	CandidateRounds     int    `json:"candidate_rounds,omitempty"`
	BaseExecutions      int64  `json:"base_executions,omitempty"`
	CandidateExecutions int64  `json:"candidate_executions,omitempty"`
	// Bound is the ratio a regression must be above: over rounds the
	// ratio itself (its interval above 1 too), with the bootstrap its
	// interval's low end; an improvement is below 1/Bound likewise.
	Bound float64 `json:"bound,omitempty"`
	// Detectable is the smallest slowdown (0.08: 8%) the rule would have
	// called a regression with these intervals (detectable.go): what a
	// "no change" rules out. 0 when unknown.
	Detectable float64 `json:"detectable,omitempty"`
	// Noise is the scenario's A/A noise with these rounds (1 ± Noise holds
	// the ratio of unchanged sides at the confidence), from NoiseSource:
	// "calibration", or "default floor" for a single round.
	Noise       float64 `json:"noise,omitempty"`
	NoiseSource string  `json:"noise_source,omitempty"`
	// Over rounds, the pooled executions' bootstrap interval of the
	// median too: a change whose interval lies beyond FloorBound (1 + the
	// noise floor) is a verdict whatever the rounds say.
	PooledMedian *stats.Interval `json:"pooled_median,omitempty"`
	FloorBound   float64         `json:"floor_bound,omitempty"`
	// Work compares the work per execution of the scenario's paired
	// samples (work.go); nil when work is not compared or none paired.
	Work *WorkComparison `json:"work,omitempty"`
	// BaseCDF and CandidateCDF are each side's latency distribution
	// (distribution.go), for the views that draw it.
	BaseCDF      []CDFPoint `json:"base_cdf,omitempty"`
	CandidateCDF []CDFPoint `json:"candidate_cdf,omitempty"`
}

// Comparison is the outcome of compare.
type Comparison struct {
	Method     string               `json:"method"`
	Rule       string               `json:"rule"`
	Threshold  float64              `json:"threshold"`
	Confidence float64              `json:"confidence"`
	Resamples  int                  `json:"resamples"`
	Seed       uint64               `json:"seed"`
	Base       Side                 `json:"base"`
	Candidate  Side                 `json:"candidate"`
	Scenarios  []ScenarioComparison `json:"scenarios"`
	// Overall judges the geometric mean over scenarios of the per-round
	// median, which a slowdown of the whole server moves more surely than
	// any one scenario (over rounds only; nil otherwise). A regression
	// there fails the comparison too.
	Overall  *ScenarioComparison `json:"overall,omitempty"`
	Counts   map[string]int      `json:"counts"` // scenarios per verdict
	Warnings []string            `json:"warnings,omitempty"`
	// WorkBound is the growth of work per execution that is a regression
	// (work.go); WorkSkipped says why work was not compared ("" when it
	// was).
	WorkBound   float64 `json:"work_bound"`
	WorkSkipped string  `json:"work_skipped,omitempty"`
	// Saturated names the runs measured on a saturated client machine
	// ("side run-id: why"; saturation.go): their verdicts may be wrong.
	Saturated []string `json:"machine_saturated,omitempty"`
	// ChecksumsSkipped says why result checksums were not compared ("" when
	// they were).
	ChecksumsSkipped string `json:"checksums_skipped,omitempty"`
	// Stalls compares what the runs' actions cost each endpoint, when both
	// have actions (see stalls.go).
	Stalls *StallComparison `json:"stalls,omitempty"`
	// Methods is set when the runs differ by their actions (methods.go):
	// what the actions cost is judged then, and the latency verdicts of
	// the scenarios, of two separate runs, are shown and do not fail the
	// comparison.
	Methods *MethodComparison `json:"methods,omitempty"`
	// NoiseFloor applies to single-round comparisons; NoiseFile is the
	// calibration used ("" for none).
	NoiseFloor float64 `json:"noise_floor"`
	NoiseFile  string  `json:"noise_file,omitempty"`
	// Notes say what limits the verdicts (a single round per side).
	Notes []string `json:"notes,omitempty"`
	// Over rounds, intervals are simultaneous: each scenario's at
	// RoundsConfidence, the overall row's at OverallConfidence, so that
	// all of them together hold at Confidence (simultaneous.go).
	RoundsConfidence  float64 `json:"rounds_confidence,omitempty"`
	OverallConfidence float64 `json:"overall_confidence,omitempty"`
	// AllowMissing is Options.AllowMissing: scenarios measured on one side
	// only do not fail the comparison.
	AllowMissing bool `json:"allow_missing"`
	// SideFailures are the sides whose server stopped answering, lost its
	// connections or completed markedly fewer statements than the other
	// (CheckActivity): the comparison fails whatever the verdicts.
	SideFailures []SideFailure `json:"side_failures,omitempty"`
	// Pass is false when the comparison fails (see Failed), and Failures
	// then says why, one phrase each.
	Pass     bool     `json:"pass"`
	Failures []string `json:"failures,omitempty"`
}

// New returns an empty comparison made with the options opt (defaults
// applied): its settings, and no side read yet.
func New(opt Options) *Comparison {
	c := &Comparison{Threshold: opt.Threshold, Confidence: opt.Confidence, Resamples: opt.Resamples, Seed: opt.Seed,
		Counts: map[string]int{}, NoiseFloor: opt.NoiseFloor, AllowMissing: opt.AllowMissing, WorkBound: opt.WorkBound}
	if opt.Noise != nil {
		c.NoiseFile = opt.Noise.Path
	}
	return c
}

// Add appends judged scenarios and counts their verdicts.
func (c *Comparison) Add(scs ...ScenarioComparison) {
	for _, sc := range scs {
		c.Scenarios = append(c.Scenarios, sc)
		c.Counts[sc.Verdict]++
	}
}

// SkipChecksums records that result checksums are not compared when the
// runs modified data (writes: the scenarios that did, from run.json, on
// either side), and reports whether they are skipped.
func (c *Comparison) SkipChecksums(writes []string) bool {
	writes = slices.Compact(slices.Sorted(slices.Values(writes)))
	if len(writes) == 0 {
		return false
	}
	c.ChecksumsSkipped = fmt.Sprintf("result checksums not compared: the runs modified data (%s), so their rows differ whatever the server; "+
		"compare correctness with read-only runs (joinbench run --read-only --checksum)", strings.Join(writes, ", "))
	return true
}

// Failed reports whether the comparison fails: a side that failed, a
// regression (of a scenario or over all scenarios, unless the runs differ
// by their actions: Methods), wrong results, or a scenario measured on one
// side only (unless AllowMissing).
func (c *Comparison) Failed() bool {
	return len(c.failures()) > 0
}

// OverallRegressed reports whether the geometric mean over scenarios is a
// regression.
func (c *Comparison) OverallRegressed() bool {
	return c.Overall != nil && c.Overall.Verdict == Regression
}

// Unmeasured counts the scenarios measured on one side only.
func (c *Comparison) Unmeasured() int {
	n := 0
	for _, s := range c.Scenarios {
		if s.Unmeasured != "" {
			n++
		}
	}
	return n
}

// failures lists what fails the comparison, one phrase each; none when it
// passes.
func (c *Comparison) failures() []string {
	var out []string
	for _, f := range c.SideFailures {
		out = append(out, f.String())
	}
	for _, s := range []struct {
		name string
		side *Side
	}{{results.SideBase, &c.Base}, {results.SideCandidate, &c.Candidate}} {
		if s.side.NoSuccess {
			out = append(out, fmt.Sprintf("the %s has no successful execution: all %d of its executions failed", s.name, s.side.Executions))
		}
	}
	if n := c.Counts[WrongResults]; n > 0 {
		out = append(out, fmt.Sprintf("%d scenario(s) with wrong results", n))
	}
	if n := c.Counts[Regression]; n > 0 && c.Methods == nil {
		out = append(out, fmt.Sprintf("%d regression(s)", n))
	}
	if c.OverallRegressed() && c.Methods == nil {
		out = append(out, "a regression over all scenarios")
	}
	if n := c.Unmeasured(); n > 0 && !c.AllowMissing {
		out = append(out, fmt.Sprintf("%d scenario(s) measured on one side only (--allow-missing accepts them)", n))
	}
	return out
}
