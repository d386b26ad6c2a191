package stats

import (
	"testing"
)

func TestTwoProportion(t *testing.T) {
	if p := TwoProportionP(10, 1000, 10, 1000); p != 1 {
		t.Errorf("equal rates p=%v", p)
	}
	if p := TwoProportionP(5, 1000, 100, 1000); p > 1e-6 {
		t.Errorf("very different rates p=%v", p)
	}
}
