package report

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// BenchmarkBuild reads and summarises 200k executions of 10 scenarios from
// two client-host files.
func BenchmarkBuild(b *testing.B) {
	var scs []scen
	for i := 0; i < 10; i++ {
		scs = append(scs, scen{name: "scenario_" + string(rune('a'+i)), n: 20000, medianMs: float64(i + 1), plan: "p"})
	}
	fixtureRowGroup = 1 << 16 // as real runs write
	defer func() { fixtureRowGroup = 700 }()
	dir := runFixture{id: "bench", execs: gen(1, 60, scs...)}.write(b, b.TempDir())
	b.ResetTimer()
	for b.Loop() {
		if _, err := Build([]string{dir}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(200000*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

func benchSamples() (base, cand []int64) {
	rng := rand.New(rand.NewPCG(1, 1))
	base, cand = make([]int64, 10000), make([]int64, 10000)
	for i := range base {
		base[i] = int64(1e6 + rng.IntN(1e6))
		cand[i] = int64(1.1e6 + rng.IntN(1e6))
	}
	slices.Sort(base)
	slices.Sort(cand)
	return base, cand
}

// BenchmarkBootstrapMedian is one scenario's median-ratio interval (2000
// resamples of 10k latencies a side) by order-statistic sampling...
func BenchmarkBootstrapMedian(b *testing.B) {
	base, cand := benchSamples()
	rng := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		bootstrapRatio(rng, sortedSample(base), sortedSample(cand), 0.5, 2000, 0.95)
	}
}

// ...and resampling the long way, for comparison.
func BenchmarkBootstrapMedianNaive(b *testing.B) {
	base, cand := benchSamples()
	rng := rand.New(rand.NewPCG(1, 2))
	bb, cb := make([]int64, len(base)), make([]int64, len(cand))
	rs := make([]float64, 2000)
	for b.Loop() {
		for i := range rs {
			for j := range bb {
				bb[j] = base[rng.IntN(len(base))]
				cb[j] = cand[rng.IntN(len(cand))]
			}
			slices.Sort(bb)
			slices.Sort(cb)
			rs[i] = float64(cb[len(cb)/2]) / float64(bb[len(bb)/2])
		}
		slices.Sort(rs)
	}
}
