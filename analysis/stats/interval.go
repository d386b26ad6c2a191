package stats

import "math"

// Interval is a ratio (candidate/base) with its confidence interval.
type Interval struct {
	Ratio float64 `json:"ratio"`
	Low   float64 `json:"ci_low"`
	High  float64 `json:"ci_high"`
}

// Intervals of a ratio from per-round statistics on the log scale: the
// ratio is that of the geometric means, and its interval a t interval on
// the logarithms. Paired, when the rounds of the two sides ran next to each
// other: on the mean of the per-pair differences, with n-1 degrees of
// freedom. Welch, when they are independent samples: Welch's standard
// error and degrees of freedom. A floor on the standard deviation (a
// calibrated noise) keeps a few rounds that agree by chance from giving a
// narrow interval.

// PairedInterval is the interval of exp(mean difference) of n >= 2 paired
// log differences at confidence; sdFloor bounds the standard deviation of
// a difference from below.
func PairedInterval(d []float64, sdFloor, confidence float64) Interval {
	mean, v := MeanVar(d)
	sd := math.Max(math.Sqrt(v), sdFloor)
	n := float64(len(d))
	return logInterval(mean, sd/math.Sqrt(n), n-1, confidence)
}

// WelchInterval is the interval of the ratio of geometric means of two
// independent samples of logs (each of at least 2) at confidence; sdFloor
// bounds each side's standard deviation from below.
func WelchInterval(base, cand []float64, sdFloor, confidence float64) Interval {
	mb, vb := MeanVar(base)
	mc, vc := MeanVar(cand)
	floor := sdFloor * sdFloor
	vb, vc = math.Max(vb, floor), math.Max(vc, floor)
	nb, nc := float64(len(base)), float64(len(cand))
	qb, qc := vb/nb, vc/nc
	se := math.Sqrt(qb + qc)
	df := nb + nc - 2
	if se > 0 {
		// Welch-Satterthwaite.
		df = (qb + qc) * (qb + qc) / (qb*qb/(nb-1) + qc*qc/(nc-1))
	}
	return logInterval(mc-mb, se, df, confidence)
}

// logInterval turns a difference of logs, its standard error and degrees
// of freedom into a ratio with its two-sided interval.
func logInterval(diff, se, df, confidence float64) Interval {
	h := StudentTQuantile(1-(1-confidence)/2, df) * se
	// Two rounds of a noisy scenario at a simultaneous confidence can
	// leave the bound beyond what a float holds: it stays the largest
	// one, which JSON can carry (it cannot carry +Inf).
	return Interval{Ratio: math.Exp(diff), Low: math.Exp(diff - h), High: math.Min(math.Exp(diff+h), math.MaxFloat64)}
}

// RatioNoise is the fraction f such that 1 ± f holds, at confidence, a
// ratio whose log is normal with standard error se: how far from 1 the
// ratio of two alike sides strays.
func RatioNoise(se, confidence float64) float64 {
	return math.Exp(NormalQuantile(1-(1-confidence)/2)*se) - 1
}

// MeanVar returns the mean and the sample variance of x (0 for fewer than
// two values).
func MeanVar(x []float64) (mean, variance float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	if len(x) < 2 {
		return mean, 0
	}
	for _, v := range x {
		variance += (v - mean) * (v - mean)
	}
	return mean, variance / float64(len(x)-1)
}

// PooledSD is the standard deviation pooled within two samples: their
// spread about their own means, so that a constant difference between
// them does not count.
func PooledSD(a, b []float64) float64 {
	_, va := MeanVar(a)
	_, vb := MeanVar(b)
	na, nb := float64(len(a)), float64(len(b))
	return math.Sqrt(((na-1)*va + (nb-1)*vb) / (na + nb - 2))
}
