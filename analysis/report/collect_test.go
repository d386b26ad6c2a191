package report

import (
	"testing"
	"time"

	"github.com/joinbench/joinbench/analysis/internal/fixture"
	"github.com/joinbench/joinbench/results"
)

// TestPacedWindowFromIntendedStart: a paced run's latencies run from the
// intended start, so its window opens at the first intended start and
// closes at the last real end (intended start + latency), not at
// start + latency, which would count the lateness twice.
func TestPacedWindowFromIntendedStart(t *testing.T) {
	paced := func(sentLate, latency time.Duration, at time.Duration) results.Execution {
		is := fixture.T0.Add(at)
		return results.Execution{Scenario: "p", Start: is.Add(sentLate), IntendedStart: &is, LatencyNs: int64(latency), Params: []string{}}
	}
	f := fixture.Run{ID: "paced", Execs: []results.Execution{
		paced(300*time.Millisecond, 310*time.Millisecond, 0),
		paced(0, 20*time.Millisecond, time.Second),
		paced(500*time.Millisecond, 1000*time.Millisecond, 2*time.Second),                                                             // ends at t0+3s
		{Scenario: "p", Start: fixture.T0.Add(2500 * time.Millisecond), LatencyNs: int64(100 * time.Millisecond), Params: []string{}}, // unpaced row
	}}
	rep, err := Build([]string{f.Write(t, t.TempDir())}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rr := rep.Runs[0]
	if !rr.Start.Equal(fixture.T0) || !rr.End.Equal(fixture.T0.Add(3*time.Second)) {
		t.Errorf("window %v .. %v, want %v .. %v", rr.Start, rr.End, fixture.T0, fixture.T0.Add(3*time.Second))
	}
	if want := 4 / (3 * time.Second).Seconds(); rr.Total.QPS != want || rr.Scenarios[0].QPS != want {
		t.Errorf("queries/s %v (scenario %v), want %v", rr.Total.QPS, rr.Scenarios[0].QPS, want)
	}
}
