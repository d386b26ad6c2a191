package stall

import (
	"testing"
	"time"

	"github.com/joinbench/joinbench/results"
)

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func at(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

// steady adds a write of 2 ms every 5 ms on ep between from and to (ms),
// except those that would complete in [gapFrom, gapTo).
func steady(tr *Tracker, ep string, from, to, gapFrom, gapTo int) {
	for ms := from; ms < to; ms += 5 {
		if end := ms + 2; end >= gapFrom && end < gapTo {
			continue
		}
		tr.Add(ep, at(ms), 2*time.Millisecond, true)
	}
}

func TestLongest(t *testing.T) {
	tr := New(t0)
	steady(tr, "a", 0, 3000, 1000, 1500)
	// The write that waited out the stall.
	tr.Add("a", at(995), 507*time.Millisecond, true)
	steady(tr, "b", 0, 3000, -1, -1)
	// a failed write does not end a stretch, but its latency counts.
	tr.Add("a", at(1100), 800*time.Millisecond, false)

	s := tr.Longest("a", at(0), at(3000))
	if s.Length < 480*time.Millisecond || s.Length > 520*time.Millisecond {
		t.Errorf("a: longest %s, want about 500ms", s.Length)
	}
	if got := s.Start.Sub(t0); got < 990*time.Millisecond || got > 1010*time.Millisecond {
		t.Errorf("a: stretch starts at %s, want about 1s", got)
	}
	if s.Worst != 800*time.Millisecond {
		t.Errorf("a: worst %s, want the failed write's 800ms", s.Worst)
	}
	if s := tr.Longest("b", at(0), at(3000)); s.Length > 10*time.Millisecond {
		t.Errorf("b: longest %s, want at most a slot", s.Length)
	}
	// b wrote all along: no stretch of the two together.
	if s := tr.Longest(AllEndpoints, at(0), at(3000)); s.Length > 10*time.Millisecond {
		t.Errorf("all: longest %s, want at most a slot", s.Length)
	}
	// A window after the stall does not see it.
	if s := tr.Longest("a", at(1600), at(3000)); s.Length > 10*time.Millisecond {
		t.Errorf("a after the stall: %s", s.Length)
	}
	// An endpoint without writes is stalled for the whole window.
	if s := tr.Longest("c", at(100), at(600)); s.Length < 490*time.Millisecond {
		t.Errorf("c: %s", s.Length)
	}
	if first, ok := tr.FirstWrite("a"); !ok || !first.Equal(at(0)) {
		t.Errorf("first write of a: %v %v", first, ok)
	}
	if _, ok := tr.FirstWrite("c"); ok {
		t.Error("c has a first write")
	}
	// Writes before the origin are ignored.
	tr.Add("a", t0.Add(-time.Second), time.Millisecond, true)
}

func TestCoarsen(t *testing.T) {
	tr := New(t0)
	tr.Add("a", at(0), time.Millisecond, true)
	tr.Add("a", at(10), 5*time.Millisecond, true)
	// Past maxSlots of 10 ms, slots double.
	tr.Add("a", t0.Add(maxSlots*Resolution+time.Second), time.Millisecond, true)
	if tr.width != 2*Resolution {
		t.Fatalf("width %s", tr.width)
	}
	s := tr.eps["a"]
	if !s.done[0] || s.longest[0] != int64(5*time.Millisecond) {
		t.Errorf("merged slot 0: %v %d", s.done[0], s.longest[0])
	}
}

func TestCosts(t *testing.T) {
	tr := New(t0)
	steady(tr, "a", 0, 6000, 1000, 2000)
	steady(tr, "b", 0, 6000, 4000, 4300)
	acts := []results.Action{
		{Action: 1, Step: 1, Kind: "sql", Endpoint: "b", Start: at(900), End: at(1200), Outcome: results.ActionOK},
		{Action: 2, Step: 1, Kind: "pause", Endpoint: "a", Start: at(3500), End: at(3600), Outcome: results.ActionOK},
		{Action: 3, Step: 1, Kind: "sql", Endpoint: "a", Outcome: results.ActionSkipped},
	}
	cs := Costs(tr, acts, []string{"a", "b"}, at(6000))
	if len(cs[0].Endpoints) != 3 || cs[0].Endpoints[2].Endpoint != AllEndpoints {
		t.Fatalf("endpoints of a cost: %+v", cs[0].Endpoints)
	}
	// The steps of a rolling change each end where the next begins.
	steps := Costs(tr, []results.Action{
		{Action: 1, Step: 1, Endpoint: "a", Start: at(500), End: at(900), Outcome: results.ActionOK},
		{Action: 1, Step: 2, Endpoint: "b", Start: at(2500), End: at(2600), Outcome: results.ActionOK},
	}, []string{"a", "b"}, at(6000))
	if steps[0].WindowSeconds != 2 || steps[1].WindowSeconds != 3.5 {
		t.Errorf("rolling steps' windows: %v and %v s, want 2 and 3.5", steps[0].WindowSeconds, steps[1].WindowSeconds)
	}
	if len(cs) != 2 {
		t.Fatalf("%d costs, want 2 (the skipped action has none)", len(cs))
	}
	// Action 1's window runs to action 2's start: it sees a's stall, not b's.
	if c := cs[0]; c.WindowSeconds != 2.6 || c.Endpoints[0].LongestZeroWriteMs < 950 || c.Endpoints[1].LongestZeroWriteMs > 10 {
		t.Errorf("action 1: %+v", c)
	}
	if c := cs[1]; c.Endpoints[0].LongestZeroWriteMs > 10 || c.Endpoints[1].LongestZeroWriteMs < 250 || c.StartSeconds != 3.5 {
		t.Errorf("action 2: %+v", c)
	}
}

// Two endpoints stopped at the same time make a stretch of the cluster.
func TestLongestAll(t *testing.T) {
	tr := New(t0)
	steady(tr, "a", 0, 3000, 1000, 1500)
	steady(tr, "b", 0, 3000, 1100, 1700)
	s := tr.Longest(AllEndpoints, at(0), at(3000))
	if s.Length < 380*time.Millisecond || s.Length > 420*time.Millisecond {
		t.Errorf("all: longest %s, want the 400ms both were stopped", s.Length)
	}
	if first, ok := tr.FirstWrite(AllEndpoints); !ok || !first.Equal(at(0)) {
		t.Errorf("first write of all: %v %v", first, ok)
	}
}

// TestNoTrafficAndNothingInFlight: an endpoint no client wrote through
// (a node behind no client) is "no traffic", not stalled for the whole
// window; a stretch in which no write was even running (the clients were
// reconnecting) has no worst latency to give, rather than 0 ms.
func TestNoTrafficAndNothingInFlight(t *testing.T) {
	tr := New(t0)
	steady(tr, "a", 0, 3000, 1000, 2200) // sends nothing for 1.2 s
	steady(tr, "b", 0, 3000, 1000, 1500)
	tr.Add("b", at(995), 507*time.Millisecond, true) // waits the stall out
	action := results.Action{Action: 1, Step: 1, Kind: "restart", Start: at(900), End: at(1000), Outcome: results.ActionOK}
	costs := Costs(tr, []results.Action{action}, []string{"a", "b", "c"}, at(3000))
	if len(costs) != 1 || len(costs[0].Endpoints) != 4 {
		t.Fatalf("costs %+v", costs)
	}
	a, b, c, all := costs[0].Endpoints[0], costs[0].Endpoints[1], costs[0].Endpoints[2], costs[0].Endpoints[3]
	if !c.NoTraffic || c.LongestZeroWriteMs != 0 || c.LongestText() != "no traffic" || c.LatencyText() != "-" {
		t.Errorf("c, without clients: %+v", c)
	}
	if a.NoTraffic || a.LongestZeroWriteMs < 1150 || !a.NoWriteInFlight || a.LatencyText() != "none in flight" {
		t.Errorf("a, sending nothing for 1.2 s: %+v (%s)", a, a.LatencyText())
	}
	if b.NoWriteInFlight || b.WorstLatencyMs != 507 || b.LatencyText() != "507" {
		t.Errorf("b, a write waiting the stall out: %+v", b)
	}
	// The cluster as a whole is measured on the endpoints with traffic.
	if all.NoTraffic || all.LongestZeroWriteMs > 510 {
		t.Errorf("all: %+v, want the stretch in which neither a nor b wrote", all)
	}
}
