package stats

import (
	"math"
	"math/rand/v2"
	"slices"
)

// Reservoir keeps a uniform random sample of at most a cap of values of a
// stream (algorithm R), seeded so that a comparison is reproducible. A
// stream holds only a few times the cap, so R's one draw per value costs
// less than the three logarithms per value taken of algorithm L, which
// skips (bench/README.md, "Writing and reading results").
type Reservoir struct {
	cap    int
	seen   int64
	vals   []int64
	rng    *rand.Rand
	sorted bool // vals are in ascending order
}

// NewReservoir returns an empty reservoir of at most cap values, drawing
// from a generator seeded with seed.
func NewReservoir(cap int, seed uint64) *Reservoir {
	return &Reservoir{cap: cap, rng: rand.New(rand.NewPCG(seed, 0x6a6f696e62656e63))}
}

// Add offers one value of the stream.
func (r *Reservoir) Add(v int64) {
	r.sorted = false
	r.seen++
	if len(r.vals) < r.cap {
		r.vals = append(r.vals, v)
		return
	}
	if j := r.rng.Int64N(r.seen); j < int64(r.cap) {
		r.vals[j] = v
	}
}

// Seen is the number of values offered.
func (r *Reservoir) Seen() int64 { return r.seen }

// Len is the number of values kept.
func (r *Reservoir) Len() int { return len(r.vals) }

// Sorted returns the sample in ascending order, sorted in place so that a
// reservoir read many times costs no copy. Callers share it: they must not
// change it.
func (r *Reservoir) Sorted() []int64 {
	if !r.sorted {
		slices.Sort(r.vals)
		r.sorted = true
	}
	return r.vals
}

// OrderStats are the values of a population in ascending order: At(i) is
// the (i+1)-th smallest of Len(), and Len() is 0 for none. The ranks of a
// latency histogram (metrics.Ranks, which hold every execution) are.
type OrderStats interface {
	Len() int
	At(i int) int64
}

// QuantileRank is the 1-based rank of quantile q in n sorted values (the
// nearest-rank definition, as HDR histograms use).
func QuantileRank(n int, q float64) int {
	m := int(math.Ceil(q * float64(n)))
	return min(max(m, 1), n)
}

// Quantile is the nearest-rank quantile q of sorted values; 0 for none.
func Quantile(sorted []int64, q float64) int64 {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[QuantileRank(len(sorted), q)-1]
}

// LogQuantile is the natural log of Quantile, the quantile taken as 1 when
// smaller: latencies compared as ratios are compared on this scale.
func LogQuantile(sorted []int64, q float64) float64 {
	return math.Log(float64(max(Quantile(sorted, q), 1)))
}
