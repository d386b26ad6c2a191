package compare

import (
	"fmt"

	"github.com/joinbench/joinbench/analysis/stats"
)

// decide gives the latency verdict from sc's intervals (P95 may be nil).
// What it decides is stated for users by the steps of rule.go; this says
// why.
//
// Over rounds (paired or Welch t), a regression is a change both real and
// large: the interval of the median (or p95) ratio lies wholly above 1, so
// that the candidate is slower at the simultaneous confidence, and the
// ratio itself is above up (1 + threshold). The intervals over rounds hold
// the variation between rounds, which is what an A/A comparison varies
// by, so requiring them to exclude 1 is what bounds false alarms;
// requiring them to lie wholly above up as well would ask for a change
// about twice the threshold before a comparison of a few rounds could
// flag it (bench/README.md, "Rounds, measured before"). An improvement is
// the mirror image, on the median.
//
// With a single round on a side (the bootstrap), the interval sees only
// the noise between executions, not the drift of whole runs: the median's
// interval must lie wholly above up, the noise floor, and the p95 is not
// judged: with the median unchanged, a single run's p95 moves with the
// machine's load beyond any noise floor a dropped index would still pass
// (bench/README.md, "Rounds, measured before"). The pooled
// executions' median, over rounds, counts the same way (beyond the floor).
//
// When neither, a scenario whose calibrated noise (-1: none) exceeds the
// threshold is too noisy to judge.
func (j *Judge) decide(sc *ScenarioComparison, up, noise float64) string {
	sc.Bound = up
	sc.Detectable = detectable(sc, up)
	if noise >= 0 {
		sc.Noise = noise
	}
	overRounds := sc.Method != MethodBootstrap
	slower := func(iv *stats.Interval) bool {
		if overRounds {
			return iv.Low > 1 && iv.Ratio > up
		}
		return iv.Low > up
	}
	faster := func(iv *stats.Interval) bool {
		if overRounds {
			return iv.High < 1 && iv.Ratio < 1/up
		}
		return iv.High < 1/up
	}
	med, p95, pm := sc.Median, sc.P95, sc.PooledMedian
	switch {
	case slower(med):
		sc.Reasons = append(sc.Reasons, fmt.Sprintf("median %.2fx slower (%s)", med.Ratio, j.how(sc, med)))
		return Regression
	case p95 != nil && overRounds && slower(p95):
		sc.Reasons = append(sc.Reasons, fmt.Sprintf("p95 %.2fx slower (%s)", p95.Ratio, j.how(sc, p95)))
		return Regression
	case pm != nil && pm.Low > sc.FloorBound:
		sc.Reasons = append(sc.Reasons, fmt.Sprintf("median %.2fx slower, %s", pm.Ratio, j.beyondFloor(sc, pm)))
		return Regression
	case faster(med):
		sc.Reasons = append(sc.Reasons, fmt.Sprintf("median %.2fx faster (%s)", 1/med.Ratio, j.how(sc, inverse(med))))
		return Improvement
	case pm != nil && pm.High < 1/sc.FloorBound:
		sc.Reasons = append(sc.Reasons, fmt.Sprintf("median %.2fx faster, %s", 1/pm.Ratio, j.beyondFloor(sc, inverse(pm))))
		return Improvement
	case noise > j.opt.Threshold:
		sc.Reasons = append(sc.Reasons, fmt.Sprintf("its A/A noise with %d and %d rounds is ±%.0f%% (calibration), more than the %.0f%% threshold",
			sc.BaseRounds, sc.CandidateRounds, noise*100, j.opt.Threshold*100))
		return TooNoisy
	}
	return NoChange
}

// inverse is iv of the inverse ratio (base/candidate): an improvement is
// said as "x times faster", its interval in the same direction.
func inverse(iv *stats.Interval) *stats.Interval {
	return &stats.Interval{Ratio: 1 / iv.Ratio, Low: 1 / iv.High, High: 1 / iv.Low}
}

// how says at which confidence, and by which method, an interval of sc
// was drawn.
func (j *Judge) how(sc *ScenarioComparison, iv *stats.Interval) string {
	level := fmt.Sprintf("%.0f%% CI", j.opt.Confidence*100)
	if sc.Method != MethodBootstrap && j.roundsConfidence > 0 {
		level = fmt.Sprintf("%.0f%% simultaneous CI", j.opt.Confidence*100)
	}
	return fmt.Sprintf("%s %.2f-%.2f, %s", level, iv.Low, iv.High, MethodLabel(sc))
}

// beyondFloor says that the pooled executions' interval iv of sc lies
// beyond the noise floor.
func (j *Judge) beyondFloor(sc *ScenarioComparison, iv *stats.Interval) string {
	return fmt.Sprintf("beyond the %.0f%% noise floor: pooled executions, %.0f%% CI %.2f-%.2f, bootstrap", (sc.FloorBound-1)*100,
		j.opt.Confidence*100, iv.Low, iv.High)
}
