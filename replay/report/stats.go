package report

import (
	"math"
	"math/rand/v2"
	"slices"
)

// reservoir keeps a uniform random sample of at most cap values of a
// stream (algorithm R), seeded so that a report is reproducible.
type reservoir struct {
	cap  int
	seen int64
	vals []int64
	rng  *rand.Rand
}

func newReservoir(cap int, seed uint64) *reservoir {
	return &reservoir{cap: cap, rng: rand.New(rand.NewPCG(seed, 0x6a6f696e62656e63))}
}

func (r *reservoir) add(v int64) {
	r.seen++
	if len(r.vals) < r.cap {
		r.vals = append(r.vals, v)
		return
	}
	if j := r.rng.Int64N(r.seen); j < int64(r.cap) {
		r.vals[j] = v
	}
}

// sorted returns the sample in ascending order.
func (r *reservoir) sorted() []int64 {
	s := slices.Clone(r.vals)
	slices.Sort(s)
	return s
}

// logHist is a log-bucketed histogram (about 4% wide buckets), used for
// the latency of one time bucket: the counts of the bucket indexes from lo
// on, grown to the indexes seen. Dense, because adding to it is once per
// execution; latencies from 1 µs to an hour span 560 indexes, 2.2 KB.
type logHist struct {
	lo     int16
	counts []uint32
}

const logHistBase = 1.04

var logHistLn = math.Log(logHistBase)

func logHistIndex(v int64) int16 {
	if v < 1 {
		v = 1
	}
	return int16(math.Log(float64(v)) / logHistLn)
}

func (h *logHist) add(v int64) { h.addIndex(logHistIndex(v)) }

// addIndex counts one value of bucket index k.
func (h *logHist) addIndex(k int16) {
	if i := int(k) - int(h.lo); uint(i) < uint(len(h.counts)) {
		h.counts[i]++
		return
	}
	h.grow(k, k)
	h.counts[int(k)-int(h.lo)]++
}

// grow makes room for the indexes from lo to hi.
func (h *logHist) grow(lo, hi int16) {
	if len(h.counts) == 0 {
		h.lo, h.counts = lo, make([]uint32, int(hi)-int(lo)+1)
		return
	}
	oldHi := h.lo + int16(len(h.counts)) - 1
	lo, hi = min(lo, h.lo), max(hi, oldHi)
	if lo == h.lo && hi == oldHi {
		return
	}
	counts := make([]uint32, int(hi)-int(lo)+1)
	copy(counts[int(h.lo)-int(lo):], h.counts)
	h.lo, h.counts = lo, counts
}

func (h *logHist) merge(o *logHist) {
	if len(o.counts) == 0 {
		return
	}
	h.grow(o.lo, o.lo+int16(len(o.counts))-1)
	off := int(o.lo) - int(h.lo)
	for i, c := range o.counts {
		h.counts[off+i] += c
	}
}

// quantile returns the upper bound of the bucket holding quantile q.
func (h *logHist) quantile(q float64) int64 {
	total := uint64(0)
	last := -1
	for i, c := range h.counts {
		total += uint64(c)
		if c > 0 {
			last = i
		}
	}
	if total == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(total)))
	if rank < 1 {
		rank = 1
	}
	acc := uint64(0)
	for i, c := range h.counts {
		acc += uint64(c)
		if c > 0 && acc >= rank {
			return int64(math.Pow(logHistBase, float64(int(h.lo)+i)+1))
		}
	}
	return int64(math.Pow(logHistBase, float64(int(h.lo)+last)+1))
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

// bootstrapRatio estimates quantile q of cand over quantile q of base and
// its percentile-bootstrap confidence interval from sorted samples.
func bootstrapRatio(rng *rand.Rand, base, cand []int64, q float64, resamples int, confidence float64) Interval {
	if len(base) == 0 || len(cand) == 0 {
		return Interval{}
	}
	ratio := func(b, c int64) float64 {
		return float64(max(c, 1)) / float64(max(b, 1))
	}
	iv := Interval{Ratio: ratio(sampleQuantile(base, q), sampleQuantile(cand, q))}
	rs := make([]float64, resamples)
	for i := range rs {
		rs[i] = ratio(base[bootstrapIndex(rng, len(base), q)], cand[bootstrapIndex(rng, len(cand), q)])
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
