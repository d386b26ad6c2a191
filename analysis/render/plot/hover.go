package plot

import (
	"fmt"
	"html"
	"math"
	"slices"
	"strings"
)

// minHoverWidth is the narrowest hover column, in pixels: neighbouring
// xs closer than that share one, so that a long series does not make the
// page heavy.
const minHoverWidth = 5.0

// hover draws, over the plotting area of a line chart, one transparent
// column per x of its series (or per run of neighbouring xs), titled with
// the value of every series there and the bands it crosses: pointing at a
// chart reads its values.
func (f frame) hover(b *strings.Builder, c Chart) {
	var xs []float64
	for _, s := range c.Series {
		if s.Bars {
			return // bars carry titles of their own
		}
		for _, x := range s.X {
			if !f.logX || x > 0 {
				xs = append(xs, x)
			}
		}
	}
	slices.Sort(xs)
	xs = slices.Compact(xs)
	if len(xs) == 0 {
		return
	}
	values := make([]map[float64]float64, len(c.Series))
	for i, s := range c.Series {
		values[i] = map[float64]float64{}
		for j, x := range s.X {
			if j < len(s.Y) && (!f.logY || s.Axis2 || s.Y[j] > 0) {
				values[i][x] = s.Y[j]
			}
		}
	}
	per := int(math.Ceil(float64(len(xs)) / math.Max(math.Floor(f.pw/minHoverWidth), 1)))
	for from := 0; from < len(xs); from += per {
		group := xs[from:min(from+per, len(xs))]
		left, right := padL, padL+f.pw
		if from > 0 {
			left = (f.x(xs[from-1]) + f.x(group[0])) / 2
		}
		if to := from + len(group); to < len(xs) {
			right = (f.x(group[len(group)-1]) + f.x(xs[to])) / 2
		}
		lines := []string{c.xText(group[0], group[len(group)-1])}
		for i, s := range c.Series {
			lo, hi, n := math.Inf(1), math.Inf(-1), 0
			for _, x := range group {
				if v, ok := values[i][x]; ok {
					lo, hi, n = math.Min(lo, v), math.Max(hi, v), n+1
				}
			}
			if n > 0 {
				lines = append(lines, s.Name+": "+c.yText(lo, hi, s.Axis2))
			}
		}
		for _, bd := range c.Bands {
			if bd.X0 <= group[len(group)-1] && math.Max(bd.X1, bd.X0) >= group[0] {
				lines = append(lines, bd.Label)
			}
		}
		fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#000" fill-opacity="0" class="hv"><title>%s</title></rect>`,
			left, f.top, math.Max(right-left, 0.5), f.ph, html.EscapeString(strings.Join(lines, "\n")))
	}
}

// xText says where a hover column is: one x, or the first and last of
// those it covers.
func (c Chart) xText(a, z float64) string {
	f := func(v float64) string {
		if c.XFmt != nil {
			return c.XFmt(v)
		}
		return Num(v)
	}
	s := f(a)
	if z != a {
		s += "–" + f(z)
	}
	if c.XFmt == nil && c.XUnit != "" {
		s += " " + c.XUnit
	}
	return s
}

// yText is a value in a hover title, or the range of those a column
// covers, with the unit of its axis.
func (c Chart) yText(lo, hi float64, axis2 bool) string {
	s := Num(lo)
	if hi != lo {
		s += "–" + Num(hi)
	}
	if !axis2 && c.YUnit != "" {
		s += " " + c.YUnit
	}
	return s
}
