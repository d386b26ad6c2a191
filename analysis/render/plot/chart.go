package plot

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// Series is one line (or set of bars) of a chart.
type Series struct {
	Name  string
	Color string
	X, Y  []float64
	Bars  bool    // draw as bars from X[i] to X[i+1] (len(X) = len(Y)+1)
	Axis2 bool    // plotted against the right axis (0..1)
	Width float64 // stroke width (1.6 when 0)
}

// Tick is a labelled position on the x axis.
type Tick struct {
	Pos   float64
	Label string
}

// Band is a stretch of the x axis drawn behind the data (an action of a
// run), with the label it shows on hover.
type Band struct {
	X0, X1 float64
	Label  string
	// Class is added to the band's class ("band quiet"): bands of
	// different meaning are styled apart by the page.
	Class string
}

// Chart is a small SVG chart. Pointing at a line chart shows the values
// of every series at that x (an SVG title per column of the plotting
// area), and the bands there.
type Chart struct {
	Title, XLabel, YLabel, Y2Label string
	// XUnit and YUnit follow values in those titles ("s", "ms"); the
	// axes' labels when empty.
	XUnit, YUnit string
	LogX, LogY   bool
	XTicks       []Tick // nil: computed
	// XFmt labels the computed x ticks and the x of the hover titles
	// (instead of Num and XUnit).
	XFmt   func(float64) string
	Series []Series
	W, H   float64 // 520 by 230 when 0
	Bands  []Band  // drawn behind the data
	// XSpan, when its end is above its start, is held by the x axis
	// whatever the data's range: charts drawn one beneath the other
	// share their x axis.
	XSpan [2]float64
}

// The margins of the plotting area; the top one grows by titleLine for
// each line a long title wraps onto.
const (
	padL, padR, padT, padB = 58.0, 46.0, 26.0, 38.0
	titleLine              = 14.0
)

// titleX is where a title starts, and titleCharWidth the widest an
// average character of it is (12 px, semibold): a title wraps so that no
// line runs past the chart's right edge.
const (
	titleX         = 8.0
	titleCharWidth = 7.0
)

