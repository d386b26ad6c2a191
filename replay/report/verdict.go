package report

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/joinbench/joinbench/replay/stats"
)

// TooNoisy is the verdict on a scenario whose calibrated A/A noise, with
// the rounds at hand, is larger than the threshold: neither a change nor
// its absence can be told at that threshold.
const TooNoisy = "too noisy to judge"

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

// minPooledSamples is the fewest successful executions per side for the
// pooled median to count over rounds (a candidate many times slower may
// complete only a few).
const minPooledSamples = 5

// DefaultNoiseFloor is the smallest change a comparison with a single
// round on a side judges without a calibration. Whole runs on a shared
// machine were seen to drift by up to about 30% with nothing changed; a
// dropped index typically costs 2x or more.
const DefaultNoiseFloor = 0.5

// methodLabel is a method as the verdict lines print it.
func methodLabel(s *ScenarioComparison) string {
	switch s.Method {
	case MethodPaired:
		return "paired t"
	case MethodWelch:
		return "Welch t"
	case MethodBootstrap:
		return fmt.Sprintf("bootstrap, floor %.0f%%", (s.Bound-1)*100)
	}
	return ""
}

// judgeLatency sets the latency intervals of sc and returns the latency
// verdict. b and c are the pooled executions of each side, sr the
// scenario's rounds (nil when each side is one run folder).
func judgeLatency(sc *ScenarioComparison, b, c *scenarioAcc, sr *scenarioRounds, opt CompareOptions) string {
	cal := opt.Noise.Scenario(sc.Scenario)
	sc.BaseRounds, sc.CandidateRounds = 1, 1
	sc.BaseExecutions, sc.CandidateExecutions = b.m.Executions-b.m.Errors, c.m.Executions-c.m.Errors
	up := 1 + opt.Threshold
	noise := -1.0 // unknown
	pq := [3]float64{0.50, 0.95, 0.99}
	var iv [3]stats.Interval
	// Between-run drift stays under the noise floor: beyond it, the
	// pooled executions alone are enough to tell, however few the rounds.
	floor := opt.NoiseFloor
	if cal != nil {
		floor = cal.SingleRound
	}
	pooled := func() [3]stats.Interval {
		// Every execution, as the histograms hold them.
		bs, cs := b.m.Ranks(), c.m.Ranks()
		rng := rand.New(rand.NewPCG(opt.Seed, hashStrings(sc.Scenario)))
		var out [3]stats.Interval
		for i, q := range pq {
			out[i] = stats.BootstrapRatio(rng, bs, cs, q, opt.Resamples, opt.Confidence)
		}
		return out
	}

	if sr.enough() {
		for i, q := range pq {
			rs := roundSeries{base: logQuantiles(sr.base, q), cand: logQuantiles(sr.cand, q)}
			if len(sr.pairs) >= 2 {
				rs.diffs = pairedLogDiffs(sr.pairs, q)
			}
			var sigma *NoiseSigma
			if cal != nil {
				s := cal.sigma(q)
				sigma = &s
			}
			var n float64
			iv[i], sc.Method, n = roundsInterval(rs, sigma, cmp.Or(opt.roundsConfidence, opt.Confidence), opt)
			if i == 0 {
				noise = n
			}
		}
		if sc.Method == MethodPaired {
			sc.BaseRounds, sc.CandidateRounds = len(sr.pairs), len(sr.pairs)
			sc.BaseExecutions, sc.CandidateExecutions = 0, 0
			for _, p := range sr.pairs {
				sc.BaseExecutions += p[0].Seen()
				sc.CandidateExecutions += p[1].Seen()
			}
		} else {
			sc.BaseRounds, sc.CandidateRounds = len(sr.base), len(sr.cand)
			sc.BaseExecutions, sc.CandidateExecutions = executionsOf(sr.base), executionsOf(sr.cand)
		}
		// Only the median: a burst of load during one round moves the
		// pooled p95 of an A/A comparison by 1.5x and more, while the
		// interval over rounds sees it as the one round it is.
		if min(b.m.Successes(), c.m.Successes()) >= minPooledSamples {
			p := pooled()
			sc.PooledMedian = &p[0]
			sc.FloorBound = math.Max(up, 1+floor)
		}
	} else {
		sc.Method = MethodBootstrap
		if sr != nil {
			sc.BaseRounds, sc.CandidateRounds = len(sr.base), len(sr.cand)
		}
		iv = pooled()
		sc.NoiseSource = "default floor"
		if cal != nil {
			noise = cal.SingleRound
		}
		up = math.Max(up, 1+floor)
	}
	if cal != nil {
		sc.NoiseSource = "calibration"
	}
	sc.Median, sc.P95, sc.P99 = &iv[0], &iv[1], &iv[2]
	return decide(sc, up, noise, opt)
}

// roundSeries is one per-round statistic on the log scale: per side, and
// per pair (candidate minus base) when the rounds pair.
type roundSeries struct {
	base, cand []float64
	diffs      []float64
}

