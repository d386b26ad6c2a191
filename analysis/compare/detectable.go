package compare

import (
	"math"

	"github.com/joinbench/joinbench/analysis/stats"
)

// What a verdict can see. A "no change" is only as strong as the
// intervals behind it: with few rounds, or few executions, a 15% slowdown
// can hide inside an interval that holds 1. detectable says how large a
// slowdown the rule would have called a regression with the intervals at
// hand, so that a "no change" reads "no change larger than N%".
//
// The intervals are on the log scale, so a true ratio R would have given
// about the same interval shifted to R: [R·Low/Ratio, R·High/Ratio]. The
// rule calls R a regression (decide) when, over rounds, that interval's
// low end is above 1 and R above the bound; with the bootstrap, when its
// low end is above the bound; from the pooled executions, when its low
// end is above the floor's bound. The smallest such R, less 1, is the
// detectable change: a true change of that size is called about half the
// time (the interval's centre falls on either side of it), one the
// interval's width larger almost always. It is the median's: the p95 may
// catch a change of the tail alone before it.

// detectable is the smallest slowdown, as a fraction (0.08: 8%), that the
// rule would call a regression given sc's median intervals and bound up
// (decide's); 0 when there is no interval to tell.
func detectable(sc *ScenarioComparison, up float64) float64 {
	best := math.Inf(1)
	if r := smallestCalled(sc.Median, sc.Method != MethodBootstrap, up); r > 0 {
		best = r
	}
	if r := smallestCalled(sc.PooledMedian, false, sc.FloorBound); r > 0 {
		best = math.Min(best, r)
	}
	if math.IsInf(best, 1) {
		return 0
	}
	return best - 1
}

// smallestCalled is the smallest true ratio whose interval, shaped as iv,
// the rule calls slower: over rounds (low end above 1, ratio above
// bound), else low end above bound. 0 without a usable interval.
func smallestCalled(iv *stats.Interval, overRounds bool, bound float64) float64 {
	if iv == nil || iv.Low <= 0 || iv.Ratio <= 0 || math.IsInf(iv.High, 0) || math.IsNaN(iv.Low) {
		return 0
	}
	below := iv.Ratio / iv.Low // e^h, h the interval's lower half-width
	if overRounds {
		return math.Max(below, bound)
	}
	return bound * below
}
