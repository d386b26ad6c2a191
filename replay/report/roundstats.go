package report

import "math"

// Intervals over rounds. Each round of a side gives one statistic per
// scenario (its median, p95 or p99 latency); the ratio candidate/base is
// the ratio of the geometric means of those per-round statistics, and its
// interval is a t interval on their logarithms. The spread between rounds
// holds every source of noise at once (executions within a round, and
// whatever made whole runs faster or slower), which a bootstrap over the
// pooled executions does not see.
//
// Two forms:
//   - paired: rounds of the same number on both sides ran next to each
//     other (joinbench ab interleaves them), so a drift of the machine
//     hits both alike; the interval is on the mean of the per-pair log
//     differences, with n-1 degrees of freedom.
//   - Welch: rounds of the two sides are independent samples; the
//     interval uses Welch's standard error and degrees of freedom.
//
// A calibrated noise (calibrate.go) is a floor on the standard deviation:
// with few rounds the spread seen may be small by chance.

// logQuantiles returns the log of quantile q of each round's sample.
func logQuantiles(ss []*roundSample, q float64) []float64 {
	out := make([]float64, len(ss))
	for i, s := range ss {
		out[i] = math.Log(float64(max(sampleQuantile(s.vals, q), 1)))
	}
	return out
}

// pairedLogDiffs returns, per pair, log quantile q of the candidate round
// minus that of the base round.
func pairedLogDiffs(pairs [][2]*roundSample, q float64) []float64 {
	out := make([]float64, len(pairs))
	for i, p := range pairs {
		out[i] = math.Log(float64(max(sampleQuantile(p[1].vals, q), 1))) - math.Log(float64(max(sampleQuantile(p[0].vals, q), 1)))
	}
	return out
}

func meanVar(x []float64) (mean, variance float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	if len(x) < 2 {
		return mean, 0
	}
	for _, v := range x {
		variance += (v - mean) * (v - mean)
	}
	return mean, variance / float64(len(x)-1)
}

// logInterval turns a difference of logs, its standard error and degrees
// of freedom into a ratio with its two-sided interval.
func logInterval(diff, se, df, confidence float64) Interval {
	h := studentTQuantile(1-(1-confidence)/2, df) * se
	// Two rounds of a noisy scenario at a simultaneous confidence can
	// leave the bound beyond what a float holds: it stays the largest
	// one, which JSON can carry (it cannot carry +Inf).
	return Interval{Ratio: math.Exp(diff), Low: math.Exp(diff - h), High: math.Min(math.Exp(diff+h), math.MaxFloat64)}
}

// pairedInterval is the interval of exp(mean difference) of n >= 2 paired
// log differences; sdFloor bounds the standard deviation of a difference
// from below.
func pairedInterval(d []float64, sdFloor, confidence float64) Interval {
	mean, v := meanVar(d)
	sd := math.Max(math.Sqrt(v), sdFloor)
	n := float64(len(d))
	return logInterval(mean, sd/math.Sqrt(n), n-1, confidence)
}

// welchInterval is the interval of the ratio of geometric means of two
// independent samples of log statistics (each of at least 2 rounds);
// sdFloor bounds each side's standard deviation from below.
func welchInterval(base, cand []float64, sdFloor, confidence float64) Interval {
	mb, vb := meanVar(base)
	mc, vc := meanVar(cand)
	floor := sdFloor * sdFloor
	vb, vc = math.Max(vb, floor), math.Max(vc, floor)
	nb, nc := float64(len(base)), float64(len(cand))
	qb, qc := vb/nb, vc/nc
	se := math.Sqrt(qb + qc)
	df := nb + nc - 2
	if se > 0 {
		// Welch-Satterthwaite.
		df = (qb + qc) * (qb + qc) / (qb*qb/(nb-1) + qc*qc/(nc-1))
	}
	return logInterval(mc-mb, se, df, confidence)
}

// normalQuantile is the p-quantile of the standard normal distribution.
func normalQuantile(p float64) float64 { return math.Sqrt2 * math.Erfinv(2*p-1) }
