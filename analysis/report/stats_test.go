package report

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/joinbench/joinbench/results"
)

func TestTimelineCoarsens(t *testing.T) {
	tl := newTimeline()
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for s := 0; s < 2000; s++ {
		for k := 0; k < 3; k++ {
			tl.add(start.Add(time.Duration(s)*time.Second+time.Duration(k)*time.Millisecond), 1e6, k == 0, 0)
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
