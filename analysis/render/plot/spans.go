package plot

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// Span is one stretch of a bar: from From to To on the x axis, of a kind
// (its colour, named in the legend), with the text shown on hover.
type Span struct {
	From, To float64
	Kind     string
	Title    string
}

// Mark is an instant on a bar (a node writable again), drawn as a tick
// across it.
type Mark struct {
	At    float64
	Title string
}

// Bar is one row of a Spans chart: its label, its spans left to right,
// and its marks.
type Bar struct {
	Label string
	Spans []Span
	Marks []Mark
	// Note is written after the bar's end (how it ended: "never Synced").
	Note string
}

// SpanKind names a kind of span and gives its colour.
type SpanKind struct {
	Name, Color string
}

// Spans is a chart of horizontal bars made of spans on one linear x axis
// from 0: a timeline per row (a node's recovery) or a whole cut into its
// phases (a restore), stacked left to right.
type Spans struct {
	Title, XLabel string
	// XUnit follows values in the hover titles ("s").
	XUnit string
	Kinds []SpanKind // the legend, in order; a span of another kind is grey
	Bars  []Bar
	W     float64 // 760 when 0
}

// Its layout: a label column on the left, a legend under the title, rows
// of spansRowH.
const (
	spansLabelW = 150.0
	spansRowH   = 24.0
	spansBarH   = 14.0
	spansPadT   = 44.0
	spansPadB   = 34.0
	spansPadR   = 70.0
)

// SVG renders the chart as an <svg> element.
func (s Spans) SVG() string {
	if s.W == 0 {
		s.W = 760
	}
	h := spansPadT + spansRowH*float64(max(len(s.Bars), 1)) + spansPadB
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart spans" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %g %g" width="%g" height="%g" role="img">`, s.W, h, s.W, h)
	fmt.Fprintf(&b, `<title>%s</title>`, html.EscapeString(s.Title))
	fmt.Fprintf(&b, `<text x="%g" y="16" class="ct">%s</text>`, titleX, html.EscapeString(s.Title))
	color := map[string]string{}
	lx := spansLabelW
	for _, k := range s.Kinds {
		color[k.Name] = k.Color
		fmt.Fprintf(&b, `<rect x="%.1f" y="26" width="12" height="8" fill="%s"/><text x="%.1f" y="34" class="lg">%s</text>`,
			lx, k.Color, lx+16, html.EscapeString(k.Name))
		lx += 28 + 6*float64(len(k.Name))
	}
	hi := 0.0
	for _, bar := range s.Bars {
		for _, sp := range bar.Spans {
			hi = math.Max(hi, math.Max(sp.From, sp.To))
		}
		for _, m := range bar.Marks {
			hi = math.Max(hi, m.At)
		}
	}
	bottom := h - spansPadB
	if hi <= 0 {
		fmt.Fprintf(&b, `<text x="%g" y="%g" class="muted">no data</text></svg>`, spansLabelW+10, spansPadT+spansRowH/2)
		return b.String()
	}
	ax := linearAxis(0, hi)
	pw := s.W - spansLabelW - spansPadR
	x := func(v float64) float64 {
		return spansLabelW + (math.Max(v, ax.lo)-ax.lo)/(ax.hi-ax.lo)*pw
	}
	for i, l := range ax.labels() {
		t := ax.ticks[i]
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%g" y2="%.1f" class="grid"/>`, x(t), x(t), spansPadT, bottom)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="xl">%s</text>`, x(t), bottom+13, l)
	}
	fmt.Fprintf(&b, `<rect x="%g" y="%g" width="%.1f" height="%.1f" class="frame"/>`, spansLabelW, spansPadT, pw, bottom-spansPadT)
	num := func(v float64) string { return strings.TrimSpace(Num(v) + " " + s.XUnit) }
	for i, bar := range s.Bars {
		y := spansPadT + spansRowH*float64(i) + (spansRowH-spansBarH)/2
		fmt.Fprintf(&b, `<g class="bar"><text x="%g" y="%.1f" class="rl">%s</text>`, spansLabelW-6, y+spansBarH-3, html.EscapeString(bar.Label))
		end := 0.0
		for _, sp := range bar.Spans {
			c := color[sp.Kind]
			if c == "" {
				c = "#a0aec0"
			}
			title := sp.Title
			if title == "" {
				title = fmt.Sprintf("%s: %s to %s (%s)", sp.Kind, num(sp.From), num(sp.To), num(sp.To-sp.From))
			}
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%g" fill="%s" class="span"><title>%s</title></rect>`,
				x(sp.From), y, math.Max(x(sp.To)-x(sp.From), 1), spansBarH, c, html.EscapeString(title))
			end = math.Max(end, sp.To)
		}
		for _, m := range bar.Marks {
			fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" class="tick" stroke="#1a202c" stroke-width="2"><title>%s</title></line>`,
				x(m.At), x(m.At), y-3, y+spansBarH+3, html.EscapeString(m.Title))
			end = math.Max(end, m.At)
		}
		if bar.Note != "" {
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="lg">%s</text>`, x(end)+5, y+spansBarH-3, html.EscapeString(bar.Note))
		}
		b.WriteString(`</g>`)
	}
	if s.XLabel != "" {
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="al" text-anchor="middle">%s</text>`, spansLabelW+pw/2, h-4, html.EscapeString(s.XLabel))
	}
	b.WriteString(`</svg>`)
	return b.String()
}
