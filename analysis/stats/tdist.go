package stats

import "math"

// StudentTQuantile is the p-quantile (0 < p < 1) of Student's t
// distribution with df degrees of freedom (df > 0, not necessarily an
// integer: Welch's approximation gives fractional ones). It inverts
// StudentTCDF by bisection; 200 halvings reach float64 precision.
func StudentTQuantile(p, df float64) float64 {
	if p == 0.5 {
		return 0
	}
	if p < 0.5 {
		return -StudentTQuantile(1-p, df)
	}
	if math.IsInf(df, 1) || df > 1e7 {
		return math.Sqrt2 * math.Erfinv(2*p-1)
	}
	lo, hi := 0.0, 1.0
	for StudentTCDF(hi, df) < p {
		lo, hi = hi, hi*2
		if hi > 1e12 {
			return math.Inf(1)
		}
	}
	for range 200 {
		mid := (lo + hi) / 2
		if StudentTCDF(mid, df) < p {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo <= 1e-12*hi {
			break
		}
	}
	return (lo + hi) / 2
}

// StudentTCDF is P(T <= t) for Student's t with df degrees of freedom.
func StudentTCDF(t, df float64) float64 {
	x := df / (df + t*t)
	tail := 0.5 * regIncBeta(df/2, 0.5, x)
	if t > 0 {
		return 1 - tail
	}
	return tail
}

// NormalQuantile is the p-quantile of the standard normal distribution.
func NormalQuantile(p float64) float64 { return math.Sqrt2 * math.Erfinv(2*p-1) }

// regIncBeta is the regularized incomplete beta function I_x(a, b), by
// its continued fraction (modified Lentz), using the symmetry
// I_x(a,b) = 1 - I_{1-x}(b,a) where the fraction converges slowly.
func regIncBeta(a, b, x float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	front := math.Exp(lab - la - lb + a*math.Log(x) + b*math.Log1p(-x))
	if x < (a+1)/(a+b+2) {
		return front * betaFraction(a, b, x) / a
	}
	return 1 - front*betaFraction(b, a, 1-x)/b
}

// betaFraction evaluates the continued fraction of regIncBeta.
func betaFraction(a, b, x float64) float64 {
	const tiny = 1e-300
	c, d := 1.0, 1-(a+b)*x/(a+1)
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= 300; m++ {
		fm := float64(m)
		// Even step.
		d, c = lentzStep(fm*(b-fm)*x/((a+2*fm-1)*(a+2*fm)), d, c)
		h *= d * c
		// Odd step.
		d, c = lentzStep(-(a+fm)*(a+b+fm)*x/((a+2*fm)*(a+2*fm+1)), d, c)
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-15 {
			break
		}
	}
	return h
}

// lentzStep is one step of the modified Lentz algorithm with numerator
// num: the new d (already inverted) and c.
func lentzStep(num, d, c float64) (float64, float64) {
	const tiny = 1e-300
	d = 1 + num*d
	if math.Abs(d) < tiny {
		d = tiny
	}
	c = 1 + num/c
	if math.Abs(c) < tiny {
		c = tiny
	}
	return 1 / d, c
}
