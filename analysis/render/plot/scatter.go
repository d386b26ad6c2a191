package plot

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// Point is one estimate of a scatter plot: x and y, each with its
// interval (a whisker; none when Low and High equal the estimate).
type Point struct {
	Label          string // written beside the point
	X, XLow, XHigh float64
	Y, YLow, YHigh float64
	Title          string // shown on hover
	Color          string // #2b6cb0 when empty
	Hollow         bool   // drawn as a ring: a control, not a dose
}

// Scatter is estimates of y against x with their intervals on both axes,
// on linear axes that share one scale, and optionally the line y = x
// drawn beside them: what a claim that y follows x predicts.
type Scatter struct {
	Title, XLabel, YLabel string
	Points                []Point
	// Diagonal, when not empty, draws y = x across the plot and names it
	// in the legend.
	Diagonal string
	W, H     float64 // 520 by 360 when 0
}

// SVG renders the scatter plot as an <svg> element.
func (s Scatter) SVG() string {
	if s.W == 0 {
		s.W, s.H = 520, 360
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart scatter" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %g %g" width="%g" height="%g" role="img">`, s.W, s.H, s.W, s.H)
	fmt.Fprintf(&b, `<title>%s</title>`, html.EscapeString(s.Title))
	lines := titleLines(s.Title, s.W)
	for i, l := range lines {
		fmt.Fprintf(&b, `<text x="%g" y="%g" class="ct">%s</text>`, titleX, 16+titleLine*float64(i), html.EscapeString(l))
	}
	top := padT + titleLine*float64(len(lines)-1)
	if len(s.Points) == 0 {
		fmt.Fprintf(&b, `<text x="%g" y="%g" class="muted">no data</text></svg>`, padL+10, top+40)
		return b.String()
	}
	ax := linearAxis(s.extent())
	pw, ph := s.W-padL-padR, s.H-top-padB
	x := func(v float64) float64 { return padL + (v-ax.lo)/(ax.hi-ax.lo)*pw }
	y := func(v float64) float64 { return top + ph - (v-ax.lo)/(ax.hi-ax.lo)*ph }
	for i, l := range ax.labels() {
		t := ax.ticks[i]
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" class="grid"/>`, padL, padL+pw, y(t), y(t))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="yl">%s</text>`, padL-4, y(t)+3, l)
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" class="grid"/>`, x(t), x(t), top, top+ph)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="xl">%s</text>`, x(t), top+ph+13, l)
	}
	fmt.Fprintf(&b, `<rect x="%g" y="%g" width="%.1f" height="%.1f" class="frame"/>`, padL, top, pw, ph)
	if s.Diagonal != "" {
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" class="diag" stroke="#a0aec0" stroke-width="1.5" stroke-dasharray="5 4"><title>%s</title></line>`,
			x(ax.lo), x(ax.hi), y(ax.lo), y(ax.hi), html.EscapeString(s.Diagonal))
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#a0aec0" stroke-width="1.5" stroke-dasharray="5 4"/><text x="%.1f" y="%.1f" class="lg">%s</text>`,
			padL+6, padL+22, top+10, top+10, padL+26, top+13, html.EscapeString(s.Diagonal))
	}
	for _, p := range s.Points {
		color := p.Color
		if color == "" {
			color = "#2b6cb0"
		}
		fmt.Fprintf(&b, `<g class="point"><title>%s</title>`, html.EscapeString(p.Title))
		if p.YHigh > p.YLow {
			fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s" stroke-width="1.5" class="whisker"/>`, x(p.X), x(p.X), y(p.YLow), y(p.YHigh), color)
		}
		if p.XHigh > p.XLow {
			fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s" stroke-width="1.5" class="whisker"/>`, x(p.XLow), x(p.XHigh), y(p.Y), y(p.Y), color)
		}
		fill := color
		if p.Hollow {
			fill = "#fff"
		}
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="4" fill="%s" stroke="%s" stroke-width="1.5"/>`, x(p.X), y(p.Y), fill, color)
		if p.Label != "" {
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="lg">%s</text>`, x(p.X)+7, y(p.Y)-6, html.EscapeString(p.Label))
		}
		b.WriteString(`</g>`)
	}
	if s.XLabel != "" {
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="al" text-anchor="middle">%s</text>`, padL+pw/2, s.H-4, html.EscapeString(s.XLabel))
	}
	if s.YLabel != "" {
		fmt.Fprintf(&b, `<text transform="translate(12 %.1f) rotate(-90)" class="al" text-anchor="middle">%s</text>`, top+ph/2, html.EscapeString(s.YLabel))
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// extent is the range both axes share: every estimate and interval end,
// and 0, so that the line y = x crosses the plot corner to corner.
func (s Scatter) extent() (lo, hi float64) {
	lo, hi = 0, 0
	for _, p := range s.Points {
		for _, v := range []float64{p.X, p.XLow, p.XHigh, p.Y, p.YLow, p.YHigh} {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	return lo, hi
}
