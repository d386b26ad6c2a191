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
