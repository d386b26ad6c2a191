package metrics

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// TestRanksMatchTheHistogram checks the counts walk against the HDR
// library's own iteration on latencies over the whole range (and its two
// clamped ends), and the ranks against the library's quantiles.
func TestRanksMatchTheHistogram(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 20 {
		var m Metrics
		n := 1 + rng.IntN(5000)
		for range n {
			// log-uniform from 0.5 µs to 2 hours
			v := int64(math.Exp(math.Log(500) + rng.Float64()*(math.Log(7.2e12)-math.Log(500))))
			m.Add(&Execution{Start: time.Unix(0, 0), LatencyNs: v})
		}
		m.Flush()
		type bar struct{ from, to, count int64 }
		var walked, lib []bar
		eachCount(m.hist, func(from, to, count int64) { walked = append(walked, bar{from, to, count}) })
		for _, b := range m.hist.Distribution() {
			if b.Count != 0 {
				lib = append(lib, bar{b.From, b.To, b.Count})
			}
		}
		if len(walked) != len(lib) {
			t.Fatalf("trial %d: %d non-empty counts walked, the library has %d", trial, len(walked), len(lib))
		}
		for i := range lib {
			if walked[i] != lib[i] {
				t.Fatalf("trial %d, count %d: walked %+v, the library %+v", trial, i, walked[i], lib[i])
			}
		}
		r := m.Ranks()
		if r.Len() != n {
			t.Fatalf("trial %d: %d ranks of %d latencies", trial, r.Len(), n)
		}
		for _, q := range []float64{0.01, 0.5, 0.95, 0.99, 1} {
			// the rank HDR's quantile takes: q·n rounded, at least 1
			i := min(max(int(q*float64(n)+0.5), 1), n) - 1
			if got, want := r.At(i), int64(m.Percentile(q*100)); got != want {
				t.Errorf("trial %d: rank %d of %d (q %v) is %d, the histogram's quantile %d", trial, i+1, n, q, got, want)
			}
		}
	}
	var none Metrics
	if none.Ranks() != nil {
		t.Error("ranks of no latency")
	}
}
