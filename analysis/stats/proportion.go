package stats

import "math"

// TwoProportionP is the two-sided p-value of a pooled two-proportion z
// test: are x1/n1 and x2/n2 different rates?
func TwoProportionP(x1, n1, x2, n2 int64) float64 {
	if n1 == 0 || n2 == 0 {
		return 1
	}
	p1, p2 := float64(x1)/float64(n1), float64(x2)/float64(n2)
	p := float64(x1+x2) / float64(n1+n2)
	se := math.Sqrt(p * (1 - p) * (1/float64(n1) + 1/float64(n2)))
	if se == 0 {
		if p1 == p2 {
			return 1
		}
		return 0
	}
	z := math.Abs(p1-p2) / se
	return math.Erfc(z / math.Sqrt2)
}
