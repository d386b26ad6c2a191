package replay

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/analysis/metrics"
	"github.com/joinbench/joinbench/analysis/report"
	"github.com/joinbench/joinbench/results"
)

func near(got, want float64) bool { return math.Abs(got-want) <= want*0.002 }

func TestAccumulator(t *testing.T) {
	t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	a := NewAccumulator()
	for i := 1; i <= 100; i++ {
		a.Add(&results.Execution{Scenario: "x", Start: t0.Add(time.Duration(i) * 10 * time.Millisecond),
			LatencyNs: int64(i) * int64(time.Millisecond), Rows: 1})
	}
	for i := 0; i < 4; i++ {
		a.Add(&results.Execution{Scenario: "x", Start: t0, LatencyNs: int64(time.Millisecond), ErrorCode: 1213, Retries: 3})
	}
	// A paced scenario, sent late: its window opens at the intended start.
	late := t0.Add(-time.Second)
	a.Add(&results.Execution{Scenario: "paced", Start: t0, IntendedStart: &late, LatencyNs: int64(1500 * time.Millisecond)})
	scs, total := a.Close()
	if len(scs) != 2 || scs[0].Scenario != "paced" || scs[1].Scenario != "x" {
		t.Fatalf("scenarios %+v", scs)
	}
	x := scs[1]
	if x.Executions != 104 || x.Errors != 4 || x.Retries != 12 || !near(x.QPS, 104/1.1) {
		t.Errorf("counts %+v", x)
	}
	for name, c := range map[string][2]float64{
		"mean": {x.MeanMs, 50.5}, "p50": {x.P50Ms, 50}, "p95": {x.P95Ms, 95}, "p99": {x.P99Ms, 99}, "max": {x.MaxMs, 100},
	} {
		if !near(c[0], c[1]) {
			t.Errorf("%s = %v, want %v", name, c[0], c[1])
		}
	}
	if p := scs[0]; p.Executions != 1 || !near(p.MaxMs, 1500) || !near(p.QPS, 1/1.5) {
		t.Errorf("paced %+v", p)
	}
	// The whole run: from the paced row's intended start (t0-1s) to the
	// last end of x (t0+1s+100ms).
	if total.Executions != 105 || total.Errors != 4 || total.Duration != 2100*time.Millisecond ||
		total.Throughput != 105/(2100*time.Millisecond).Seconds() {
		t.Errorf("total %+v", total)
	}
}

func TestAccumulatorClampsLikeTheReducer(t *testing.T) {
	// Out of the histogram's range: counted at its bounds (1 µs, 1 h). The
	// window is not clamped: it runs to the real end.
	t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	a := NewAccumulator()
	a.Add(&results.Execution{Scenario: "x", Start: t0, LatencyNs: 1})
	a.Add(&results.Execution{Scenario: "x", Start: t0, LatencyNs: 2 * int64(time.Hour)})
	scs, _ := a.Close()
	if s := scs[0]; s.MaxMs < 3.6e6 || s.MaxMs > 3.61e6 || s.P50Ms < 0.001 || s.P50Ms > 0.0011 || s.QPS != 2/(2*time.Hour).Seconds() {
		t.Errorf("%+v", s)
	}
	h := newHist()
	recordLatency(h, 1)
	recordLatency(h, 2*int64(time.Hour))
	if h.TotalCount() != 2 || float64(h.Max())/1e6 != scs[0].MaxMs {
		t.Errorf("progress histogram: %d values, max %d", h.TotalCount(), h.Max())
	}
}

func TestAccumulatorEmpty(t *testing.T) {
	scs, total := NewAccumulator().Close()
	if len(scs) != 0 || total.Executions != 0 || total.Duration != 0 || total.Throughput != 0 {
		t.Errorf("%+v %+v", scs, total)
	}
}

