package stats

import (
	"math"
	"math/rand/v2"
	"slices"
)

// BootstrapRatio estimates quantile q of cand over quantile q of base and
// its percentile-bootstrap confidence interval, from their order
// statistics, with resamples draws from rng.
func BootstrapRatio(rng *rand.Rand, base, cand OrderStats, q float64, resamples int, confidence float64) Interval {
	if base.Len() == 0 || cand.Len() == 0 {
		return Interval{}
	}
	ratio := func(b, c int64) float64 {
		return float64(max(c, 1)) / float64(max(b, 1))
	}
	nb, nc := base.Len(), cand.Len()
	iv := Interval{Ratio: ratio(base.At(QuantileRank(nb, q)-1), cand.At(QuantileRank(nc, q)-1))}
	rs := make([]float64, resamples)
	for i := range rs {
		rs[i] = ratio(base.At(bootstrapIndex(rng, nb, q)), cand.At(bootstrapIndex(rng, nc, q)))
	}
	slices.Sort(rs)
	alpha := (1 - confidence) / 2
	iv.Low = rs[min(int(alpha*float64(resamples)), resamples-1)]
	iv.High = rs[min(int(math.Ceil((1-alpha)*float64(resamples)))-1, resamples-1)]
	return iv
}

// bootstrapIndex draws the index, in a sorted sample of n, of quantile q of
// one bootstrap resample. Resampling n values with replacement and taking
// the m-th smallest is the same as taking floor(n*U) where U is the m-th
// smallest of n uniforms, which is Beta(m, n-m+1) distributed: so one
// resample costs two gamma draws instead of n draws and a selection.
func bootstrapIndex(rng *rand.Rand, n int, q float64) int {
	m := QuantileRank(n, q)
	x := gammaDraw(rng, float64(m))
	y := gammaDraw(rng, float64(n-m+1))
	u := x / (x + y)
	return min(int(u*float64(n)), n-1)
}

// gammaDraw samples Gamma(shape, 1) for shape >= 1 (Marsaglia and Tsang).
func gammaDraw(rng *rand.Rand, shape float64) float64 {
	d := shape - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rng.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}
