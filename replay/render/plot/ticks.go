package plot

import (
	"math"
	"strconv"
	"strings"
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

// Num prints a value for an axis or a tooltip: short, with k, M, G and T
// for thousands and up (four significant digits below ten thousand, three
// above, two below one), and never in exponent notation.
func Num(v float64) string {
	a := math.Abs(v)
	switch {
	case a == 0:
		return "0"
	case a < 1:
		return fixed(v, 2)
	}
	i := 0
	for i+1 < len(units) && a >= units[i+1].from {
		i++
	}
	for ; ; i++ {
		u := units[i]
		// Rounding may carry into the next unit: 999.96 is 1k, not 1000.
		if i+1 < len(units) && math.Abs(v/u.div) >= u.upTo*(1-0.5*math.Pow(10, -float64(u.digits))) {
			continue
		}
		return fixed(v/u.div, u.digits) + u.suffix
	}
}

// units are Num's scales: from the value up, divided by div, with digits
// significant digits, below upTo.
var units = []struct {
	from, div, upTo float64
	digits          int
	suffix          string
}{
	{1, 1, 1e4, 4, ""},
	{1e4, 1e3, 1e3, 3, "k"},
	{1e6, 1e6, 1e3, 3, "M"},
	{1e9, 1e9, 1e3, 3, "G"},
	{1e12, 1e12, math.Inf(1), 3, "T"},
}

// fixed prints v with digits significant digits (more when it is large),
// in decimal notation, without trailing zeros.
func fixed(v float64, digits int) string {
	d := digits - 1 - int(math.Floor(math.Log10(math.Abs(v))))
	s := strconv.FormatFloat(v, 'f', max(d, 0), 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