func TestSummaryText(t *testing.T) {
	s := Summary{RunID: "r", Elapsed: 2, Threads: 2, Events: 10, Executions: 20, QPS: 10, Interrupted: true,
		Scenarios: []ScenarioSummary{{Scenario: "a", Summary: metrics.Summary{Executions: 20, MeanMs: 1.5}, Disabled: "scenario a: gone"}}}
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

// TestSummaryAgreesWithReport feeds the same rows to the live summary and,
// through a results folder, to the report: every figure both print must be
// equal to the last bit. The rows carry what a live run has and a file has
// not (monotonic clock readings), paced and unpaced rows, failures, and
// latencies outside the histogram.
func TestSummaryAgreesWithReport(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	base := time.Now() // with a monotonic reading, as the workers' clocks
	var rows []results.Execution
	for i := range 3000 {
		r := results.Execution{
			Scenario:  []string{"a", "b", "c"}[i%3],
			Start:     base.Add(time.Duration(rng.Int64N(int64(5 * time.Second)))),
			LatencyNs: int64(rng.ExpFloat64() * 3e6),
			Rows:      rng.Int64N(10),
			Params:    []string{},
		}
		switch {
		case i%3 == 1: // paced, sometimes late
			is := r.Start.Add(-time.Duration(rng.Int64N(int64(time.Millisecond))))
			r.IntendedStart = &is
			r.LatencyNs += int64(r.Start.Sub(is))
		case i%97 == 0:
			r.ErrorCode, r.ErrorMessage, r.Retries = 1213, "deadlock", 10
		case i%89 == 0:
			r.Retries = 2
		case i%83 == 0:
			r.CommitErrorCode = 1213
		case i%79 == 0:
			r.CommitErrorCode = 1047
		case i%211 == 0:
			r.LatencyNs = 10 // below the histogram
		case i == 2:
			r.LatencyNs = 2 * int64(time.Hour) // above it
		}
		rows = append(rows, r)
	}
	acc := NewAccumulator()
	for i := range rows {
		acc.Add(&rows[i])
	}
	scs, total := acc.Close()

	dir, err := results.Create(t.TempDir(), "agree", "client")
	if err != nil {
		t.Fatal(err)
	}
	w, err := dir.NewExecutionWriter()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := dir.Close(); err != nil {
		t.Fatal(err)
	}
	rep, err := report.Build([]string{dir.Path()}, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rr := rep.Runs[0]
	if len(rr.Scenarios) != len(scs) {
		t.Fatalf("%d scenarios in the report, %d in the summary", len(rr.Scenarios), len(scs))
	}
	for i, s := range scs {
		r := rr.Scenarios[i]
		got := [11]float64{float64(s.Executions), float64(s.Errors), s.MeanMs, s.P50Ms, s.P95Ms, s.P99Ms, s.MaxMs, s.QPS,
			float64(s.Retries), float64(s.Conflicts), float64(s.FailedCommits)}
		want := [11]float64{float64(r.Executions), float64(r.Errors), r.MeanMs, r.P50Ms, r.P95Ms, r.P99Ms, r.MaxMs, r.QPS,
			float64(r.Retries), float64(r.Conflicts), float64(r.FailedCommits)}
		if s.Scenario != r.Scenario || got != want {
			t.Errorf("scenario %s: summary %v\nreport %s: %v", s.Scenario, got, r.Scenario, want)
		}
	}
	if total.Throughput != rr.Total.QPS || total.Duration.Seconds() != rr.End.Sub(rr.Start).Seconds() ||
		total.Executions != rr.Total.Executions || total.Errors != rr.Total.Errors || total.Retries != rr.Total.Retries ||
		total.Conflicts != rr.Total.Conflicts || total.Conflicts == 0 || total.FailedCommits <= total.Conflicts {
		t.Errorf("whole run: summary %v/s over %v, report %v/s over %v", total.Throughput, total.Duration, rr.Total.QPS, rr.End.Sub(rr.Start))
	}
}

// BenchmarkAccumulatorAdd is the result writer's cost per row for the
// summary.
func BenchmarkAccumulatorAdd(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	t0 := time.Now()
	rows := make([]results.Execution, 256)
	for i := range rows {
		rows[i] = results.Execution{Scenario: []string{"a", "b", "c", "d"}[i%4], Start: t0.Add(time.Duration(i) * time.Microsecond),
			LatencyNs: int64(rng.ExpFloat64() * 1e6), Rows: 1}
	}
	a := NewAccumulator()
	i := 0
	for b.Loop() {
		a.Add(&rows[i%len(rows)])
		i++
	}
}
