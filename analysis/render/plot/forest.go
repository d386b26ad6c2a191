package plot

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// ForestRow is one row of a forest plot: an estimate with its interval.
type ForestRow struct {
	Label          string
	Mid, Low, High float64
	Color          string
	Title          string // shown on hover
	// Mark, when positive, is a second estimate drawn as a diamond on the
	// row (another measure of the same change); MarkTitle its hover text.
	Mark      float64
	MarkTitle string
}

// Forest is a forest plot of ratios on a log axis: one row per estimate,
// its interval as a whisker, a line at 1 and a band behind the rows (the
// range of ratios that do not count).
type Forest struct {
	Title    string
	XLabel   string
	Rows     []ForestRow
	Band     [2]float64 // band behind the rows, e.g. 1/1.1 to 1.1; zeros: none
	BandNote string     // the band's hover text
	W        float64    // 760 when 0
}

// Its layout: a label column on the left, rows of forestRowH.
const (
	forestLabelW = 210.0
	forestRowH   = 18.0
	forestPadT   = 30.0
	forestPadB   = 34.0
	forestPadR   = 20.0
	// forestClamp bounds the axis: an interval from a handful of rounds
	// can reach 1e3, which would leave every other row a dot.
	forestClamp = 100.0
)

// SVG renders the forest plot as an <svg> element.
func (f Forest) SVG() string {
	if f.W == 0 {
		f.W = 760
	}
	h := forestPadT + forestRowH*float64(max(len(f.Rows), 1)) + forestPadB
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart forest" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %g %g" width="%g" height="%g" role="img">`, f.W, h, f.W, h)
	fmt.Fprintf(&b, `<title>%s</title>`, html.EscapeString(f.Title))
	fmt.Fprintf(&b, `<text x="%g" y="16" class="ct">%s</text>`, forestLabelW, html.EscapeString(f.Title))
	lo, hi := f.xRange()
	pw := f.W - forestLabelW - forestPadR
	x := func(v float64) float64 {
		v = math.Min(math.Max(v, lo), hi)
		return forestLabelW + (math.Log(v)-math.Log(lo))/(math.Log(hi)-math.Log(lo))*pw
	}
	bottom := h - forestPadB
	for _, v := range logTicks(lo, hi) {
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%g" y2="%.1f" class="grid"/>`, x(v), x(v), forestPadT, bottom)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="xl">%s</text>`, x(v), bottom+13, Num(v))
	}
	if f.Band[1] > f.Band[0] && f.Band[0] > 0 {
		fmt.Fprintf(&b, `<rect x="%.1f" y="%g" width="%.1f" height="%.1f" class="band"><title>%s</title></rect>`,
			x(f.Band[0]), forestPadT, x(f.Band[1])-x(f.Band[0]), bottom-forestPadT, html.EscapeString(f.BandNote))
	}
	fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%g" y2="%.1f" class="one"/>`, x(1), x(1), forestPadT, bottom)
	fmt.Fprintf(&b, `<rect x="%g" y="%g" width="%.1f" height="%.1f" class="frame"/>`, forestLabelW, forestPadT, pw, bottom-forestPadT)
	for i, r := range f.Rows {
		y := forestPadT + forestRowH*(float64(i)+0.5)
		fmt.Fprintf(&b, `<g class="row"><title>%s</title>`, html.EscapeString(r.Title))
		fmt.Fprintf(&b, `<text x="%g" y="%.1f" class="rl">%s</text>`, forestLabelW-6, y+3.5, html.EscapeString(r.Label))
		if r.Mid > 0 {
			if r.Low > 0 && r.High > 0 {
				fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s" stroke-width="2"/>`, x(r.Low), x(r.High), y, y, r.Color)
				for _, e := range []float64{r.Low, r.High} {
					fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s" stroke-width="1.5"/>`, x(e), x(e), y-4, y+4, r.Color)
				}
			}
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="7" height="7" fill="%s"/>`, x(r.Mid)-3.5, y-3.5, r.Color)
		}
		if r.Mark > 0 {
			fmt.Fprintf(&b, `<path d="M%.1f %.1fl5 5l-5 5l-5-5z" class="mark"><title>%s</title></path>`, x(r.Mark), y-5, html.EscapeString(r.MarkTitle))
		}
		b.WriteString(`</g>`)
	}
	if f.XLabel != "" {
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="al" text-anchor="middle">%s</text>`, forestLabelW+pw/2, h-4, html.EscapeString(f.XLabel))
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// xRange is the axis's range: every estimate, interval and the band, with
// a margin, within [1/forestClamp, forestClamp].
func (f Forest) xRange() (lo, hi float64) {
	lo, hi = 1.0, 1.0
	grow := func(v float64) {
		if v > 0 && !math.IsInf(v, 0) && !math.IsNaN(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	for _, r := range f.Rows {
		grow(r.Mid)
		grow(r.Low)
		grow(r.High)
		grow(r.Mark)
	}
	grow(f.Band[0])
	grow(f.Band[1])
	lo, hi = math.Max(lo/1.15, 1/forestClamp), math.Min(hi*1.15, forestClamp)
	return lo, hi
}
