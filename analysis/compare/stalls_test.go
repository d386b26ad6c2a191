package compare

import "testing"

// An endpoint no client wrote through is "no traffic" on that side, never
// a stall of the whole window that the other side's compares with.
func TestStallsOfEndpointsWithoutTraffic(t *testing.T) {
	side := func(longest, worst float64, noTraffic bool) *ActionCosts {
		return &ActionCosts{Endpoints: []string{"node1", "node3"}, Longest: []float64{longest, 0}, Total: []float64{longest, 0},
			Worst: []float64{worst, 0}, Baseline: []float64{20, 0}, NoTraffic: []bool{false, noTraffic}}
	}
	sc, _ := Stalls(side(3000, 2900, true), side(3100, 3000, true))
	if sc.Verdict != SameStall || sc.Endpoints[1].Verdict != NoTraffic || sc.Endpoints[0].Verdict != SameStall {
		t.Errorf("both without traffic on node3: %+v", sc)
	}
	b := side(3000, 2900, false)
	b.Longest[1] = 34520 // a stall on base's node3, no traffic on the candidate's
	sc, _ = Stalls(b, side(3000, 2900, true))
	if sc.Verdict != SameStall || sc.Endpoints[1].Verdict != NoTraffic+" in candidate" {
		t.Errorf("node3 without traffic in the candidate: %+v", sc)
	}
}
