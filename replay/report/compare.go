package report

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/joinbench/joinbench/replay/metrics"
	"github.com/joinbench/joinbench/replay/results"
	"github.com/joinbench/joinbench/replay/stats"
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
)

// CompareOptions tune a comparison.
type CompareOptions struct {
	// Threshold is the smallest slowdown that counts (0.10 = 10%).
	Threshold float64
	// Confidence of the intervals (0.95).
	Confidence float64
	// Resamples of the bootstrap (2000).
	Resamples int
	// Seed of the bootstrap and the samples (1): same inputs and seed,
	// same output.
	Seed uint64
	// MinSamples is the fewest successful executions per side for a
	// latency verdict from pooled executions (30); over rounds, each side
	// needs two rounds with a successful execution instead.
	MinSamples int
	// NoiseFloor is the smallest change judged when a side has a single
	// round (DefaultNoiseFloor), unless Noise calibrates the scenario.
	NoiseFloor float64
	// Noise is a calibration (ReadNoise, Calibrate), or nil.
	Noise *Noise
	// Unpaired compares rounds as independent samples even when they
	// ran in adjacent pairs.
	Unpaired bool
	// roundsConfidence and overallConfidence are the confidence of each
	// scenario's intervals over rounds and of the overall row's, set by
	// compare (simultaneous.go).
	roundsConfidence, overallConfidence float64
	// AllowMissing accepts scenarios measured on one side only (the
	// corpus changed between the runs): they no longer fail the
	// comparison. A side without any execution still does.
	AllowMissing bool
	// Warn receives problems that do not stop the comparison.
	Warn func(error)
}