// roundsInterval returns the interval of the ratio over rounds (each side
// has two or more) at confidence conf, the method used, and the A/A noise
// that sigma, a calibration, predicts for these rounds (-1 without one).
func roundsInterval(rs roundSeries, sigma *NoiseSigma, conf float64, opt CompareOptions) (stats.Interval, string, float64) {
	noise := -1.0
	if len(rs.diffs) >= 2 && !opt.Unpaired {
		floor := 0.0
		if sigma != nil {
			floor = sigma.pairedSigma()
			noise = stats.RatioNoise(floor/math.Sqrt(float64(len(rs.diffs))), opt.Confidence)
		}
		return stats.PairedInterval(rs.diffs, floor, conf), MethodPaired, noise
	}
	floor := 0.0
	if sigma != nil {
		floor = sigma.Sigma
		noise = stats.RatioNoise(floor*math.Sqrt(1/float64(len(rs.base))+1/float64(len(rs.cand))), opt.Confidence)
	}
	return stats.WelchInterval(rs.base, rs.cand, floor, conf), MethodWelch, noise
}

// decide gives the latency verdict from sc's intervals (P95 may be nil).
//
// Over rounds (paired or Welch t), a regression is a change both real and
// large: the interval of the median (or p95) ratio lies wholly above 1, so
// that the candidate is slower at the simultaneous confidence, and the
// ratio itself is above up (1 + threshold). The intervals over rounds hold
// the variation between rounds, which is what an A/A comparison varies
// by, so requiring them to exclude 1 is what bounds false alarms;
// requiring them to lie wholly above up as well asked for a change about
// twice the threshold before a comparison of a few rounds could flag it
// (a 20-30% slowdown of every scenario went unflagged with 6 rounds per
// side). An improvement is the mirror image, on the median.
//
// With a single round on a side (the bootstrap), the interval sees only
// the noise between executions, not the drift of whole runs: the median's
// interval must lie wholly above up, the noise floor, and the p95 is not
// judged. In A/A runs of 40 s on a loaded machine the p95 of a single run
// moved by 2.26x (bootstrap interval 1.70-2.47) with the median unchanged,
// beyond any noise floor a dropped index would still pass. The pooled
// executions' median, over rounds, counts the same way (beyond the floor).
//
// When neither, a scenario whose calibrated noise (-1: none) exceeds the
// threshold is too noisy to judge.
func decide(sc *ScenarioComparison, up, noise float64, opt CompareOptions) string {
	sc.Bound = up
	if noise >= 0 {
		sc.Noise = noise
	}
	level := fmt.Sprintf("%.0f%% CI", opt.Confidence*100)
	if sc.Method != MethodBootstrap && opt.roundsConfidence > 0 {
		level = fmt.Sprintf("%.0f%% simultaneous CI", opt.Confidence*100)
	}
	how := func(iv *stats.Interval) string {
		return fmt.Sprintf("%s %.2f-%.2f, %s", level, iv.Low, iv.High, methodLabel(sc))
	}
	beyond := func(iv *stats.Interval) string {
		return fmt.Sprintf("beyond the %.0f%% noise floor: pooled executions, %.0f%% CI %.2f-%.2f, bootstrap", (sc.FloorBound-1)*100,
			opt.Confidence*100, iv.Low, iv.High)
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
		sc.Reasons = append(sc.Reasons, fmt.Sprintf("median %.2fx slower (%s)", med.Ratio, how(med)))
		return Regression
	case p95 != nil && overRounds && slower(p95):
		sc.Reasons = append(sc.Reasons, fmt.Sprintf("p95 %.2fx slower (%s)", p95.Ratio, how(p95)))
		return Regression
	case pm != nil && pm.Low > sc.FloorBound:
		sc.Reasons = append(sc.Reasons, fmt.Sprintf("median %.2fx slower, %s", pm.Ratio, beyond(pm)))
		return Regression
	case faster(med):
		sc.Reasons = append(sc.Reasons, fmt.Sprintf("median %.2fx faster (%s)", 1/med.Ratio, how(med)))
		return Improvement
	case pm != nil && pm.High < 1/sc.FloorBound:
		sc.Reasons = append(sc.Reasons, fmt.Sprintf("median %.2fx faster, %s", 1/pm.Ratio, beyond(pm)))
		return Improvement
	case noise > opt.Threshold:
		sc.Reasons = append(sc.Reasons, fmt.Sprintf("its A/A noise with %d and %d rounds is ±%.0f%% (calibration), more than the %.0f%% threshold",
			sc.BaseRounds, sc.CandidateRounds, noise*100, opt.Threshold*100))
		return TooNoisy
	}
	return NoChange
}

// sigma is the calibrated spread of the per-round statistic closest to
// quantile q: the p95's for the tail quantiles.
func (s *ScenarioNoise) sigma(q float64) NoiseSigma {
	if q > 0.5 {
		return s.P95
	}
	return s.Median
}

// verdictNotes say what limits the latency verdicts of a comparison.
func verdictNotes(c *Comparison, opt CompareOptions) []string {
	single, calibrated := 0, 0
	for _, s := range c.Scenarios {
		if s.Method == MethodBootstrap {
			single++
			if s.NoiseSource == "calibration" {
				calibrated++
			}
		}
	}
	if single == 0 {
		return nil
	}
	floor := fmt.Sprintf("%.0f%% (--noise-floor)", opt.NoiseFloor*100)
	switch {
	case calibrated == single:
		floor = "the calibrated noise of each scenario"
	case calibrated > 0:
		floor += ", or the calibrated noise of a scenario"
	}
	return []string{fmt.Sprintf("single round on a side (%d scenario(s)): variation between runs cannot be measured, "+
		"so latency changes count only beyond %s; to judge smaller changes, compare several rounds per side (joinbench ab)", single, floor)}
}
