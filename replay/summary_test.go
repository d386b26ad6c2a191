package replay

import (
	"math"
	"strings"
	"testing"
	"time"
)

func near(got, want float64) bool { return math.Abs(got-want) <= want*0.002 }

func TestSummarizeLatencies(t *testing.T) {
	var lat []int64
	for i := 1; i <= 100; i++ {
		lat = append(lat, int64(i)*int64(time.Millisecond))
	}
	s := SummarizeLatencies("x", lat, 4, 2*time.Second)
	if s.Executions != 104 || s.Errors != 4 || !near(s.QPS, 52) {
		t.Errorf("counts %+v", s)
	}
	for name, c := range map[string][2]float64{
		"mean": {s.MeanMs, 50.5}, "p50": {s.P50Ms, 50}, "p95": {s.P95Ms, 95}, "p99": {s.P99Ms, 99}, "max": {s.MaxMs, 100},
	} {
		if !near(c[0], c[1]) {
			t.Errorf("%s = %v, want %v", name, c[0], c[1])
		}
	}
}

func TestAccumulatorMatchesSlice(t *testing.T) {
	a, b := NewAccumulator(), NewAccumulator()
	var lat []int64
	for i := 0; i < 1000; i++ {
		ns := int64(500+i*37) * int64(time.Microsecond)
		lat = append(lat, ns)
		acc := a
		if i%2 == 1 {
			acc = b
		}
		acc.Add("x", ns, false, 0)
	}
	a.Add("x", 0, true, 3)
	a.Merge(b)
	got := a.Scenarios(time.Second)
	want := SummarizeLatencies("x", lat, 1, time.Second)
	want.Retries = 3
	if len(got) != 1 || got[0] != want {
		t.Errorf("accumulated %+v\nfrom slice  %+v", got, want)
	}
}

func TestLatenciesOutOfRangeAreClamped(t *testing.T) {
	s := SummarizeLatencies("x", []int64{1, 2 * int64(time.Hour)}, 0, 0)
	if s.MaxMs < 3.5e6 || s.QPS != 0 {
		t.Errorf("%+v", s)
	}
}

func TestSummaryText(t *testing.T) {
	s := Summary{RunID: "r", Elapsed: 2, Threads: 2, Events: 10, Executions: 20, QPS: 10, Interrupted: true,
		Scenarios: []ScenarioSummary{{Scenario: "a", Executions: 20, MeanMs: 1.5, Disabled: "scenario a: gone"}}}
	var b strings.Builder
	if err := s.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"run r (interrupted)", "20 executions", "mean ms", "1.500", "disabled: scenario a: gone"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in\n%s", want, b.String())
		}
	}
}