// titleLines wraps title at spaces into lines that fit a chart w wide.
func titleLines(title string, w float64) []string {
	fit := int((w - titleX - 4) / titleCharWidth)
	var lines []string
	line := ""
	for _, word := range strings.Fields(title) {
		switch {
		case line == "":
			line = word
		case len(line)+1+len(word) <= fit:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	return append(lines, line)
}

// SVG renders the chart as an <svg> element.
func (c Chart) SVG() string {
	if c.W == 0 {
		c.W, c.H = 520, 230
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %g %g" width="%g" height="%g" role="img">`, c.W, c.H, c.W, c.H)
	fmt.Fprintf(&b, `<title>%s</title>`, html.EscapeString(c.Title))
	lines := titleLines(c.Title, c.W)
	for i, l := range lines {
		fmt.Fprintf(&b, `<text x="%g" y="%g" class="ct">%s</text>`, titleX, 16+titleLine*float64(i), html.EscapeString(l))
	}
	legend := c.legendRows()
	f, ok := c.frame(padT + titleLine*float64(len(lines)-1) + legendLine*float64(len(legend)))
	if !ok {
		fmt.Fprintf(&b, `<text x="%g" y="%g" class="muted">no data</text></svg>`, padL+10, f.top+f.ph/2)
		return b.String()
	}
	f.grid(&b, c)
	f.bands(&b, c.Bands)
	fmt.Fprintf(&b, `<rect x="%g" y="%g" width="%g" height="%g" class="frame"/>`, padL, f.top, f.pw, f.ph)
	f.labels(&b, c)
	for _, s := range c.Series {
		f.series(&b, s, c)
	}
	legendSVG(&b, legend, f.top)
	f.hover(&b, c)
	b.WriteString(`</svg>`)
	return b.String()
}

// frame maps data to the plotting area: the axes (their ranges and
// ticks) and the area's place and size.
type frame struct {
	xlo, xhi, ylo, yhi float64
	xa, ya             axis
	top, pw, ph        float64
	logX, logY         bool
}

// frame returns the chart's frame, its plotting area top from the top;
// false when there is no data to draw. A log axis leaves out values of 0
// and below.
func (c Chart) frame(top float64) (frame, bool) {
	f := frame{xlo: math.Inf(1), xhi: math.Inf(-1), ylo: math.Inf(1), yhi: math.Inf(-1),
		top: top, pw: c.W - padL - padR, ph: c.H - top - padB, logX: c.LogX, logY: c.LogY}
	any := false
	for _, s := range c.Series {
		for _, x := range s.X {
			if c.LogX && x <= 0 {
				continue
			}
			f.xlo, f.xhi = math.Min(f.xlo, x), math.Max(f.xhi, x)
		}
		if s.Axis2 {
			continue
		}
		for _, y := range s.Y {
			if c.LogY && y <= 0 {
				continue
			}
			f.ylo, f.yhi = math.Min(f.ylo, y), math.Max(f.yhi, y)
			any = true
		}
	}
	if !any || math.IsInf(f.xlo, 0) {
		return f, false
	}
	if c.XSpan[1] > c.XSpan[0] && !c.LogX {
		f.xlo, f.xhi = math.Min(f.xlo, c.XSpan[0]), math.Max(f.xhi, c.XSpan[1])
	}
	switch {
	case c.XTicks != nil: // the caller's ticks: the data's range
		if f.xhi == f.xlo {
			f.xhi = f.xlo + 1
		}
	case c.LogX:
		f.xa = logAxis(f.xlo, f.xhi)
		f.xlo, f.xhi = f.xa.lo, f.xa.hi
	default:
		f.xa = linearAxis(f.xlo, f.xhi)
		f.xlo, f.xhi = f.xa.lo, f.xa.hi
	}
	if c.LogY {
		f.ya = logAxis(f.ylo, f.yhi)
	} else {
		// counts, rates and latencies read from zero
		f.ya = linearAxis(math.Min(0, f.ylo), f.yhi)
	}
	f.ylo, f.yhi = f.ya.lo, f.ya.hi
	return f, true
}

func (f frame) x(x float64) float64 {
	if f.logX {
		x = math.Max(x, f.xlo)
		return padL + (math.Log(x)-math.Log(f.xlo))/(math.Log(f.xhi)-math.Log(f.xlo))*f.pw
	}
	return padL + (x-f.xlo)/(f.xhi-f.xlo)*f.pw
}

func (f frame) y(y float64) float64 {
	if f.logY {
		y = math.Max(y, f.ylo)
		return f.top + f.ph - (math.Log(y)-math.Log(f.ylo))/(math.Log(f.yhi)-math.Log(f.ylo))*f.ph
	}
	return f.top + f.ph - (y-f.ylo)/(f.yhi-f.ylo)*f.ph
}

// y2 maps the right axis, from 0 to 1.
func (f frame) y2(y float64) float64 { return f.top + f.ph - y*f.ph }

// grid draws the grid lines and tick labels of both axes.
func (f frame) grid(b *strings.Builder, c Chart) {
	for i, l := range f.ya.labels() {
		y := f.y(f.ya.ticks[i])
		fmt.Fprintf(b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" class="grid"/>`, padL, padL+f.pw, y, y)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" class="yl">%s</text>`, padL-4, y+3, l)
	}
	xt := c.XTicks
	if xt == nil {
		for i, l := range f.xa.labels() {
			v := f.xa.ticks[i]
			if c.XFmt != nil {
				l = c.XFmt(v)
			}
			xt = append(xt, Tick{v, l})
		}
	}
	for _, t := range xt {
		if t.Pos < f.xlo-1e-9*math.Abs(f.xlo) || t.Pos > f.xhi+1e-9*math.Abs(f.xhi) {
			continue
		}
		x := f.x(t.Pos)
		fmt.Fprintf(b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" class="grid"/>`, x, x, f.top, f.top+f.ph)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" class="xl">%s</text>`, x, f.top+f.ph+13, html.EscapeString(t.Label))
	}
}

// bands draws the bands behind the data.
func (f frame) bands(b *strings.Builder, bands []Band) {
	for _, bd := range bands {
		x0, x1 := math.Max(bd.X0, f.xlo), math.Min(math.Max(bd.X1, bd.X0), f.xhi)
		if x1 < x0 {
			continue
		}
		class := "band"
		if bd.Class != "" {
			class += " " + bd.Class
		}
		fmt.Fprintf(b, `<rect x="%.1f" y="%g" width="%.1f" height="%g" class="%s"><title>%s</title></rect>`,
			f.x(x0), f.top, math.Max(f.x(x1)-f.x(x0), 2), f.ph, html.EscapeString(class), html.EscapeString(bd.Label))
	}
}

// labels draws the axes' labels, and the right axis's ticks when it has
// a label.
func (f frame) labels(b *strings.Builder, c Chart) {
	if c.XLabel != "" {
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" class="al" text-anchor="middle">%s</text>`, padL+f.pw/2, c.H-4, html.EscapeString(c.XLabel))
	}
	if c.YLabel != "" {
		fmt.Fprintf(b, `<text transform="translate(12 %.1f) rotate(-90)" class="al" text-anchor="middle">%s</text>`, f.top+f.ph/2, html.EscapeString(c.YLabel))
	}
	if c.Y2Label != "" {
		for _, v := range []float64{0, 0.5, 1} {
			fmt.Fprintf(b, `<text x="%.1f" y="%.1f" class="y2l">%g</text>`, padL+f.pw+4, f.y2(v)+3, v)
		}
		fmt.Fprintf(b, `<text transform="translate(%.1f %.1f) rotate(90)" class="al" text-anchor="middle">%s</text>`, c.W-8, f.top+f.ph/2, html.EscapeString(c.Y2Label))
	}
}

// series draws one series of chart c, as bars (each titled with its
// range and value) or as a line.
func (f frame) series(b *strings.Builder, s Series, c Chart) {
	yf := f.y
	if s.Axis2 {
		yf = f.y2
	}
	if s.Bars {
		for i := range s.Y {
			if s.Y[i] <= 0 || i+1 >= len(s.X) {
				continue
			}
			x0, x1 := f.x(s.X[i]), f.x(s.X[i+1])
			y := yf(s.Y[i])
			fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s: %s %s</title></rect>`,
				x0, y, math.Max(x1-x0-0.5, 0.5), f.top+f.ph-y, s.Color, html.EscapeString(c.xText(s.X[i], s.X[i+1])), Num(s.Y[i]), html.EscapeString(s.Name))
		}
		return
	}
	var pts []string
	for i := range s.Y {
		if f.logY && !s.Axis2 && s.Y[i] <= 0 || f.logX && s.X[i] <= 0 {
			continue
		}
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", f.x(s.X[i]), yf(s.Y[i])))
	}
	w := s.Width
	if w == 0 {
		w = 1.6
	}
	fmt.Fprintf(b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="%g"><title>%s</title></polyline>`,
		strings.Join(pts, " "), s.Color, w, html.EscapeString(s.Name))
}

// legendLine is the height of a row of the legend, and legendCharWidth
// the widest an average character of a series' name is (11 px).
const (
	legendLine      = 14.0
	legendCharWidth = 6.0
)

// legendEntry is a series' name in the legend, at x in its row.
type legendEntry struct {
	x     float64
	name  string
	color string
}

// legendRows lays out the legend, when there are several series: their
// names in rows that fit the chart's width, in a strip of their own above
// the plotting area, where no line or point can run under them.
func (c Chart) legendRows() [][]legendEntry {
	if len(c.Series) < 2 {
		return nil
	}
	var rows [][]legendEntry
	var row []legendEntry
	lx := padL + 6.0
	for _, s := range c.Series {
		w := 20 + legendCharWidth*float64(len(s.Name))
		if len(row) > 0 && lx+w > c.W-4 {
			rows, row, lx = append(rows, row), nil, padL+6.0
		}
		row = append(row, legendEntry{x: lx, name: s.Name, color: s.Color})
		lx += w
	}
	return append(rows, row)
}

// legendSVG draws the legend's rows in the strip that ends at top, the
// plotting area's top edge.
func legendSVG(b *strings.Builder, rows [][]legendEntry, top float64) {
	for i, row := range rows {
		y := top - legendLine*float64(len(rows)-i) + 4
		for _, e := range row {
			fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="10" height="3" fill="%s"/><text x="%.1f" y="%.1f" class="lg">%s</text>`,
				e.x, y, e.color, e.x+13, y+4, html.EscapeString(e.name))
		}
	}
}
