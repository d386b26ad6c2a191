package corpus

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// histogramOf draws n values of int(1,k) with a declared distribution.
func histogramOf(t *testing.T, decl string, k, n int) []int {
	t.Helper()
	tmpl := compileSrc(t, hdr+"-- param v: int(1,"+strconv.Itoa(k)+") "+decl+"\nSELECT * FROM {{m}} WHERE v = {{v}}", CompileOptions{})
	r := tmpl.NewRenderer(7, 0)
	h := make([]int, k)
	for range n {
		v := r.Next()[0].Args[0].(int64)
		if v < 1 || v > int64(k) {
			t.Fatalf("%s: %d out of 1..%d", decl, v, k)
		}
		h[v-1]++
	}
	return h
}

// The hot set gets its share of the draws, spread evenly over it, and the
// cold values the rest, evenly too.
func TestHotspotShares(t *testing.T) {
	const k, n = 100, 200000
	for _, c := range []struct {
		decl      string
		hot       int
		hotShare  float64
		coldShare float64
	}{
		{"hotspot", 20, 0.8, 0.2},
		{"hotspot(0.1)", 10, 0.8, 0.2},
		{"hotspot(0.05, 0.95)", 5, 0.95, 0.05},
		{"hotspot(0.5, 0.5)", 50, 0.5, 0.5}, // uniform
	} {
		h := histogramOf(t, c.decl, k, n)
		got := 0
		for _, x := range h[:c.hot] {
			got += x
		}
		if share := float64(got) / n; math.Abs(share-c.hotShare) > 0.01 {
			t.Errorf("%s: the first %d values got %.3f of the draws, want %.2f", c.decl, c.hot, share, c.hotShare)
		}
		perHot, perCold := c.hotShare*n/float64(c.hot), c.coldShare*n/float64(k-c.hot)
		for i, x := range h {
			want := perCold
			if i < c.hot {
				want = perHot
			}
			if math.Abs(float64(x)-want) > 0.15*want+20 {
				t.Errorf("%s: value %d drawn %d times, want about %.0f", c.decl, i+1, x, want)
				break
			}
		}
	}
}

// A run's default distribution may be hotspot too, and a list's first
// values are its hot ones.
func TestHotspotAsDefaultAndOnLists(t *testing.T) {
	tmpl := compileSrc(t, hdr+"-- param v: int(1,10)\nSELECT * FROM {{m}} WHERE v = {{v}}", CompileOptions{Distribution: DistHotspot})
	r := tmpl.NewRenderer(3, 0)
	hot := 0
	for range 10000 {
		if r.Next()[0].Args[0].(int64) <= 2 {
			hot++
		}
	}
	if hot < 7700 || hot > 8300 {
		t.Errorf("default hotspot: %d of 10000 draws on the first 2 of 10 values, want about 8000", hot)
	}
}

// The same seed draws the same values.
func TestHotspotDeterministic(t *testing.T) {
	src := hdr + "-- param v: id(main) hotspot(0.01, 0.99)\nSELECT * FROM {{m}} WHERE v = {{v}}"
	a := compileSrc(t, src, CompileOptions{}).NewRenderer(11, 0)
	b := compileSrc(t, src, CompileOptions{}).NewRenderer(11, 0)
	for i := range 1000 {
		x, y := a.Next()[0].Args[0], b.Next()[0].Args[0]
		if x != y {
			t.Fatalf("draw %d: %v and %v with the same seed", i, x, y)
		}
	}
}

// Ranges of one and two values still draw within range.
func TestHotspotTinyRanges(t *testing.T) {
	for _, n := range []uint64{1, 2, 3} {
		d, err := parseDist(DistHotspot, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(1, 2))
		sm := newSampler(d, n, r)
		seen := map[uint64]bool{}
		for range 1000 {
			v := sm.next(r)
			if v >= n {
				t.Fatalf("n=%d: drew %d", n, v)
			}
			seen[v] = true
		}
		if uint64(len(seen)) != n {
			t.Errorf("n=%d: drew only %v", n, seen)
		}
	}
}

func TestHotspotArguments(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"0"}, "hot fraction of the values must be a number between 0 and 1"},
		{[]string{"1"}, "hot fraction of the values must be a number between 0 and 1"},
		{[]string{"x"}, "hot fraction"},
		{[]string{"0.2", "1.5"}, "fraction of draws to the hot values must be a number from 0 to 1"},
		{[]string{"0.2", "0.8", "1"}, "hotspot takes two arguments"},
	} {
		_, err := parseDist(DistHotspot, c.args)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("hotspot(%s): got %v, want %q", strings.Join(c.args, ", "), err, c.want)
		}
	}
	d, err := parseDist(DistHotspot, []string{"0.05", "1"})
	if err != nil || d.hotData != 0.05 || d.hotOps != 1 {
		t.Errorf("hotspot(0.05, 1): %+v, %v", d, err)
	}
}
