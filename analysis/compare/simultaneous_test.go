package compare

import (
	"math"
	"testing"
)

func TestSimultaneousConfidence(t *testing.T) {
	per, all := simultaneousConfidence(0.95, 38, true)
	if math.Abs(all-0.9875) > 1e-12 || math.Abs(per-(1-0.025/76)) > 1e-12 {
		t.Errorf("38 scenarios and the overall row: %v, %v", per, all)
	}
	if per, all := simultaneousConfidence(0.95, 1, false); math.Abs(per-0.975) > 1e-12 || all != 0 {
		t.Errorf("one scenario: %v, %v", per, all)
	}
}
