package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// sortedSample is a sorted slice as OrderStats.
type sortedSample []int64

func (s sortedSample) Len() int       { return len(s) }
func (s sortedSample) At(i int) int64 { return s[i] }

// TestBootstrapIndexMatchesNaive checks the order-statistic shortcut
// against resampling done the long way: the two bootstrap distributions of
// the median and p95 must agree.
func TestBootstrapIndexMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, B = 2000, 3000
	for _, q := range []float64{0.5, 0.95} {
		fast := make([]float64, B)
		naive := make([]float64, B)
		buf := make([]int, n)
		for b := 0; b < B; b++ {
			fast[b] = float64(bootstrapIndex(rng, n, q))
			for i := range buf {
				buf[i] = rng.IntN(n)
			}
			slices.Sort(buf)
			naive[b] = float64(buf[QuantileRank(n, q)-1])
		}
		slices.Sort(fast)
		slices.Sort(naive)
		for _, p := range []float64{0.025, 0.25, 0.5, 0.75, 0.975} {
			f, v := fast[int(p*B)], naive[int(p*B)]
			// the bootstrap index spreads over about sqrt(n q (1-q)) ranks
			tol := 0.2*math.Sqrt(n*q*(1-q)) + 2
			if math.Abs(f-v) > tol {
				t.Errorf("q=%v: %v-quantile of resampled index: shortcut %v, naive %v", q, p, f, v)
			}
		}
	}
}

func TestBootstrapRatioDeterministic(t *testing.T) {
	base := make([]int64, 500)
	cand := make([]int64, 500)
	for i := range base {
		base[i] = int64(1000 + i)
		cand[i] = int64(2000 + 2*i)
	}
	a := BootstrapRatio(rand.New(rand.NewPCG(9, 9)), sortedSample(base), sortedSample(cand), 0.5, 1000, 0.95)
	b := BootstrapRatio(rand.New(rand.NewPCG(9, 9)), sortedSample(base), sortedSample(cand), 0.5, 1000, 0.95)
	if a != b {
		t.Errorf("same seed, different intervals: %+v %+v", a, b)
	}
	if a.Ratio != 2 || a.Low > 2 || a.High < 2 || a.Low < 1.8 || a.High > 2.2 {
		t.Errorf("interval %+v, want ratio 2 inside a narrow interval", a)
	}
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
		BootstrapRatio(rng, sortedSample(base), sortedSample(cand), 0.5, 2000, 0.95)
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
