package stats

import (
	"encoding/json"
	"math"
	"testing"
)

func TestRoundIntervals(t *testing.T) {
	// Mean 0.2, standard deviation 0.1 over 3 pairs: t(2) = 4.303.
	iv := PairedInterval([]float64{0.1, 0.2, 0.3}, 0, 0.95)
	h := 4.3027 * 0.1 / math.Sqrt(3)
	if math.Abs(iv.Ratio-math.Exp(0.2)) > 1e-9 || math.Abs(iv.Low-math.Exp(0.2-h)) > 1e-3 || math.Abs(iv.High-math.Exp(0.2+h)) > 1e-3 {
		t.Errorf("paired interval %+v", iv)
	}
	// A floor above the spread widens the interval.
	if f := PairedInterval([]float64{0.1, 0.2, 0.3}, 0.3, 0.95); f.High-f.Low <= iv.High-iv.Low {
		t.Errorf("floored %+v not wider than %+v", f, iv)
	}
	// Welch with equal variances and sizes has 2n-2 degrees of freedom.
	w := WelchInterval([]float64{0, 0.2}, []float64{0.3, 0.5}, 0, 0.95)
	se := math.Sqrt(0.02/2 + 0.02/2)
	if math.Abs(w.Ratio-math.Exp(0.3)) > 1e-9 || math.Abs(w.Low-math.Exp(0.3-4.3027*se)) > 1e-3 {
		t.Errorf("welch interval %+v", w)
	}
	// Two wildly different rounds at a simultaneous confidence: the high
	// bound is beyond a float's range, and stays one JSON can carry.
	wide := PairedInterval([]float64{-40, 40}, 0, 1-1e-9)
	if b, err := json.Marshal(wide); err != nil || math.IsInf(wide.High, 0) || wide.Low < 0 {
		t.Errorf("unbounded interval %+v: %s, %v", wide, b, err)
	}
	// Identical rounds: a zero-width interval, not NaN.
	if z := WelchInterval([]float64{1, 1}, []float64{1, 1}, 0, 0.95); z.Low != 1 || z.High != 1 {
		t.Errorf("identical rounds %+v", z)
	}
}
