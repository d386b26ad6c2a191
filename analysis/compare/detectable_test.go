package compare

import (
	"math"
	"testing"

	"github.com/joinbench/joinbench/analysis/stats"
)

// The detectable change is the rule's own boundary: the same intervals
// moved to a true ratio just above 1+Detectable are called a regression,
// just below it not, by every path (over rounds, the bootstrap, the
// pooled median over rounds).
func TestDetectableIsTheRulesBoundary(t *testing.T) {
	j := &Judge{opt: Options{Threshold: 0.1, Confidence: 0.95}}
	cases := []struct {
		name   string
		method string
		median stats.Interval
		pooled *stats.Interval
		floor  float64
		up     float64
		want   float64
	}{
		// Over rounds, a narrow interval: the threshold bounds it.
		{"paired, narrow", MethodPaired, stats.Interval{Ratio: 1, Low: 0.98, High: 1.02}, nil, 0, 1.1, 0.1},
		// Over rounds, a wide interval: its low half-width bounds it.
		{"welch, wide", MethodWelch, stats.Interval{Ratio: 1.05, Low: 0.84, High: 1.31}, nil, 0, 1.1, 0.25},
		// A single round: the floor's bound times the half-width.
		{"bootstrap", MethodBootstrap, stats.Interval{Ratio: 1.03, Low: 0.99, High: 1.06}, nil, 0, 1.5, 1.5*1.03/0.99 - 1},
		// Over rounds with a wide interval, the pooled executions see more.
		{"pooled sees more", MethodPaired, stats.Interval{Ratio: 1, Low: 0.5, High: 2}, &stats.Interval{Ratio: 1, Low: 0.99, High: 1.01}, 1.2, 1.1, 1.2/0.99 - 1},
	}
	shift := func(iv stats.Interval, r float64) *stats.Interval {
		k := r / iv.Ratio
		return &stats.Interval{Ratio: iv.Ratio * k, Low: iv.Low * k, High: iv.High * k}
	}
	for _, tc := range cases {
		sc := &ScenarioComparison{Method: tc.method, Median: &tc.median, PooledMedian: tc.pooled, FloorBound: tc.floor}
		if got := j.decide(sc, tc.up, -1); got != NoChange {
			t.Fatalf("%s: %s, want no change", tc.name, got)
		}
		if math.Abs(sc.Detectable-tc.want) > 1e-9 {
			t.Errorf("%s: detectable %.4f, want %.4f", tc.name, sc.Detectable, tc.want)
		}
		for _, f := range []float64{1.001, 0.999} {
			r := (1 + sc.Detectable) * f
			moved := &ScenarioComparison{Method: tc.method, Median: shift(tc.median, r), FloorBound: tc.floor}
			if tc.pooled != nil {
				moved.PooledMedian = shift(*tc.pooled, r)
			}
			got := j.decide(moved, tc.up, -1)
			if want := f > 1; (got == Regression) != want {
				t.Errorf("%s: a true ratio of %.4f (detectable %.4f) gives %s", tc.name, r, sc.Detectable, got)
			}
		}
	}
}

// No interval, no claim.
func TestDetectableUnknown(t *testing.T) {
	if d := detectable(&ScenarioComparison{Method: MethodBootstrap}, 1.5); d != 0 {
		t.Errorf("detectable without an interval: %v", d)
	}
	if d := detectable(&ScenarioComparison{Method: MethodPaired, Median: &stats.Interval{Ratio: 1, Low: 0, High: math.Inf(1)}}, 1.1); d != 0 {
		t.Errorf("detectable from an unbounded interval: %v", d)
	}
}
