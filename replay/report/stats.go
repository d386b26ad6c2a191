package report

import (
	"math"
	"math/rand/v2"
	"slices"
)

// reservoir keeps a uniform random sample of at most cap values of a
// stream (algorithm R), seeded so that a comparison is reproducible: a
// round's latencies of one scenario. (Li's algorithm L, which draws how
// many values to skip, was measured slower here: a stream holds a few
// times the cap, and each value it takes costs three logarithms against
// one draw per value.)
type reservoir struct {
	cap     int
	seen    int64
	vals    []int64
	rng     *rand.Rand
	inOrder []int64 // vals sorted, kept until the next add
}

func newReservoir(cap int, seed uint64) *reservoir {
	return &reservoir{cap: cap, rng: rand.New(rand.NewPCG(seed, 0x6a6f696e62656e63))}
}

func (r *reservoir) add(v int64) {
	r.inOrder = nil
	r.seen++
	if len(r.vals) < r.cap {
		r.vals = append(r.vals, v)
		return
	}
	if j := r.rng.Int64N(r.seen); j < int64(r.cap) {
		r.vals[j] = v
	}
}

// sorted returns the sample in ascending order. Callers share it: they
// must not change it.
func (r *reservoir) sorted() []int64 {
	if r.inOrder == nil {
		r.inOrder = slices.Clone(r.vals)
		slices.Sort(r.inOrder)
	}
	return r.inOrder
}

// quantileRank is the 1-based rank of quantile q in n sorted values (the
// nearest-rank definition, as HDR histograms use).
func quantileRank(n int, q float64) int {
	m := int(math.Ceil(q * float64(n)))
	return min(max(m, 1), n)
}

// sampleQuantile is the nearest-rank quantile of sorted values.
func sampleQuantile(sorted []int64, q float64) int64 {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[quantileRank(len(sorted), q)-1]
}

// bootstrapIndex draws the index, in a sorted sample of n, of quantile q of
// one bootstrap resample. Resampling n values with replacement and taking
// the m-th smallest is the same as taking floor(n*U) where U is the m-th
// smallest of n uniforms, which is Beta(m, n-m+1) distributed: so one
// resample costs two gamma draws instead of n draws and a selection.
func bootstrapIndex(rng *rand.Rand, n int, q float64) int {
	m := quantileRank(n, q)
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

// Interval is a ratio (candidate/base) with its confidence interval.
type Interval struct {
	Ratio float64 `json:"ratio"`
	Low   float64 `json:"ci_low"`
	High  float64 `json:"ci_high"`
}

// orderStats are the values of a population in ascending order: At(i) is
// the (i+1)-th smallest of Len(), and Len() is 0 for none. The ranks of a
// latency histogram (metrics.Ranks, which hold every execution) are.
type orderStats interface {
	Len() int
	At(i int) int64
}

// bootstrapRatio estimates quantile q of cand over quantile q of base and
// its percentile-bootstrap confidence interval, from their order
// statistics.
func bootstrapRatio(rng *rand.Rand, base, cand orderStats, q float64, resamples int, confidence float64) Interval {
	if base.Len() == 0 || cand.Len() == 0 {
		return Interval{}
	}
	ratio := func(b, c int64) float64 {
		return float64(max(c, 1)) / float64(max(b, 1))
	}
	nb, nc := base.Len(), cand.Len()
	iv := Interval{Ratio: ratio(base.At(quantileRank(nb, q)-1), cand.At(quantileRank(nc, q)-1))}
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

// twoProportionP is the two-sided p-value of a pooled two-proportion z
// test: are x1/n1 and x2/n2 different rates?
func twoProportionP(x1, n1, x2, n2 int64) float64 {
	if n1 == 0 || n2 == 0 {
		return 1
	}
	p1, p2 := float64(x1)/float64(n1), float64(x2)/float64(n2)
	p := float64(x1+x2) / float64(n1+n2)
	se := math.Sqrt(p * (1 - p) * (1/float64(n1) + 1/float64(n2)))
	if se == 0 {
		if p1 == p2 {
			return 1
		}
		return 0
	}
	z := math.Abs(p1-p2) / se
	return math.Erfc(z / math.Sqrt2)
}
