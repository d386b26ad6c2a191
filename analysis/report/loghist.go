package report

import (
	"math"
	"math/bits"
	"sync"
)

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

// logHistIndex is the bucket of latency v: int16(ln(v) / ln(1.04)), v
// taken as 1 when smaller. It is computed once per execution, so it is
// read from a table (see logIndexTable), to the same result.
func logHistIndex(v int64) int16 {
	if v < 1 {
		v = 1
	}
	if v >= logTableMax {
		return logHistIndexOf(v)
	}
	t := logTable()
	if v < logTableParts {
		return t.small[v]
	}
	e := bits.Len64(uint64(v)) - 1
	slot := e<<logTableBits | int(v>>(e-logTableBits))&(logTableParts-1)
	k := t.k[slot]
	if v >= t.next[slot] {
		k++
	}
	return k
}

// logHistIndexOf computes logHistIndex with math.Log.
func logHistIndexOf(v int64) int16 { return int16(math.Log(float64(max(v, 1))) / logHistLn) }

// The table splits each power of two [2^e, 2^(e+1)) into logTableParts
// parts by the bits after the leading one. A part is under 1.6% wide and
// a bucket 4%, so a part holds at most one bucket boundary: its index is
// that of its first value, plus one from the boundary on. Up to
// logTableMax (4.9 hours in nanoseconds) consecutive integers are far
// enough apart that math.Log is monotonic on them, which the boundaries
// found by bisection rely on; longer latencies are computed.
const (
	logTableBits  = 6
	logTableParts = 1 << logTableBits
	logTableMax   = 1 << 44
)

type logIndexTable struct {
	small [logTableParts]int16
	k     [44 << logTableBits]int16 // index of the first value of the slot
	next  [44 << logTableBits]int64 // first value of the slot with index k+1; MaxInt64 when none
}

var (
	logTab     *logIndexTable
	logTabOnce sync.Once
)

// logTable returns the table, made on first use (about a millisecond).
func logTable() *logIndexTable {
	logTabOnce.Do(func() { logTab = newLogIndexTable() })
	return logTab
}

func newLogIndexTable() *logIndexTable {
	t := &logIndexTable{}
	for v := range int64(logTableParts) {
		t.small[v] = logHistIndexOf(v)
	}
	for e := logTableBits; e < 44; e++ {
		for part := range int64(logTableParts) {
			slot := e<<logTableBits | int(part)
			lo := (logTableParts + part) << (e - logTableBits)
			hi := (logTableParts+part+1)<<(e-logTableBits) - 1
			k := logHistIndexOf(lo)
			t.k[slot], t.next[slot] = k, math.MaxInt64
			if logHistIndexOf(hi) == k {
				continue
			}
			for lo < hi { // smallest v in (lo, hi] of index above k
				mid := lo + (hi-lo)/2
				if logHistIndexOf(mid) > k {
					hi = mid
				} else {
					lo = mid + 1
				}
			}
			t.next[slot] = lo
		}
	}
	return t
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
func (h *logHist) quantile(q float64) int64 { return h.quantiles(q)[0] }

// quantiles returns the upper bounds of the buckets holding quantiles qs
// (in increasing order), in one pass over the counts; zeros when empty.
func (h *logHist) quantiles(qs ...float64) []int64 {
	out := make([]int64, len(qs))
	total := uint64(0)
	last := -1
	for i, c := range h.counts {
		total += uint64(c)
		if c > 0 {
			last = i
		}
	}
	if total == 0 {
		return out
	}
	upper := func(i int) int64 { return int64(math.Pow(logHistBase, float64(int(h.lo)+i)+1)) }
	acc := uint64(0)
	i := 0
	for k, q := range qs {
		rank := max(uint64(math.Ceil(q*float64(total))), 1)
		for i < len(h.counts) && (h.counts[i] == 0 || acc+uint64(h.counts[i]) < rank) {
			acc += uint64(h.counts[i])
			i++
		}
		if i < len(h.counts) {
			out[k] = upper(i)
		} else {
			out[k] = upper(last)
		}
	}
	return out
}
