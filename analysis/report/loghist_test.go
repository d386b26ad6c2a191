package report

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLogHistIndexTable: the table gives the index math.Log gives, at
// every bucket boundary it found, at the edges of its parts, and on
// random latencies from 1 ns to days.
func TestLogHistIndexTable(t *testing.T) {
	check := func(v int64) {
		t.Helper()
		if got, want := logHistIndex(v), logHistIndexOf(v); got != want {
			t.Fatalf("logHistIndex(%d) = %d, want %d", v, got, want)
		}
	}
	for v := int64(-3); v < 5000; v++ {
		check(v)
	}
	tab := logTable()
	for slot, next := range tab.next {
		e, part := slot>>logTableBits, int64(slot&(logTableParts-1))
		if e < logTableBits {
			continue
		}
		lo := (logTableParts + part) << (e - logTableBits)
		for _, v := range []int64{lo - 1, lo, lo + 1, 2*lo - 1} {
			check(v)
		}
		if next != math.MaxInt64 {
			for d := int64(-2); d <= 2; d++ {
				check(next + d)
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		check(int64(math.Exp(rng.Float64() * 36)))
	}
	check(math.MaxInt64)
}

func BenchmarkLogHistIndex(b *testing.B) {
	vals := make([]int64, 4096)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range vals {
		vals[i] = int64(math.Exp(rng.NormFloat64()*0.5 + 14))
	}
	b.Run("table", func(b *testing.B) {
		s := int16(0)
		for i := 0; b.Loop(); i++ {
			s += logHistIndex(vals[i&4095])
		}
		_ = s
	})
	b.Run("math.Log", func(b *testing.B) {
		s := int16(0)
		for i := 0; b.Loop(); i++ {
			s += logHistIndexOf(vals[i&4095])
		}
		_ = s
	})
}

// TestLogHistQuantilesInOnePass: the quantiles taken in one pass are those taken
// one at a time.
func TestLogHistQuantilesInOnePass(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		var h logHist
		for range rng.IntN(300) {
			h.add(int64(rng.ExpFloat64() * float64(rng.Int64N(1e9)+1)))
		}
		qs := []float64{0, 0.01, 0.5, 0.95, 0.99, 1}
		got := h.quantiles(qs...)
		for i, q := range qs {
			if want := h.quantileOne(q); got[i] != want {
				t.Fatalf("quantile %v: %d in one pass, %d alone", q, got[i], want)
			}
		}
	}
}

// quantileOne is quantile as it was taken alone.
func (h *logHist) quantileOne(q float64) int64 {
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
	rank := max(uint64(math.Ceil(q*float64(total))), 1)
	acc := uint64(0)
	for i, c := range h.counts {
		acc += uint64(c)
		if c > 0 && acc >= rank {
			return int64(math.Pow(logHistBase, float64(int(h.lo)+i)+1))
		}
	}
	return int64(math.Pow(logHistBase, float64(int(h.lo)+last)+1))
}
