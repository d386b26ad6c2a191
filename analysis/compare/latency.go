package compare

import (
	"cmp"
	"math"
	"math/rand/v2"

	"github.com/joinbench/joinbench/analysis/stats"
)

// minPooledSamples is the fewest successful executions per side for the
// pooled median to count over rounds (a candidate many times slower may
// complete only a few).
const minPooledSamples = 5

// quantiles are the latency quantiles compared: the median, p95 and p99.
var quantiles = [3]float64{0.50, 0.95, 0.99}

// judgeLatency sets the latency intervals of sc and returns the latency
// verdict: over rounds when both sides have two (in.Rounds), else from the
// pooled executions by the bootstrap.
func (j *Judge) judgeLatency(sc *ScenarioComparison, in Scenario) string {
	b, c := in.Base.Metrics, in.Candidate.Metrics
	cal := j.opt.Noise.Scenario(sc.Scenario)
	sc.BaseRounds, sc.CandidateRounds = 1, 1
	sc.BaseExecutions, sc.CandidateExecutions = b.Successes(), c.Successes()
	up := 1 + j.opt.Threshold
	// Between-run drift stays under the noise floor: beyond it, the
	// pooled executions alone are enough to tell, however few the rounds.
	floor := j.opt.NoiseFloor
	if cal != nil {
		floor = cal.SingleRound
	}
	var iv [3]stats.Interval
	noise := -1.0 // unknown
	if sr := in.Rounds; sr.enough() {
		iv, noise = j.overRounds(sc, sr, cal)
		// Only the median: a burst of load during one round moves the
		// pooled p95 of an A/A comparison far beyond the floor, while the
		// interval over rounds sees it as the one round it is
		// (bench/README.md, "Rounds, measured before").
		if min(b.Successes(), c.Successes()) >= minPooledSamples {
			p := j.pooled(in)
			sc.PooledMedian = &p[0]
			sc.FloorBound = math.Max(up, 1+floor)
		}
	} else {
		sc.Method = MethodBootstrap
		if sr != nil {
			sc.BaseRounds, sc.CandidateRounds = len(sr.Base), len(sr.Candidate)
		}
		iv = j.pooled(in)
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
	return j.decide(sc, up, noise)
}

// pooled are the bootstrap intervals of the quantiles' ratios over every
// execution of each side, as the histograms hold them.
func (j *Judge) pooled(in Scenario) [3]stats.Interval {
	bs, cs := in.Base.Metrics.Ranks(), in.Candidate.Metrics.Ranks()
	rng := rand.New(rand.NewPCG(j.opt.Seed, HashStrings(in.Name)))
	var out [3]stats.Interval
	for i, q := range quantiles {
		out[i] = stats.BootstrapRatio(rng, bs, cs, q, j.opt.Resamples, j.opt.Confidence)
	}
	return out
}

// overRounds are the intervals of the quantiles' ratios over the rounds of
// a scenario (cal its calibration, or nil), and the A/A noise of the median
// the calibration predicts for these rounds (-1 without one). It sets the
// method, and the rounds and executions it used.
func (j *Judge) overRounds(sc *ScenarioComparison, sr *ScenarioRounds, cal *ScenarioNoise) ([3]stats.Interval, float64) {
	var iv [3]stats.Interval
	noise := -1.0
	for i, q := range quantiles {
		var sigma *NoiseSigma
		if cal != nil {
			s := cal.sigma(q)
			sigma = &s
		}
		var n float64
		iv[i], sc.Method, n = j.roundsInterval(sr.seriesOf(q), sigma, cmp.Or(j.roundsConfidence, j.opt.Confidence))
		if i == 0 {
			noise = n
		}
	}
	if sc.Method == MethodPaired {
		sc.BaseRounds, sc.CandidateRounds = len(sr.Pairs), len(sr.Pairs)
		sc.BaseExecutions, sc.CandidateExecutions = 0, 0
		for _, p := range sr.Pairs {
			sc.BaseExecutions += p[0].Seen()
			sc.CandidateExecutions += p[1].Seen()
		}
	} else {
		sc.BaseRounds, sc.CandidateRounds = len(sr.Base), len(sr.Candidate)
		sc.BaseExecutions, sc.CandidateExecutions = executionsOf(sr.Base), executionsOf(sr.Candidate)
	}
	return iv, noise
}

// roundsInterval returns the interval of the ratio over rounds (each side
// has two or more) at confidence conf, the method used, and the A/A noise
// that sigma, a calibration, predicts for these rounds (-1 without one).
func (j *Judge) roundsInterval(rs roundSeries, sigma *NoiseSigma, conf float64) (stats.Interval, string, float64) {
	noise := -1.0
	if len(rs.diffs) >= 2 && !j.opt.Unpaired {
		floor := 0.0
		if sigma != nil {
			floor = sigma.pairedSigma()
			noise = stats.RatioNoise(floor/math.Sqrt(float64(len(rs.diffs))), j.opt.Confidence)
		}
		return stats.PairedInterval(rs.diffs, floor, conf), MethodPaired, noise
	}
	floor := 0.0
	if sigma != nil {
		floor = sigma.Sigma
		noise = stats.RatioNoise(floor*math.Sqrt(1/float64(len(rs.base))+1/float64(len(rs.cand))), j.opt.Confidence)
	}
	return stats.WelchInterval(rs.base, rs.cand, floor, conf), MethodWelch, noise
}
