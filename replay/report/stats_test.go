package report

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/joinbench/joinbench/replay/results"
)

// sortedSample is a sorted slice as orderStats.
type sortedSample []int64

func (s sortedSample) Len() int       { return len(s) }
func (s sortedSample) At(i int) int64 { return s[i] }

// TestBootstrapIndexMatchesNaive checks the order-statistic shortcut
// against resampling done the long way: the two bootstrap distributions of
// the median and p95 must agree.
func TestBootstrapIndexMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, B = 2000, 3000
	for _, q := range []float64{0.5, 0.95} {
		fast := make([]float64, B)
		naive := make([]float64, B)
		buf := make([]int, n)
		for b := 0; b < B; b++ {
			fast[b] = float64(bootstrapIndex(rng, n, q))
			for i := range buf {
				buf[i] = rng.IntN(n)
			}
			slices.Sort(buf)
			naive[b] = float64(buf[quantileRank(n, q)-1])
		}
		slices.Sort(fast)
		slices.Sort(naive)
		for _, p := range []float64{0.025, 0.25, 0.5, 0.75, 0.975} {
			f, v := fast[int(p*B)], naive[int(p*B)]
			// the bootstrap index spreads over about sqrt(n q (1-q)) ranks
			tol := 0.2*math.Sqrt(n*q*(1-q)) + 2
			if math.Abs(f-v) > tol {
				t.Errorf("q=%v: %v-quantile of resampled index: shortcut %v, naive %v", q, p, f, v)
			}
		}
	}
}

func TestBootstrapRatioDeterministic(t *testing.T) {
	base := make([]int64, 500)
	cand := make([]int64, 500)
	for i := range base {
		base[i] = int64(1000 + i)
		cand[i] = int64(2000 + 2*i)
	}
	a := bootstrapRatio(rand.New(rand.NewPCG(9, 9)), sortedSample(base), sortedSample(cand), 0.5, 1000, 0.95)
	b := bootstrapRatio(rand.New(rand.NewPCG(9, 9)), sortedSample(base), sortedSample(cand), 0.5, 1000, 0.95)
	if a != b {
		t.Errorf("same seed, different intervals: %+v %+v", a, b)
	}
	if a.Ratio != 2 || a.Low > 2 || a.High < 2 || a.Low < 1.8 || a.High > 2.2 {
		t.Errorf("interval %+v, want ratio 2 inside a narrow interval", a)
	}
}

func TestReservoirBounded(t *testing.T) {
	r := newReservoir(100, 1)
	for i := int64(0); i < 100000; i++ {
		r.add(i)
	}
	if len(r.vals) != 100 || r.seen != 100000 {
		t.Fatalf("kept %d of %d", len(r.vals), r.seen)
	}
	if m := sampleQuantile(r.sorted(), 0.5); m < 30000 || m > 70000 {
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
		r := newReservoir(k, seed)
		for i := range int64(n) {
			r.add(i)
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

func TestTimelineCoarsens(t *testing.T) {
	tl := newTimeline()
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for s := 0; s < 2000; s++ {
		for k := 0; k < 3; k++ {
			tl.add(start.Add(time.Duration(s)*time.Second+time.Duration(k)*time.Millisecond), 1e6, k == 0)
		}
	}
	if len(tl.buckets) > maxBuckets {
		t.Fatalf("%d buckets", len(tl.buckets))
	}
	pts := tl.points()
	var execs, errs int64
	for _, p := range pts {
		execs += p.Executions
		errs += p.Errors
	}
	if execs != 6000 || errs != 2000 || pts[0].Seconds != 4 {
		t.Errorf("execs %d errors %d width %gs over %d points", execs, errs, pts[0].Seconds, len(pts))
	}
	if p := pts[1]; p.QPS != 3 || p.P95Ms < 0.95 || p.P95Ms > 1.05 {
		t.Errorf("point %+v", p)
	}
}

func TestLineDiff(t *testing.T) {
	got := lineDiff("a\nb\nc", "a\nx\nc")
	if got != "  a\n- b\n+ x\n  c\n" {
		t.Errorf("diff:\n%s", got)
	}
}

func TestTwoProportion(t *testing.T) {
	if p := twoProportionP(10, 1000, 10, 1000); p != 1 {
		t.Errorf("equal rates p=%v", p)
	}
	if p := twoProportionP(5, 1000, 100, 1000); p > 1e-6 {
		t.Errorf("very different rates p=%v", p)
	}
}

func TestPlanTextFallsBackToIndentedJSON(t *testing.T) {
	c := newPlanCatalog(nil, []results.Plan{{Scenario: "s", PlanHash: "h", Format: "json", Explain: `{"not_a_plan": [1]}`}})
	if got := c.text("s", "h"); got != "{\n  \"not_a_plan\": [\n    1\n  ]\n}" {
		t.Errorf("got %q", got)
	}
}

// TestLogHistQuantiles: the dense logHist gives the quantiles the sparse
// map it replaced gave, merged or not.
func TestLogHistQuantiles(t *testing.T) {
	sparseQuantile := func(h map[int16]uint32, q float64) int64 { // the map version, as it was
		if len(h) == 0 {
			return 0
		}
		keys := make([]int16, 0, len(h))
		total := uint64(0)
		for k, c := range h {
			keys = append(keys, k)
			total += uint64(c)
		}
		slices.Sort(keys)
		rank := max(uint64(math.Ceil(q*float64(total))), 1)
		acc := uint64(0)
		for _, k := range keys {
			acc += uint64(h[k])
			if acc >= rank {
				return int64(math.Pow(logHistBase, float64(k)+1))
			}
		}
		return int64(math.Pow(logHistBase, float64(keys[len(keys)-1])+1))
	}
	rng := rand.New(rand.NewPCG(8, 9))
	for trial := range 50 {
		var a, b logHist
		sparse := map[int16]uint32{}
		for i := range rng.IntN(2000) {
			v := int64(math.Exp(rng.NormFloat64()*3 + 13))
			if i%97 == 0 {
				v = -5 // clamped to 1
			}
			if i%2 == 0 {
				a.add(v)
			} else {
				b.add(v)
			}
			sparse[logHistIndex(v)]++
		}
		a.merge(&b)
		for _, q := range []float64{0, 0.01, 0.5, 0.95, 0.99, 1} {
			if got, want := a.quantile(q), sparseQuantile(sparse, q); got != want {
				t.Fatalf("trial %d: quantile %v = %d, want %d", trial, q, got, want)
			}
		}
	}
	var empty logHist
	if empty.quantile(0.5) != 0 {
		t.Error("empty logHist has a quantile")
	}
}
