package compare

import (
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analysis/stats"
)

// TestDecideRule: over rounds a regression is an interval wholly above 1
// with a ratio above the threshold's bound; with the bootstrap of a single
// round, the interval must clear the noise floor.
func TestDecideRule(t *testing.T) {
	j := &Judge{opt: Options{Threshold: 0.1, Confidence: 0.95}}
	for _, tc := range []struct {
		name   string
		method string
		med    stats.Interval
		p95    *stats.Interval
		up     float64
		want   string
	}{
		{"slower and beyond the threshold", MethodPaired, stats.Interval{Ratio: 1.25, Low: 1.04, High: 1.5}, nil, 1.1, Regression},
		{"slower but within the threshold", MethodPaired, stats.Interval{Ratio: 1.06, Low: 1.02, High: 1.1}, nil, 1.1, NoChange},
		{"beyond the threshold but not surely slower", MethodWelch, stats.Interval{Ratio: 1.3, Low: 0.97, High: 1.7}, nil, 1.1, NoChange},
		{"p95 slower and beyond", MethodPaired, stats.Interval{Ratio: 1.0, Low: 0.9, High: 1.1}, &stats.Interval{Ratio: 1.4, Low: 1.1, High: 1.8}, 1.1, Regression},
		{"faster and beyond", MethodPaired, stats.Interval{Ratio: 0.8, Low: 0.7, High: 0.95}, nil, 1.1, Improvement},
		{"faster but within", MethodPaired, stats.Interval{Ratio: 0.95, Low: 0.92, High: 0.98}, nil, 1.1, NoChange},
		{"single round below the floor", MethodBootstrap, stats.Interval{Ratio: 1.3, Low: 1.25, High: 1.35}, nil, 1.5, NoChange},
		{"single round beyond the floor", MethodBootstrap, stats.Interval{Ratio: 2, Low: 1.8, High: 2.2}, nil, 1.5, Regression},
		{"single round p95 not judged", MethodBootstrap, stats.Interval{Ratio: 1, Low: 0.9, High: 1.1}, &stats.Interval{Ratio: 3, Low: 2, High: 4}, 1.5, NoChange},
	} {
		med := tc.med
		sc := &ScenarioComparison{Scenario: "x", Method: tc.method, Median: &med, P95: tc.p95}
		if got := j.decide(sc, tc.up, -1); got != tc.want {
			t.Errorf("%s: %s (%q), want %s", tc.name, got, sc.Reasons, tc.want)
		}
	}
}

// TestImprovementSaysOneDirection: "2.63x faster" comes with the interval
// of that same ratio (2.44-2.86), not of its inverse (0.35-0.41).
func TestImprovementSaysOneDirection(t *testing.T) {
	j := &Judge{opt: Options{Threshold: 0.1, Confidence: 0.95}}
	sc := &ScenarioComparison{Scenario: "x", Method: MethodBootstrap, Median: &stats.Interval{Ratio: 0.38, Low: 0.35, High: 0.41}}
	if got := j.decide(sc, 1.5, -1); got != Improvement {
		t.Fatalf("%s", got)
	}
	if want := "median 2.63x faster (95% CI 2.44-2.86, bootstrap"; len(sc.Reasons) != 1 || !strings.HasPrefix(sc.Reasons[0], want) {
		t.Errorf("reasons %q, want %q...", sc.Reasons, want)
	}
}