func (o *CompareOptions) defaults() {
	if o.Threshold <= 0 {
		o.Threshold = 0.10
	}
	if o.Confidence <= 0 || o.Confidence >= 1 {
		o.Confidence = 0.95
	}
	if o.Resamples <= 0 {
		o.Resamples = 2000
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.MinSamples <= 0 {
		o.MinSamples = 30
	}
	if o.NoiseFloor <= 0 {
		o.NoiseFloor = DefaultNoiseFloor
	}
}

// Side describes the runs on one side of a comparison.
type Side struct {
	Runs          []string `json:"runs"`
	RunIDs        []string `json:"run_ids"`
	ServerVersion string   `json:"server_version,omitempty"`
	Flavor        string   `json:"flavor,omitempty"`
	Files         int      `json:"executions_files"`
	Executions    int64    `json:"executions"`
	// Rounds is the number of rounds: each run folder is one, except a
	// run in lockstep with the other side's, which holds one per time
	// slice (results.Replicate.Slice).
	Rounds int `json:"rounds"`
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
	Scenario         string           `json:"scenario"`
	Verdict          string           `json:"verdict"`
	Reasons          []string         `json:"reasons,omitempty"`
	Base             *metrics.Summary `json:"base,omitempty"`
	Candidate        *metrics.Summary `json:"candidate,omitempty"`
	Median           *stats.Interval  `json:"median,omitempty"`
	P95              *stats.Interval  `json:"p95,omitempty"`
	P99              *stats.Interval  `json:"p99,omitempty"`
	Errors           *ErrorRates      `json:"errors,omitempty"`
	PlanChanged      bool             `json:"plan_changed"`
	BasePlans        []string         `json:"base_plans,omitempty"`
	CandidatePlans   []string         `json:"candidate_plans,omitempty"`
	PlanDiff         string           `json:"plan_diff,omitempty"`
	Checksums        ChecksumCheck    `json:"checksums"`
	StatementChanged bool             `json:"statement_changed,omitempty"`
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
	// ChecksumsSkipped says why result checksums were not compared ("" when
	// they were).
	ChecksumsSkipped string `json:"checksums_skipped,omitempty"`
	// Stalls compares what the runs' actions cost each endpoint, when both
	// have actions (see stalls.go).
	Stalls *StallComparison `json:"stalls,omitempty"`
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
	// AllowMissing is CompareOptions.AllowMissing: scenarios measured on
	// one side only do not fail the comparison.
	AllowMissing bool `json:"allow_missing"`
	// Pass is false when the comparison fails (see Failed), and Failures
	// then says why, one phrase each.
	Pass     bool     `json:"pass"`
	Failures []string `json:"failures,omitempty"`
}

// Failed reports whether the comparison fails: a regression (of a
// scenario or over all scenarios), wrong results, or a scenario measured
// on one side only (unless AllowMissing).
func (c *Comparison) Failed() bool {
	return len(c.failures()) > 0
}

// OverallRegressed reports whether the geometric mean over scenarios is a
// regression.
func (c *Comparison) OverallRegressed() bool {
	return c.Overall != nil && c.Overall.Verdict == Regression
}

// methodText describes the statistics, for the output.
func methodText(o CompareOptions, judged int) (method, rule string) {
	method = fmt.Sprintf("each run folder is a round (a run in lockstep with the other side's: each of its time slices); per scenario, the candidate/base ratio of the median, p95 and p99 latency of successful executions "+
		"with a %.0f%% interval, by one of: paired t (rounds of the same number on both sides ran next to each other: "+
		"t interval of the mean log ratio of each pair's per-round quantiles), Welch t (two or more rounds on each side: "+
		"Welch t interval of the difference of mean log per-round quantiles), bootstrap (a single round on a side: "+
		"percentile bootstrap of the pooled executions, %d resamples, seed %d, every successful execution as the latency histogram holds it (within 0.1%%), "+
		"which cannot see variation between runs); over rounds, the (all scenarios) row judges the same way the per-round geometric "+
		"mean of the medians of the scenarios with an execution in every round",
		o.Confidence*100, o.Resamples, o.Seed)
	if judged > 0 {
		method += fmt.Sprintf("; the intervals over rounds are simultaneous, so that an A/A comparison fails with at most %.0f%% chance "+
			"however many scenarios it has (weighted Bonferroni: ", 100-o.Confidence*100)
		if o.overallConfidence > 0 {
			method += fmt.Sprintf("the overall row at %.4g%%, ", o.overallConfidence*100)
		}
		method += fmt.Sprintf("the median and p95 of each of the %d scenarios judged over rounds at %.4g%%)", judged, o.roundsConfidence*100)
	}
	if o.Noise != nil {
		method += fmt.Sprintf("; calibrated A/A noise from %s bounds the spread of per-round quantiles from below", o.Noise.Path)
	}
	t := o.Threshold * 100
	rule = fmt.Sprintf("regression: over rounds, the interval of the median or p95 ratio lies entirely above 1 (slower, at the simultaneous confidence) "+
		"and the ratio itself is above %.4g (slower by more than %.4g%%); "+
		"with the bootstrap, the median ratio's interval lies entirely above 1 + the noise floor (the calibrated single-round noise, else %.4g%%; a single run's p95 is not judged); "+
		"improvement: the mirror image on the median (interval below 1 and ratio below the inverse bound; with the bootstrap, interval below the inverse bound); "+
		"too noisy to judge: neither, and the calibrated A/A noise of the scenario with these rounds exceeds %.4g%%; "+
		"wrong results: any parameter set whose result checksum differs (sets whose checksum varies within a run are ignored); "+
		"an error rate up by at least 1 point (significant) is a regression; a regression of the (all scenarios) row fails the comparison too; "+
		"over rounds, a scenario whose pooled executions' bootstrap interval of the median lies beyond the noise floor gets the verdict too, however few the rounds",
		1+o.Threshold, t, o.NoiseFloor*100, t)
	return method, rule
}

// Compare reads the base and candidate run folders and compares them
// scenario by scenario. Each run folder of a side is one round: with
// several rounds on both sides, latency verdicts come from the spread
// between rounds.
func Compare(baseDirs, candDirs []string, opt CompareOptions) (*Comparison, error) {
	c, _, err := compare(baseDirs, candDirs, opt)
	return c, err
}

// compare is Compare that also returns the rounds of each scenario (nil
// when each side is one run folder).
func compare(baseDirs, candDirs []string, opt CompareOptions) (*Comparison, *sideRounds, error) {
	opt.defaults()
	c := &Comparison{Threshold: opt.Threshold, Confidence: opt.Confidence, Resamples: opt.Resamples, Seed: opt.Seed,
		Counts: map[string]int{}, NoiseFloor: opt.NoiseFloor, AllowMissing: opt.AllowMissing}
	if opt.Noise != nil {
		c.NoiseFile = opt.Noise.Path
	}
	w := warner{list: &c.Warnings, fn: opt.Warn}

	// The two sides are read at once, each with its own warnings, which
	// are then given base first as when they were read one after the other.
	type sideRead struct {
		acc      *runAcc
		cat      *planCatalog
		writes   []string
		info     *results.Run
		warnings []string
		err      error
	}
	read := func(name string, dirs []string, side *Side) *sideRead {
		r := &sideRead{}
		r.acc, r.cat, r.writes, r.info, r.err = readSide(name, dirs, side, opt, warner{list: &r.warnings})
		return r
	}
	var br *sideRead
	done := make(chan struct{})
	go func() {
		defer close(done)
		br = read(results.SideBase, baseDirs, &c.Base)
	}()
	cr := read(results.SideCandidate, candDirs, &c.Candidate)
	<-done
	for _, r := range []*sideRead{br, cr} {
		for _, msg := range r.warnings {
			w.warn(errors.New(msg))
		}
	}
	for _, r := range []*sideRead{br, cr} {
		if r.err != nil {
			return nil, nil, r.err
		}
	}
	base, baseCat, baseWrites, baseInfo := br.acc, br.cat, br.writes, br.info
	cand, candCat, candWrites, candInfo := cr.acc, cr.cat, cr.writes, cr.info
	examples, err := checksumExamples(candDirs, base, cand, opt)
	if err != nil {
		return nil, nil, err
	}
	if d := optionDifferences(baseInfo, candInfo); len(d) > 0 {
		w.warn(fmt.Errorf("the runs were made with different options (%s): a difference may come from them, not from the server",
			strings.Join(d, "; ")))
	}
	if writes := slices.Compact(slices.Sorted(slices.Values(append(baseWrites, candWrites...)))); len(writes) > 0 {
		c.ChecksumsSkipped = fmt.Sprintf("result checksums not compared: the runs modified data (%s), so their rows differ whatever the server; "+
			"compare correctness with read-only runs (joinbench run --read-only --checksum)", strings.Join(writes, ", "))
		examples = nil
	}

	names := map[string]bool{}
	for n := range base.scenarios {
		names[n] = true
	}
	for n := range cand.scenarios {
		names[n] = true
	}
	for n := range cutNames(base.cut, cand.cut) {
		names[n] = true
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	slices.Sort(sorted)
	rounds, err := readSideRounds(baseDirs, candDirs, sorted, opt, w)
	if err != nil {
		return nil, nil, err
	}
	if rounds != nil {
		c.Base.Rounds, c.Candidate.Rounds = len(rounds.base), len(rounds.cand)
	}
	judged, overall := rounds.roundsTests()
	opt.roundsConfidence, opt.overallConfidence = simultaneousConfidence(opt.Confidence, judged, overall)
	c.RoundsConfidence, c.OverallConfidence = opt.roundsConfidence, opt.overallConfidence
	c.Method, c.Rule = methodText(opt, judged)
	// Scenarios are judged in parallel: each reads only its own figures
	// and draws from its own seeded generator, so the output is the same.
	judgedScen := make([]ScenarioComparison, len(sorted))
	eachParallel(len(sorted), func(i int) {
		n := sorted[i]
		judgedScen[i] = compareScenario(n, base.scenarios[n], cand.scenarios[n], baseCat, candCat, examples[n], c.ChecksumsSkipped == "", rounds.of(n), opt)
	})
	for _, sc := range judgedScen {
		if sc.Verdict == OnlyInBase {
			if why := neverCompleted(sc.Scenario, base.scenarios[sc.Scenario], cand.cut[sc.Scenario], candInfo, len(sorted), opt); why != "" {
				// Judged now: a regression, no longer data missing.
				sc.Verdict, sc.Reasons, sc.Unmeasured = Regression, []string{why}, ""
			}
		}
		noteCut(&sc, base.cut[sc.Scenario], cand.cut[sc.Scenario])
		c.Scenarios = append(c.Scenarios, sc)
		c.Counts[sc.Verdict]++
	}
	if c.Stalls, err = compareStalls(baseDirs, candDirs, w); err != nil {
		return nil, nil, err
	}
	c.Overall = overallComparison(rounds, c.Scenarios, opt)
	c.Notes = append(verdictNotes(c, opt), cutNote(base.cut, cand.cut)...)
	c.Failures = c.failures()
	c.Pass = len(c.Failures) == 0
	return c, rounds, nil
}

// comparedOptions are the run options that change what a run measures or
// what it costs the client: two runs that differ in one are not a
// like-for-like comparison of their servers. Each is named by its run.json
// key.
var comparedOptions = []struct {
	key   string
	value func(*results.RunOptions) any
}{
	{"threads", func(o *results.RunOptions) any { return o.Threads }},
	{"rate", func(o *results.RunOptions) any { return o.Rate }},
	{"skip_trx", func(o *results.RunOptions) any { return o.SkipTrx }},
	{"ps_mode", func(o *results.RunOptions) any { return o.PsMode }},
	{"exec_path", func(o *results.RunOptions) any { return o.ExecPath }},
	{"checksum", func(o *results.RunOptions) any { return o.Checksum }},
	{"live_results", func(o *results.RunOptions) any { return o.LiveResults }},
	{"seed", func(o *results.RunOptions) any { return o.Seed }},
	{"distribution", func(o *results.RunOptions) any { return o.Distribution }},
	{"tables", func(o *results.RunOptions) any { return o.Tables }},
	{"table_size", func(o *results.RunOptions) any { return o.TableSize }},
	{"table_name", func(o *results.RunOptions) any { return o.TableName }},
	{"read_only", func(o *results.RunOptions) any { return o.ReadOnly }},
	{"explain", func(o *results.RunOptions) any { return o.Explain }},
}

// optionDifferences lists the comparedOptions whose values differ between
// two runs' run.json, as "name base vs candidate". Options a run does not
// record (an older joinbench) are not compared.
func optionDifferences(base, cand *results.Run) []string {
	if base == nil || cand == nil || base.Options == nil || cand.Options == nil {
		return nil
	}
	var out []string
	for _, o := range comparedOptions {
		if !base.Options.Recorded(o.key) || !cand.Options.Recorded(o.key) {
			continue
		}
		b, c := o.value(base.Options), o.value(cand.Options)
		if b != c {
			out = append(out, fmt.Sprintf("%s %v vs %v", o.key, b, c))
		}
	}
	return out
}

// checksumExamples returns, per scenario, the parameters of up to 20
// candidate rows whose result checksum differs from the base's for the
// same parameters. Parameters are not kept while reading, so the candidate
// is read a second time, by rows holding checksums only, when the
// checksums kept show a possible mismatch: the examples are those of
// looking at each candidate row in file order with the base at hand.
func checksumExamples(candDirs []string, base, cand *runAcc, opt CompareOptions) (map[string]map[uint64][]string, error) {
	examples := map[string]map[uint64][]string{}
	if !mayMismatch(base, cand) {
		return examples, nil
	}
	onChecksum := func(a *scenarioAcc, params []string, checksum string) {
		b := base.scenarios[a.name]
		if b == nil {
			return
		}
		key := hashStrings(params...)
		bv, ok := b.checks.sums[key]
		if !ok || bv.hash == 0 || bv.hash == hashStrings(checksum) {
			return
		}
		ex := examples[a.name]
		if ex == nil {
			ex = map[uint64][]string{}
			examples[a.name] = ex
		}
		if len(ex) < 20 {
			if _, ok := ex[key]; !ok {
				ex[key] = cloneParams(params) // params share their page's memory: keep copies
			}
		}
	}
	again := newRunAcc(true)
	again.onChecksum = onChecksum
	for _, d := range candDirs {
		if err := again.readRun(d, nil); err != nil { // its warnings were given the first time
			return nil, err
		}
	}
	return examples, nil
}

// mayMismatch reports whether a candidate row may have a checksum other
// than the base's for the same parameters: a parameter set kept on both
// sides whose candidate checksum is not the base's one (or varied), or
// candidate sets not kept (past maxChecksumKeys) where the base has some.
func mayMismatch(base, cand *runAcc) bool {
	for name, c := range cand.scenarios {
		b := base.scenarios[name]
		if b == nil || len(b.checks.sums) == 0 {
			continue
		}
		if c.checks.dropped > 0 {
			return true
		}
		for key, cv := range c.checks.sums {
			if bv, ok := b.checks.sums[key]; ok && bv.hash != 0 && cv.hash != bv.hash {
				return true
			}
		}
	}
	return false
}

// readSide reads one side (name: results.SideBase or SideCandidate) of a
// comparison; it also returns the scenarios that modified data in any of
// its runs, and the run.json of its first run. A side without a single
// readable execution is a *NoExecutionsError; a run folder without one,
// among others that have some, is warned about.
func readSide(name string, dirs []string, side *Side, opt CompareOptions, w warner) (*runAcc, *planCatalog, []string, *results.Run, error) {
	acc := newRunAcc(true)
	var plans []results.Plan
	var first *results.Run
	var writes, failed, empty []string
	for _, d := range dirs {
		side.Runs = append(side.Runs, d)
		id := results.RunIDFromDir(d)
		if info := results.ReadRunInfo(d, w.warn); info != nil {
			if info.RunID != "" {
				id = info.RunID
			}
			if info.Error != "" {
				failed = append(failed, fmt.Sprintf("%s: the run failed: %s", d, info.Error))
			}
			writes = append(writes, info.WriteScenarios...)
			if side.ServerVersion == "" {
				side.ServerVersion, side.Flavor = info.ServerVersion, string(info.Flavor)
				first = info
			} else if side.ServerVersion != info.ServerVersion {
				w.warn(fmt.Errorf("%s: server version %s differs from %s in the same side", d, info.ServerVersion, side.ServerVersion))
			}
		}
		side.RunIDs = append(side.RunIDs, id)
		before := acc.executions()
		if err := acc.readRun(d, w.warn); err != nil {
			return nil, nil, nil, nil, err
		}
		if acc.executions() == before {
			empty = append(empty, d)
		}
		p, err := results.ReadPlans(d, w.warn)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		plans = append(plans, p...)
	}
	side.Files = acc.files
	side.Rounds = len(dirs)
	side.Executions = acc.executions()
	if side.Executions == 0 {
		return nil, nil, nil, nil, &NoExecutionsError{Side: name, Dirs: dirs, Failed: failed, Cut: acc.cut.describe()}
	}
	if len(empty) > 0 {
		w.warn(fmt.Errorf("%s: no readable executions in %s: a round that recorded nothing counts for no scenario",
			name, strings.Join(empty, ", ")))
	}
	return acc, newPlanCatalog(first, plans), writes, first, nil
}

func compareScenario(name string, b, c *scenarioAcc, bcat, ccat *planCatalog, examples map[uint64][]string, checkResults bool,
	rounds *scenarioRounds, opt CompareOptions) (sc ScenarioComparison) {
	sc = ScenarioComparison{Scenario: name}
	if b != nil {
		s := b.summary()
		sc.Base = &s
	}
	if c != nil {
		s := c.summary()
		sc.Candidate = &s
	}
	defer markUnmeasured(&sc, b, c)
	switch {
	case c == nil:
		sc.Verdict = OnlyInBase
		return sc
	case b == nil:
		sc.Verdict = OnlyInCandidate
		return sc
	}

	// Statement text.
	for h := range c.templates {
		if len(b.templates) > 0 && !b.templates[h] {
			sc.StatementChanged = true
			sc.Reasons = append(sc.Reasons, "the scenario's statement differs between the runs")
			break
		}
	}

	// Correctness first: a different result for the same parameters.
	limit := max(bcat.limits[name], ccat.limits[name])
	for k, bv := range b.checks.sums {
		if !checkResults {
			break
		}
		cv, ok := c.checks.sums[k]
		if !ok || bv.hash == 0 || cv.hash == 0 {
			continue
		}
		sc.Checksums.Compared++
		if bv.hash != cv.hash && limit > 0 && bv.rows >= limit && cv.rows >= limit {
			sc.Checksums.CutByLimit++
			continue
		}
		if bv.hash != cv.hash {
			sc.Checksums.Mismatched++
			if ex, ok := examples[k]; ok && len(sc.Checksums.Examples) < 3 {
				sc.Checksums.Examples = append(sc.Checksums.Examples, ex)
			}
		}
	}
	slices.SortFunc(sc.Checksums.Examples, func(x, y []string) int { return strings.Compare(strings.Join(x, "\x00"), strings.Join(y, "\x00")) })

	// Error rates.
	er := &ErrorRates{}
	if b.m.Executions > 0 {
		er.Base = float64(b.m.Errors) / float64(b.m.Executions)
	}
	if c.m.Executions > 0 {
		er.Candidate = float64(c.m.Errors) / float64(c.m.Executions)
	}
	er.PValue = stats.TwoProportionP(b.m.Errors, b.m.Executions, c.m.Errors, c.m.Executions)
	sig := er.PValue < 1-opt.Confidence
	er.Increased = sig && er.Candidate-er.Base >= 0.01
	er.Decreased = sig && er.Base-er.Candidate >= 0.01
	for code := range c.m.ErrorCodes {
		if b.m.ErrorCodes[code] == 0 {
			er.NewCodes = append(er.NewCodes, code)
		}
	}
	slices.Sort(er.NewCodes)
	if b.m.Errors > 0 || c.m.Errors > 0 {
		sc.Errors = er
	}

	// Plans: the set of plan hashes used by successful executions.
	sc.BasePlans = sortedPlanHashes(b)
	sc.CandidatePlans = sortedPlanHashes(c)
	if len(sc.BasePlans) > 0 && len(sc.CandidatePlans) > 0 && !slices.Equal(sc.BasePlans, sc.CandidatePlans) {
		sc.PlanChanged = true
		bh, ch := dominantPlan(b), dominantPlan(c)
		bt, ct := bcat.text(name, bh), ccat.text(name, ch)
		if bt == "" {
			bt = "(plan " + bh + " not in plans.parquet)"
		}
		if ct == "" {
			ct = "(plan " + ch + " not in plans.parquet)"
		}
		sc.PlanDiff = fmt.Sprintf("--- base plan %s (%d of %d)\n+++ candidate plan %s (%d of %d)\n", bh, b.plans[bh], b.m.Executions-b.m.Errors,
			ch, c.plans[ch], c.m.Executions-c.m.Errors) + lineDiff(bt, ct)
	}

	// Latency.
	nb, nc := b.m.Successes(), c.m.Successes()
	latencyVerdict := ""
	if !rounds.enough() && (nb < int64(opt.MinSamples) || nc < int64(opt.MinSamples)) {
		latencyVerdict = InsufficientData
		sc.Reasons = append(sc.Reasons, fmt.Sprintf("fewer than %d successful executions on a side (%d base, %d candidate)",
			opt.MinSamples, nb, nc))
	} else {
		latencyVerdict = judgeLatency(&sc, b, c, rounds, opt)
	}

	if n := sc.Checksums.CutByLimit; n > 0 {
		sc.Reasons = append(sc.Reasons, fmt.Sprintf("%d of %d parameter sets return different rows where LIMIT %d cut the result: "+
			"rows tying under the ORDER BY may be kept by one plan and not another (not counted as wrong results)", n, sc.Checksums.Compared, limit))
	}
	switch {
	case sc.Checksums.Mismatched > 0:
		sc.Verdict = WrongResults
		sc.Reasons = append([]string{fmt.Sprintf("%d of %d parameter sets return different results", sc.Checksums.Mismatched, sc.Checksums.Compared)}, sc.Reasons...)
	case er.Increased:
		sc.Verdict = Regression
		sc.Reasons = append(sc.Reasons, fmt.Sprintf("error rate up from %.2f%% to %.2f%%", er.Base*100, er.Candidate*100))
	default:
		sc.Verdict = latencyVerdict
	}
	if er.Decreased && sc.Verdict != Regression && sc.Verdict != WrongResults {
		sc.Reasons = append(sc.Reasons, fmt.Sprintf("error rate down from %.2f%% to %.2f%%", er.Base*100, er.Candidate*100))
	}
	if len(er.NewCodes) > 0 {
		codes := make([]string, len(er.NewCodes))
		for i, c := range er.NewCodes {
			codes[i] = fmt.Sprint(c)
		}
		sc.Reasons = append(sc.Reasons, "new error codes: "+strings.Join(codes, ", "))
	}
	if sc.PlanChanged {
		sc.Reasons = append(sc.Reasons, "plan changed")
	}
	return sc
}

func sortedPlanHashes(a *scenarioAcc) []string {
	var out []string
	for h := range a.plans {
		out = append(out, h)
	}
	slices.Sort(out)
	return out
}

func dominantPlan(a *scenarioAcc) string {
	best, n := "", int64(-1)
	for _, h := range sortedPlanHashes(a) {
		if a.plans[h] > n {
			best, n = h, a.plans[h]
		}
	}
	return best
}
