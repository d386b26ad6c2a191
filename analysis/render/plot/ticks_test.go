package plot

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// checkAxis checks what every axis promises: 4 to 8 ticks, inside the
// range it shows, which holds the data; labels distinct and without
// exponents.
func checkAxis(t *testing.T, what string, lo, hi float64, a axis, log bool) {
	t.Helper()
	if n := len(a.ticks); n < minTicks || n > maxTicks {
		t.Errorf("%s %g..%g: %d ticks %v", what, lo, hi, n, a.ticks)
	}
	if a.lo > lo || a.hi < hi {
		t.Errorf("%s %g..%g: shows %g..%g", what, lo, hi, a.lo, a.hi)
	}
	if log && a.lo <= 0 {
		t.Errorf("%s %g..%g: a log axis from %g", what, lo, hi, a.lo)
	}
	for _, v := range a.ticks {
		if v < a.lo*(1-1e-9)-1e-12 || v > a.hi*(1+1e-9)+1e-12 {
			t.Errorf("%s %g..%g: tick %g outside %g..%g", what, lo, hi, v, a.lo, a.hi)
		}
	}
	if !slices.IsSorted(a.ticks) {
		t.Errorf("%s %g..%g: ticks out of order %v", what, lo, hi, a.ticks)
	}
	labels := a.labels()
	seen := map[string]bool{}
	for _, l := range labels {
		if seen[l] || strings.ContainsAny(l, "e+") {
			t.Errorf("%s %g..%g: labels %q", what, lo, hi, labels)
			break
		}
		seen[l] = true
	}
	if a.step > 0 {
		m := a.step / math.Pow(10, math.Floor(math.Log10(a.step)+1e-9))
		if r := math.Round(m); math.Abs(m-r) > 1e-6 || (r != 1 && r != 2 && r != 5) {
			t.Errorf("%s %g..%g: step %g is not 1, 2 or 5 times a power of ten", what, lo, hi, a.step)
		}
	}
}

func TestAxesTick(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		mag := math.Pow(10, rng.Float64()*16-6)
		lo, hi := rng.Float64()*mag, rng.Float64()*mag
		if hi < lo {
			lo, hi = hi, lo
		}
		checkAxis(t, "linear", min(0, lo), hi, linearAxis(min(0, lo), hi), false)
		checkAxis(t, "linear", lo, hi, linearAxis(lo, hi), false)
		if lo > 0 {
			checkAxis(t, "log", lo, hi, logAxis(lo, hi), true)
		}
		// narrow log ranges, as a steady latency gives
		w := lo * (1 + rng.Float64()*rng.Float64()*4)
		if lo > 0 && w > lo {
			checkAxis(t, "narrow log", lo, w, logAxis(lo, w), true)
		}
	}
}

// TestAxesAsSeen: the axes the report used to draw badly. A whole-run p95
// between 3.5 and 4.8 ms had one tick; a latency histogram read
// "3.981, 6.31".
func TestAxesAsSeen(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		log    bool
		want   string
	}{
		{3.5, 4.8, true, "3.5 4.0 4.5 5.0"},
		{0.21, 38, true, "0.2 0.5 1 2 5 10 20 50"},
		{0.004, 2400, true, "0.001 0.01 0.1 1 10 100 1000 10k"},
		{1e-3, 1e9, true, "0.001 1 1000 1M 1G"},
		{0, 599.5, false, "0 100 200 300 400 500 600"},
		{0, 12840, false, "0 5k 10k 15k"},
		{0, 0.37, false, "0 0.1 0.2 0.3 0.4"},
		{0, 1, false, "0 0.2 0.4 0.6 0.8 1.0"},
		{10000, 10180, false, "10.00k 10.05k 10.10k 10.15k 10.20k"},
		{7, 7, false, "6.0 6.5 7.0 7.5 8.0"},
	} {
		var a axis
		if c.log {
			a = logAxis(c.lo, c.hi)
		} else {
			a = linearAxis(c.lo, c.hi)
		}
		if got := strings.Join(a.labels(), " "); got != c.want {
			t.Errorf("%g..%g (log %v): ticks %q, want %q", c.lo, c.hi, c.log, got, c.want)
		}
	}
}
