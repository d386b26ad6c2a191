package compare

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// rounds makes the activity of rounds completing n[k] statements each.
func rounds(n ...int64) []RoundActivity {
	out := make([]RoundActivity, len(n))
	for i, v := range n {
		out[i].Completed = v
	}
	return out
}

func TestCheckActivity(t *testing.T) {
	slice := int64(2 * time.Second)
	hung := rounds(20, 18, 0, 0)
	hung[1].Cut, hung[1].LongestCutNs = 2, int64(13900*time.Millisecond)
	killed := rounds(20, 3, 0, 0)
	killed[1].ConnLost = 2
	slow := rounds(4, 4, 0, 4, 4)
	heldUp := rounds(20, 0, 0, 0)
	heldUp[0].ConnLost = 2
	unanswered := rounds(30, 20)
	unanswered[1].Unanswered = 2
	stuck := rounds(30, 15)
	stuck[1].Cut, stuck[1].LongestCutNs, stuck[1].IdleAtEndNs = 2, int64(9*time.Second), int64(9*time.Second)
	for _, c := range []struct {
		name       string
		a          Activity
		failed     string // the side that fails, "" none
		reason     string
		idleWarned bool
	}{
		{"alike", Activity{Base: rounds(20, 21, 20), Candidate: rounds(20, 20, 21), Sliced: true, SliceNs: slice}, "", "", false},
		{"killed in lockstep", Activity{Base: rounds(20, 21, 40, 40), Candidate: killed, Sliced: true, SliceNs: slice}, "candidate",
			"it completed no statement in slices 3-4 of 4 while the base did: its server stopped answering, or its connections were lost; " +
				"2 of its statements failed with a lost connection, none of the base's; it completed 23 statements taking turns with the base, which completed 121", false},
		{"killed in lockstep, holding the base up", Activity{Base: rounds(20, 0, 0, 40), Candidate: heldUp, Sliced: true, SliceNs: slice}, "candidate",
			"it completed no statement in slice 4 of 4 while the base did: its server stopped answering, or its connections were lost; " +
				"2 of its statements failed with a lost connection, none of the base's; it completed 20 statements taking turns with the base, which completed 60; " +
				"neither side completed a statement in slices 2-3 of 4, the base waiting for its turn", false},
		{"hung in lockstep", Activity{Base: rounds(20, 18, 0, 0), Candidate: hung, Sliced: true, SliceNs: slice}, "candidate",
			"neither side completed a statement in slices 3-4 of 4, the base waiting for its turn, and 2 of its statements were still running " +
				"when the run ended, the longest for 13.9s: its server stopped answering", false},
		{"statements longer than a slice", Activity{Base: slow, Candidate: slow, Sliced: true, SliceNs: slice}, "", "", true},
		{"a dead round of whole runs", Activity{Base: rounds(30, 31, 29), Candidate: rounds(20, 0, 0)}, "candidate",
			"it completed no statement in rounds 2-3 of 3 while the base did: its server stopped answering, or its connections were lost " +
				"(or its statements outlast a round)", false},
		{"a slower server's whole rounds", Activity{Base: rounds(30, 31, 29), Candidate: rounds(10, 9, 11)}, "", "", false},
		{"hung in its last round", Activity{Base: rounds(30, 31), Candidate: stuck}, "candidate",
			"nothing completed in the last 9s of round 2 of 2, while 2 of its statements ran on until cut at the end, the longest for 9s: " +
				"its server stopped answering (or its statements run that long)", false},
		{"statements as long on both sides", Activity{Base: stuck, Candidate: stuck}, "", "", false},
		{"calls without a reply", Activity{Base: rounds(30, 31), Candidate: unanswered}, "candidate",
			"2 of its calls had no reply, even to KILL QUERY, and their connections were cut: its server stopped answering", false},
	} {
		failed, warning := CheckActivity(c.a)
		var idle *IdleSlices
		if errors.As(warning, &idle) != c.idleWarned {
			t.Errorf("%s: warning %v", c.name, warning)
		}
		if c.failed == "" {
			if len(failed) > 0 {
				t.Errorf("%s: failed %+v", c.name, failed)
			}
			continue
		}
		if len(failed) != 1 || failed[0].Side != c.failed || failed[0].Reason != c.reason {
			t.Errorf("%s: failed %+v\nwant %s: %s", c.name, failed, c.failed, c.reason)
		}
	}
}

// A side that failed fails the comparison, first of its reasons.
func TestSideFailureFailsTheComparison(t *testing.T) {
	c := New(Options{}.WithDefaults())
	c.Add(ScenarioComparison{Scenario: "a", Verdict: NoChange})
	c.SideFailures = []SideFailure{{Side: "candidate", Reason: "it completed nothing"}}
	NewJudge(Options{}.WithDefaults(), 1, nil).Finish(c, nil, 0, 0)
	if c.Pass || !c.Failed() || len(c.Failures) != 1 || !strings.HasPrefix(c.Failures[0], "the candidate failed: it completed nothing") {
		t.Errorf("pass %v failures %q", c.Pass, c.Failures)
	}
}
