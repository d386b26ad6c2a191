package metrics

import (
	"math/bits"
	"sort"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Ranks are the order statistics of the latencies a Metrics recorded, as
// its histogram holds them: At(i) is the (i+1)-th smallest, the highest
// value of its bucket (within 0.1%), as Percentile gives. A bootstrap of
// a quantile draws ranks (analysis/stats' bootstrapIndex), so it resamples
// every execution, not a sample of them, from the histogram already kept.
type Ranks struct {
	upto []int64 // cumulative count at the end of each non-empty bucket
	val  []int64 // that bucket's highest value
}

// Ranks returns the order statistics of the successful executions; nil
// when there are none.
func (m *Metrics) Ranks() *Ranks {
	m.Flush()
	if m.hist == nil || m.hist.TotalCount() == 0 {
		return nil
	}
	r := &Ranks{}
	var n int64
	eachCount(m.hist, func(_, to, count int64) {
		n += count
		r.upto = append(r.upto, n)
		r.val = append(r.val, to)
	})
	return r
}

// Len is the number of latencies; 0 for the nil Ranks of none.
func (r *Ranks) Len() int {
	if r == nil {
		return 0
	}
	return int(r.upto[len(r.upto)-1])
}

// At is the (i+1)-th smallest latency, 0 <= i < Len().
func (r *Ranks) At(i int) int64 {
	k := sort.Search(len(r.upto), func(k int) bool { return r.upto[k] > int64(i) })
	return r.val[min(k, len(r.val)-1)]
}

// The layout of a NewHistogram's counts, as HDR defines it: values are
// counted in units of 2^unitMagnitude ns (the largest power of two not
// above HistogramMin); bucket b holds half a sub-bucket range of
// 2^halfMagnitude counts (the first bucket a whole one), each count
// covering 2^(unitMagnitude+b) ns. ranks_test.go checks it against the
// library's own iteration.
var (
	unitMagnitude = bits.Len64(uint64(HistogramMin)) - 1
	halfMagnitude = bits.Len64(2*pow10(histogramDigits)-1) - 1
)

func pow10(n int) uint64 {
	p := uint64(1)
	for range n {
		p *= 10
	}
	return p
}

// eachCount calls fn for every non-empty count of h in ascending order of
// value, with the range of values it stands for (HDR's lowest and highest
// equivalent values): one pass over the exported counts, where the
// library's Distribution makes a value per index it passes.
func eachCount(h *hdrhistogram.Histogram, fn func(from, to, count int64)) {
	half := int64(1) << halfMagnitude
	for i, c := range h.Export().Counts {
		if c == 0 {
			continue
		}
		bucket := int64(i)>>halfMagnitude - 1
		sub := int64(i)&(half-1) + half
		if bucket < 0 {
			sub -= half
			bucket = 0
		}
		shift := uint(bucket) + uint(unitMagnitude)
		from := sub << shift
		fn(from, from+int64(1)<<shift-1, c)
	}
}
