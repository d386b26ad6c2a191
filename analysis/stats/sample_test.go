package stats

import (
	"testing"
)

func TestReservoirBounded(t *testing.T) {
	r := NewReservoir(100, 1)
	for i := int64(0); i < 100000; i++ {
		r.Add(i)
	}
	if len(r.vals) != 100 || r.seen != 100000 {
		t.Fatalf("kept %d of %d", len(r.vals), r.seen)
	}
	if m := Quantile(r.Sorted(), 0.5); m < 30000 || m > 70000 {
		t.Errorf("sample median %d of a uniform 0..100000 stream", m)
	}
}

// TestReservoirUniform checks that every part of a stream is as likely
// to be kept: over many seeded samples of 100 of 1,000 values, each tenth
// of the stream holds a tenth of the kept values (a sampler that favoured
// early or late values, or stopped replacing once full, would not).
func TestReservoirUniform(t *testing.T) {
	const n, k, trials = 1000, 100, 2000
	var tenths [10]int
	for seed := range uint64(trials) {
		r := NewReservoir(k, seed)
		for i := range int64(n) {
			r.Add(i)
		}
		if len(r.vals) != k {
			t.Fatalf("seed %d: kept %d values, want %d", seed, len(r.vals), k)
		}
		for _, v := range r.vals {
			tenths[v*10/n]++
		}
	}
	want := k * trials / 10 // 20,000; the standard deviation is about 134
	for i, got := range tenths {
		if got < want*97/100 || got > want*103/100 {
			t.Errorf("tenth %d of the stream: %d kept values, want %d ± 3%% (all: %v)", i, got, want, tenths)
		}
	}
}
