package report

import "github.com/joinbench/joinbench/replay/stats"

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
		out[i] = stats.LogQuantile(s.Sorted(), q)
	}
	return out
}

// pairedLogDiffs returns, per pair, log quantile q of the candidate round
// minus that of the base round.
func pairedLogDiffs(pairs [][2]*roundSample, q float64) []float64 {
	out := make([]float64, len(pairs))
	for i, p := range pairs {
		out[i] = stats.LogQuantile(p[1].Sorted(), q) - stats.LogQuantile(p[0].Sorted(), q)
	}
	return out
}
