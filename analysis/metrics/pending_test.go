package metrics

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPendingLatenciesAllReachTheHistogram: latencies batched (pending.go)
// end up in the histogram whatever the number of them, whether it is read
// part way, merged before it is flushed, or closed.
func TestPendingLatenciesAllReachTheHistogram(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, pendingLatencies - 1, pendingLatencies, pendingLatencies + 1, 3*pendingLatencies + 17} {
		var m, merged Metrics
		want := NewHistogram()
		for i := range n {
			ns := int64(1e6 * math.Exp(rng.NormFloat64()))
			m.AddUnixNano(int64(i), 0, ns, 0, 0, 0, 0)
			Record(want, ns)
			if i == n/2 {
				m.Percentile(50) // a read part way records the batch so far
			}
		}
		merged.Merge(&m) // m not flushed yet
		if len(m.pending) != 0 {
			t.Errorf("%d latencies: Merge left %d pending in its source", n, len(m.pending))
		}
		m.Close()
		merged.Close()
		if !m.hist.Equals(want) || !merged.hist.Equals(want) {
			t.Errorf("%d latencies: histogram holds %d (merged %d), want %d", n, m.hist.TotalCount(), merged.hist.TotalCount(), want.TotalCount())
		}
		if m.Successes() != int64(n) || m.Latencies != merged.Latencies {
			t.Errorf("%d latencies: %d successes, latencies %+v, merged %+v", n, m.Successes(), m.Latencies, merged.Latencies)
		}
	}
}
