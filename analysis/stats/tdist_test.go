package stats

import (
	"math"
	"testing"
)

func TestStudentTQuantile(t *testing.T) {
	// Reference values from statistical tables (two-sided 95% and 90%).
	cases := []struct{ p, df, want float64 }{
		{0.975, 1, 12.7062},
		{0.975, 2, 4.3027},
		{0.975, 4, 2.7764},
		{0.975, 9, 2.2622},
		{0.975, 30, 2.0423},
		{0.95, 5, 2.0150},
		{0.975, 1e9, 1.9600},
		{0.025, 4, -2.7764},
		{0.5, 3, 0},
		{0.975, 4.5, 2.6589}, // fractional (Welch) degrees of freedom, by numeric integration
	}
	for _, c := range cases {
		if got := StudentTQuantile(c.p, c.df); math.Abs(got-c.want) > 5e-4*math.Max(1, math.Abs(c.want)) {
			t.Errorf("t quantile p=%v df=%v: %.4f, want %.4f", c.p, c.df, got, c.want)
		}
	}
	if got := StudentTCDF(2.7764, 4); math.Abs(got-0.975) > 1e-4 {
		t.Errorf("t cdf: %v", got)
	}
}
