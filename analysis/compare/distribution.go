package compare

import "github.com/joinbench/joinbench/analysis/metrics"

// CDFPoint is a point of a side's latency distribution: the share of its
// successful executions that took at most Ms.
type CDFPoint struct {
	Ms    float64 `json:"ms"`
	Share float64 `json:"share"`
}

// cdfPercentiles are where a side's distribution is read: evenly in the
// body, closer in the tail, where two sides differ most often.
var cdfPercentiles = func() []float64 {
	var p []float64
	for v := 0.0; v < 90; v += 2.5 {
		p = append(p, v)
	}
	return append(p, 90, 92, 94, 95, 96, 97, 98, 99, 99.5, 99.9, 100)
}()

// CDF reads a side's latency distribution from its metrics (closed), nil
// when it has no successful execution: what the compare view overlays
// for the two sides of a scenario.
func CDF(m *metrics.Metrics) []CDFPoint {
	if m == nil || m.Successes() == 0 {
		return nil
	}
	out := make([]CDFPoint, 0, len(cdfPercentiles))
	for _, p := range cdfPercentiles {
		out = append(out, CDFPoint{Ms: metrics.Milliseconds(m.Percentile(p)), Share: p / 100})
	}
	return out
}
