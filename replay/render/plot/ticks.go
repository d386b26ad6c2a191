package plot

import (
	"fmt"
	"math"
)

// niceTicks returns about n round values (steps of 1, 2, 2.5 or 5 times a
// power of ten) from lo to hi.
func niceTicks(lo, hi float64, n int) []float64 {
	if hi <= lo {
		hi = lo + 1
	}
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var out []float64
	for v := math.Ceil(lo/step) * step; v <= hi+step*1e-9; v += step {
		out = append(out, v)
	}
	return out
}

// logTicks returns the values 1, 2 and 5 times a power of ten from lo to
// hi, or the powers of ten alone when those are too many.
func logTicks(lo, hi float64) []float64 {
	var out []float64
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, e)
			if v >= lo*0.999 && v <= hi*1.001 {
				out = append(out, v)
			}
		}
	}
	if len(out) > 8 { // keep decades only
		var d []float64
		for _, v := range out {
			if l := math.Log10(v); math.Abs(l-math.Round(l)) < 1e-9 {
				d = append(d, v)
			}
		}
		out = d
	}
	return out
}

// Num prints a value for an axis or a tooltip: short, with k and M for
// thousands and millions.
func Num(v float64) string {
	switch a := math.Abs(v); {
	case a == 0:
		return "0"
	case a >= 1e6:
		return fmt.Sprintf("%.3gM", v/1e6)
	case a >= 1e4:
		return fmt.Sprintf("%.3gk", v/1e3)
	case a >= 1:
		return fmt.Sprintf("%.4g", v)
	default:
		return fmt.Sprintf("%.2g", v)
	}
}
