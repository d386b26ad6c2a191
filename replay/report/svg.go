package report

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// series is one line (or set of bars) of a chart.
type series struct {
	name  string
	color string
	x, y  []float64
	bars  bool    // draw as bars from x[i] to x[i+1] (len(x) = len(y)+1)
	axis2 bool    // plotted against the right axis (0..1)
	width float64 // stroke width
}

type tick struct {
	pos   float64
	label string
}

// chart is a small hand-written SVG chart: no library, no script, so the
// report opens offline and prints.
type chart struct {
	title, xlabel, ylabel, y2label string
	logY                           bool
	xticks                         []tick // nil: computed
	xfmt                           func(float64) string
	series                         []series
	w, h                           float64
	bands                          []band // drawn behind the data: the run's actions
}

const (
	padL, padR, padT, padB = 58.0, 46.0, 26.0, 38.0
)

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

func num(v float64) string {
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

func (c chart) svg() string {
	if c.w == 0 {
		c.w, c.h = 520, 230
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %g %g" width="%g" height="%g" role="img">`, c.w, c.h, c.w, c.h)
	fmt.Fprintf(&b, `<title>%s</title>`, html.EscapeString(c.title))
	fmt.Fprintf(&b, `<text x="%g" y="16" class="ct">%s</text>`, padL, html.EscapeString(c.title))
	// Ranges.
	xlo, xhi, ylo, yhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	any := false
	for _, s := range c.series {
		for _, x := range s.x {
			xlo, xhi = math.Min(xlo, x), math.Max(xhi, x)
		}
		if s.axis2 {
			continue
		}
		for _, y := range s.y {
			if c.logY && y <= 0 {
				continue
			}
			ylo, yhi = math.Min(ylo, y), math.Max(yhi, y)
			any = true
		}
	}
	pw, ph := c.w-padL-padR, c.h-padT-padB
	if !any || math.IsInf(xlo, 0) {
		fmt.Fprintf(&b, `<text x="%g" y="%g" class="muted">no data</text></svg>`, padL+10, padT+ph/2)
		return b.String()
	}
	if xhi == xlo {
		xhi = xlo + 1
	}
	if c.logY {
		ylo, yhi = ylo/1.2, yhi*1.2
	} else {
		ylo = math.Min(0, ylo)
		if yhi == ylo {
			yhi = ylo + 1
		}
		yhi *= 1.05
	}
	X := func(x float64) float64 { return padL + (x-xlo)/(xhi-xlo)*pw }
	Y := func(y float64) float64 {
		if c.logY {
			y = math.Max(y, ylo)
			return padT + ph - (math.Log(y)-math.Log(ylo))/(math.Log(yhi)-math.Log(ylo))*ph
		}
		return padT + ph - (y-ylo)/(yhi-ylo)*ph
	}
	Y2 := func(y float64) float64 { return padT + ph - y*ph }
	// Grid and axes.
	var yt []float64
	if c.logY {
		yt = logTicks(ylo, yhi)
	} else {
		yt = niceTicks(ylo, yhi, 4)
	}
	for _, v := range yt {
		y := Y(v)
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" class="grid"/>`, padL, padL+pw, y, y)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="yl">%s</text>`, padL-4, y+3, num(v))
	}
	xt := c.xticks
	if xt == nil {
		for _, v := range niceTicks(xlo, xhi, 5) {
			l := num(v)
			if c.xfmt != nil {
				l = c.xfmt(v)
			}
			xt = append(xt, tick{v, l})
		}
	}
	for _, t := range xt {
		if t.pos < xlo-1e-9 || t.pos > xhi+1e-9 {
			continue
		}
		x := X(t.pos)
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" class="grid"/>`, x, x, padT, padT+ph)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="xl">%s</text>`, x, padT+ph+13, html.EscapeString(t.label))
	}
	for _, bd := range c.bands {
		x0, x1 := math.Max(bd.x0, xlo), math.Min(math.Max(bd.x1, bd.x0), xhi)
		if x1 < x0 {
			continue
		}
		fmt.Fprintf(&b, `<rect x="%.1f" y="%g" width="%.1f" height="%g" class="band"><title>%s</title></rect>`,
			X(x0), padT, math.Max(X(x1)-X(x0), 2), ph, html.EscapeString(bd.label))
	}
	fmt.Fprintf(&b, `<rect x="%g" y="%g" width="%g" height="%g" class="frame"/>`, padL, padT, pw, ph)
	if c.xlabel != "" {
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="al" text-anchor="middle">%s</text>`, padL+pw/2, c.h-4, html.EscapeString(c.xlabel))
	}
	if c.ylabel != "" {
		fmt.Fprintf(&b, `<text transform="translate(12 %.1f) rotate(-90)" class="al" text-anchor="middle">%s</text>`, padT+ph/2, html.EscapeString(c.ylabel))
	}
	if c.y2label != "" {
		for _, v := range []float64{0, 0.5, 1} {
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="y2l">%g</text>`, padL+pw+4, Y2(v)+3, v)
		}
		fmt.Fprintf(&b, `<text transform="translate(%.1f %.1f) rotate(90)" class="al" text-anchor="middle">%s</text>`, c.w-8, padT+ph/2, html.EscapeString(c.y2label))
	}
	// Data.
	for _, s := range c.series {
		yf := Y
		if s.axis2 {
			yf = Y2
		}
		if s.bars {
			for i := range s.y {
				if s.y[i] <= 0 || i+1 >= len(s.x) {
					continue
				}
				x0, x1 := X(s.x[i]), X(s.x[i+1])
				y := yf(s.y[i])
				fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s: %s</title></rect>`,
					x0, y, math.Max(x1-x0-0.5, 0.5), padT+ph-y, s.color, html.EscapeString(s.name), num(s.y[i]))
			}
			continue
		}
		var pts []string
		for i := range s.y {
			if c.logY && !s.axis2 && s.y[i] <= 0 {
				continue
			}
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", X(s.x[i]), yf(s.y[i])))
		}
		w := s.width
		if w == 0 {
			w = 1.6
		}
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="%g"><title>%s</title></polyline>`,
			strings.Join(pts, " "), s.color, w, html.EscapeString(s.name))
	}
	// Legend.
	lx := padL + 6.0
	if len(c.series) > 1 {
		for _, s := range c.series {
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="10" height="3" fill="%s"/><text x="%.1f" y="%.1f" class="lg">%s</text>`,
				lx, padT+8, s.color, lx+13, padT+12, html.EscapeString(s.name))
			lx += 20 + 6*float64(len(s.name))
		}
	}
	b.WriteString(`</svg>`)
	return b.String()
}
