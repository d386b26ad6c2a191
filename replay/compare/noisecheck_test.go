package compare

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckAlike(t *testing.T) {
	n := &Noise{Scenarios: map[string]ScenarioNoise{"a": {MedianRatio: 1.02}}}
	alike := &Comparison{Base: Side{ServerVersion: "10.11.6"}, Candidate: Side{ServerVersion: "10.11.6"}}
	if err := CheckAlike(n, alike); err != nil {
		t.Errorf("alike sides: %v", err)
	}
	unlike := &Comparison{Base: Side{ServerVersion: "10.11.6"}, Candidate: Side{ServerVersion: "11.4.2"},
		SideFailures: []SideFailure{{Side: "candidate", Reason: "it completed nothing"}}}
	far := &Noise{Scenarios: map[string]ScenarioNoise{"a": {MedianRatio: 1.4}, "b": {MedianRatio: 1.52}}}
	var ne *NoiseError
	err := CheckAlike(far, unlike)
	if !errors.As(err, &ne) || err.Error() != "calibration refused: the sides are not alike (the base runs server 10.11.6, the candidate 11.4.2; "+
		"the candidate failed: it completed nothing; their median latencies differ by a ratio of 1.46 (beyond 1.25)): "+
		"a calibration measures the noise of an A/A comparison, where nothing differs between the sides" {
		t.Errorf("unlike sides: %v", err)
	}
	if err := CheckAlike(&Noise{Scenarios: map[string]ScenarioNoise{"a": {MedianRatio: 0.7}}}, alike); err == nil || !strings.Contains(err.Error(), "ratio of 0.70") {
		t.Errorf("a faster candidate: %v", err)
	}
}
