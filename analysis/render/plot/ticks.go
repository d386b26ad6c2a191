package plot

import (
	"math"
	"strconv"
	"strings"
)

// An axis shows its range widened to round values at both ends, with 4 to
// 8 ticks: a reader can then read any point off it. Linear axes step by 1,
// 2 or 5 times a power of ten; log axes tick at 1, 2 and 5 times each
// power of ten, at decades alone when those are too many, and like a
// linear axis when the range is too narrow to hold four of either.
const minTicks, maxTicks = 4, 8

// axis is the range an axis shows and its ticks.
type axis struct {
	lo, hi float64
	ticks  []float64
	// step is the distance between linear ticks (0 for 1-2-5 and decade
	// ticks, each labelled on its own).
	step float64
}

// steps125 are the multipliers of a power of ten that ticks step by.
var steps125 = []float64{5, 2, 1}

// linearAxis is the axis of a linear scale holding lo to hi.
func linearAxis(lo, hi float64) axis {
	lo, hi = spread(lo, hi)
	return stepAxis(lo, hi, false)
}

// stepAxis widens lo..hi to multiples of the 1-2-5 step that gives 4 to
// 8 ticks, the nearest to 6 (one always does: the largest step giving 4
// or more gives at most 7, as the next larger gave 3 at most). positive
// keeps the low end above zero (a log scale): when widening would not,
// the ticks stay inside lo..hi.
func stepAxis(lo, hi float64, positive bool) axis {
	var best axis
	for e := math.Floor(math.Log10(hi-lo)) + 1; ; e-- {
		for _, m := range steps125 {
			s := m * math.Pow(10, e)
			a, b := math.Floor(lo/s+1e-9), math.Ceil(hi/s-1e-9)
			wlo := a * s
			if positive && wlo <= 0 {
				a, wlo = math.Ceil(lo/s-1e-9), lo
			}
			n := int(b - a + 1)
			if n > maxTicks {
				return best
			}
			if n < minTicks || best.ticks != nil && abs(n-6) >= abs(len(best.ticks)-6) {
				continue
			}
			best = axis{lo: min(wlo, lo), hi: max(b*s, hi), step: s}
			for i := a; i <= b; i++ {
				best.ticks = append(best.ticks, round12(i*s))
			}
		}
	}
}

func abs(n int) int { return max(n, -n) }

// logAxis is the axis of a log scale holding lo to hi (both above zero).
func logAxis(lo, hi float64) axis {
	if hi <= lo {
		lo, hi = lo/2, hi*2
	}
	// 1, 2 and 5 times powers of ten, the range widened to the nearest
	// outside it
	var vals []float64
	for e := math.Floor(math.Log10(lo)) - 1; e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range []float64{1, 2, 5} {
			vals = append(vals, round12(m*math.Pow(10, e)))
		}
	}
	wlo, whi := lo, hi
	for _, v := range vals {
		if v <= lo*(1+1e-9) {
			wlo = v
		}
	}
	for i := len(vals) - 1; i >= 0 && vals[i] >= hi*(1-1e-9); i-- {
		whi = vals[i]
	}
	var in []float64
	for _, v := range vals {
		if v >= wlo*(1-1e-9) && v <= whi*(1+1e-9) {
			in = append(in, v)
		}
	}
	switch {
	case len(in) > maxTicks:
		return decadeAxis(lo, hi)
	case len(in) >= minTicks:
		return axis{lo: wlo, hi: whi, ticks: in}
	}
	return stepAxis(lo, hi, true)
}

// decadeAxis ticks a wide log range at powers of ten, or at every third
// (sixth, ninth) one when there are more than maxTicks: thousands read
// well with k, M and G.
func decadeAxis(lo, hi float64) axis {
	e0, e1 := math.Floor(math.Log10(lo)+1e-9), math.Ceil(math.Log10(hi)-1e-9)
	k := 1.0
	for (math.Ceil(e1/k)-math.Floor(e0/k))+1 > maxTicks {
		k = math.Floor(k/3)*3 + 3
	}
	e0, e1 = math.Floor(e0/k)*k, math.Ceil(e1/k)*k
	ax := axis{lo: math.Pow(10, e0), hi: math.Pow(10, e1)}
	for e := e0; e <= e1; e += k {
		ax.ticks = append(ax.ticks, round12(math.Pow(10, e)))
	}
	return ax
}

// spread gives an empty range a width, so that it has ticks.
func spread(lo, hi float64) (float64, float64) {
	if hi > lo {
		return lo, hi
	}
	if lo == 0 {
		return 0, 1
	}
	d := math.Abs(lo) / 10
	return lo - d, hi + d
}

// round12 drops the float noise of a product (0.30000000000000004).
func round12(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	return r
}

// labels are the tick labels of the axis: with the digits the step needs,
// the same for every tick, and with k, M, G or T when the largest tick
// needs them; 1-2-5 and decade ticks as Num prints them.
func (a axis) labels() []string {
	out := make([]string, len(a.ticks))
	if a.step == 0 {
		for i, v := range a.ticks {
			out[i] = Num(v)
		}
		return out
	}
	top := 0.0
	for _, v := range a.ticks {
		top = max(top, math.Abs(v))
	}
	u := units[0]
	for _, x := range units[1:] {
		if top >= x.from {
			u = x
		}
	}
	decimals := max(0, -int(math.Floor(math.Log10(a.step/u.div)+1e-9)))
	for i, v := range a.ticks {
		if strings.Trim(strconv.FormatFloat(v/u.div, 'f', decimals, 64), "-0.") == "" {
			out[i] = "0"
			continue
		}
		out[i] = strconv.FormatFloat(v/u.div, 'f', decimals, 64) + u.suffix
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

// logTicks are the ticks of a log axis over lo..hi that fall inside it,
// for a chart that keeps its own range (the forest plot).
func logTicks(lo, hi float64) []float64 {
	var out []float64
	for _, v := range logAxis(lo, hi).ticks {
		if v >= lo*(1-1e-9) && v <= hi*(1+1e-9) {
			out = append(out, v)
		}
	}
	return out
}
