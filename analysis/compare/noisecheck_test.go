package compare

import (
	"errors"
	"testing"

	"github.com/joinbench/joinbench/analysis/stats"
)

func TestCheckAlike(t *testing.T) {
	alike := &Comparison{Base: Side{ServerVersion: "10.11.6"}, Candidate: Side{ServerVersion: "10.11.6"},
		Overall: &ScenarioComparison{Median: &stats.Interval{Ratio: 1.02, Low: 0.98, High: 1.06}}}
	if err := CheckAlike(alike); err != nil {
		t.Errorf("alike sides: %v", err)
	}
	// Far from 1, but the rounds cannot tell it from 1: noise.
	noisy := &Comparison{Overall: &ScenarioComparison{Median: &stats.Interval{Ratio: 3.8, Low: 0.2, High: 60}}}
	if err := CheckAlike(noisy); err != nil {
		t.Errorf("noisy sides: %v", err)
	}
	// As far, over two rounds a side: a burst of load looks as certain.
	few := &Comparison{Base: Side{Rounds: 2}, Candidate: Side{Rounds: 2},
		Overall: &ScenarioComparison{Median: &stats.Interval{Ratio: 1.5, Low: 1.3, High: 1.7}}}
	if err := CheckAlike(few); err != nil {
		t.Errorf("two rounds a side: %v", err)
	}
	unlike := &Comparison{Base: Side{ServerVersion: "10.11.6", Rounds: 6}, Candidate: Side{ServerVersion: "11.4.2", Rounds: 6},
		SideFailures: []SideFailure{{Side: "candidate", Reason: "it completed nothing"}},
		Scenarios: []ScenarioComparison{{Median: &stats.Interval{Ratio: 1.4, Low: 1.3, High: 1.5}}, {Median: &stats.Interval{Ratio: 1.52, Low: 1.4, High: 1.6}},
			{Median: &stats.Interval{Ratio: 1.1, Low: 0.9, High: 1.3}}}}
	var ne *NoiseError
	err := CheckAlike(unlike)
	if !errors.As(err, &ne) || err.Error() != "calibration refused: the sides are not alike (the base runs server 10.11.6, the candidate 11.4.2; "+
		"the candidate failed: it completed nothing; their median latencies differ by a ratio of 1.46 (beyond 1.25, and beyond the noise of the rounds)): "+
		"a calibration measures the noise of an A/A comparison, where nothing differs between the sides" {
		t.Errorf("unlike sides: %v", err)
	}
}
