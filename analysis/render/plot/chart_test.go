package plot

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestChartSVG(t *testing.T) {
	c := Chart{Title: "p95 <latency>", XLabel: "seconds", YLabel: "ms", LogY: true,
		Bands:  []Band{{X0: 1, X1: 2, Label: "action 1"}},
		Series: []Series{{Name: "a", Color: "#000", X: []float64{0, 1, 2, 3}, Y: []float64{1, 10, 0, 100}}, {Name: "b", Color: "#111", X: []float64{0, 3}, Y: []float64{5, 5}}}}
	svg := c.SVG()
	for _, want := range []string{`<svg class="chart"`, `viewBox="0 0 520 230"`, "<title>p95 &lt;latency&gt;</title>",
		`class="band"><title>action 1</title>`, "<polyline", `class="lg">b</text>`, ">seconds</text>", "</svg>"} {
		if !strings.Contains(svg, want) {
			t.Errorf("chart lacks %q:\n%s", want, svg)
		}
	}
	// On a log axis the zero is left out of the line.
	if n := strings.Count(strings.SplitN(svg, "<polyline points=\"", 2)[1], ","); n < 3 {
		t.Errorf("line of a has %d points", n)
	}
	if empty := (Chart{Title: "none"}).SVG(); !strings.Contains(empty, "no data") {
		t.Errorf("empty chart: %s", empty)
	}
}

func TestNum(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 0.5: "0.5", 12: "12", 25000: "25k", 3.5e6: "3.5M"} {
		if got := Num(v); got != want {
			t.Errorf("Num(%v) = %q, want %q", v, got, want)
		}
	}
}

// TestNumHasNoExponent: an axis of nanoseconds read 1e+03M; values at the
// edge of a unit carry into the next one, and none is printed with an
// exponent.
func TestNumHasNoExponent(t *testing.T) {
	for v, want := range map[float64]string{1e9: "1G", 999.96e6: "1G", 999.96e3: "1M", 9999.6: "10k", 1234: "1234", 2.5e9: "2.5G",
		-4e9: "-4G", 7e12: "7T", 1.5e15: "1500T", 0.00012: "0.00012", 12.34e3: "12.3k", 1.05: "1.05"} {
		if got := Num(v); got != want {
			t.Errorf("Num(%v) = %q, want %q", v, got, want)
		}
	}
	for e := -6.0; e <= 15; e += 0.25 {
		for _, v := range []float64{math.Pow(10, e), -math.Pow(10, e), math.Pow(10, e) * 0.99999} {
			if got := Num(v); strings.ContainsAny(got, "e+") {
				t.Errorf("Num(%v) = %q", v, got)
			}
		}
	}
}

// TestLongTitlesWrap: a title longer than its chart is wide wraps onto
// more lines, each fitting, instead of running past the edge; the
// plotting area moves down under it.
func TestLongTitlesWrap(t *testing.T) {
	series := []Series{{Name: "a", Color: "#000", X: []float64{0, 1}, Y: []float64{1, 2}}}
	for _, c := range []Chart{
		{Title: "flow control messages sent per node (the node throttling the cluster)", Series: series},
		{Title: "Innodb_buffer_pool_read_requests /s (node3)", W: 400, H: 180, Series: series},
		{Title: "throughput", Series: series},
	} {
		svg := c.SVG()
		w := c.W
		if w == 0 {
			w = 520
		}
		var lines []string
		for _, part := range strings.Split(svg, `class="ct">`)[1:] {
			lines = append(lines, part[:strings.Index(part, "</text>")])
		}
		if strings.Join(lines, " ") != c.Title {
			t.Errorf("%q drawn as %q", c.Title, lines)
		}
		for _, l := range lines {
			if titleX+float64(len(l))*titleCharWidth > w-4 {
				t.Errorf("title line %q runs past a chart %g wide", l, w)
			}
		}
		if long := len(c.Title)*int(titleCharWidth) > int(w-titleX-4); long != (len(lines) > 1) {
			t.Errorf("%q: %d lines", c.Title, len(lines))
		}
		if len(lines) > 1 && !strings.Contains(svg, fmt.Sprintf(`y="%g" width=`, padT+titleLine*float64(len(lines)-1))) {
			t.Errorf("the plotting area of %q does not move down under it:\n%s", c.Title, svg)
		}
	}
}

// TestHoverShowsValues: pointing at a line chart reads every series'
// value at that x, with units, and the bands there; a long series shares
// columns between neighbouring xs (each then shows the range of values
// it covers); bars are titled with their range instead.
func TestHoverShowsValues(t *testing.T) {
	c := Chart{Title: "latency", XUnit: "s", YUnit: "ms", LogY: true,
		Bands: []Band{{X0: 1.5, X1: 2.5, Label: "action 1: lock"}},
		Series: []Series{{Name: "p50", X: []float64{1, 2, 3}, Y: []float64{1.5, 2, 2.5}},
			{Name: "p99", X: []float64{1, 2, 3}, Y: []float64{12, 0, 30}}}}
	svg := c.SVG()
	if n := strings.Count(svg, `class="hv"`); n != 3 {
		t.Errorf("%d hover columns, want 3:\n%s", n, svg)
	}
	for _, want := range []string{"<title>1 s\np50: 1.5 ms\np99: 12 ms</title>", "<title>2 s\np50: 2 ms\naction 1: lock</title>"} {
		if !strings.Contains(svg, want) {
			t.Errorf("no hover title %q:\n%s", want, svg)
		}
	}
	var x, y []float64
	for i := range 600 {
		x, y = append(x, float64(i)), append(y, float64(i%10))
	}
	long := Chart{Title: "qps", XUnit: "s", Series: []Series{{Name: "qps", X: x, Y: y}}}.SVG()
	if n := strings.Count(long, `class="hv"`); float64(n) > (520-padL-padR)/minHoverWidth || n < 50 {
		t.Errorf("%d hover columns for 600 points", n)
	}
	if !strings.Contains(long, "<title>0–7 s\nqps: 0–7</title>") {
		t.Errorf("a shared column does not show the range it covers:\n%s", long[:2000])
	}
	bars := Chart{Title: "histogram", XUnit: "ms", LogX: true,
		Series: []Series{{Name: "executions", Bars: true, X: []float64{1, 2, 4}, Y: []float64{10, 20}}}}.SVG()
	if strings.Contains(bars, `class="hv"`) || !strings.Contains(bars, "<title>2–4 ms: 20 executions</title>") {
		t.Errorf("bars:\n%s", bars)
	}
}

// TestLegendAboveThePlottingArea: the legend of several series is drawn
// in a strip of its own above the plotting area, where no line can run
// under it (a redo share near 1 hid the legend's names), in as many rows
// as it takes to fit the chart's width.
func TestLegendAboveThePlottingArea(t *testing.T) {
	var series []Series
	for _, name := range []string{"prepare: redo apply (s)", "start and join (s)", "redo share (right axis)", "half the restore"} {
		series = append(series, Series{Name: name, Color: "#000", X: []float64{0, 1}, Y: []float64{0, 1}})
	}
	for _, w := range []float64{900, 500, 300} {
		c := Chart{Title: "share", W: w, H: 300, Series: series}
		svg := c.SVG()
		var frameY float64
		if _, err := fmt.Sscanf(strings.SplitN(svg, `<rect x="58" y="`, 2)[1], "%g", &frameY); err != nil {
			t.Fatalf("no plotting area in %s", svg)
		}
		rows := map[float64]bool{}
		for _, part := range strings.Split(svg, `<text x="`)[1:] {
			if !strings.Contains(part[:strings.Index(part, ">")], `class="lg"`) {
				continue
			}
			var x, y float64
			if _, err := fmt.Sscanf(strings.ReplaceAll(part, `" y="`, " "), "%g %g", &x, &y); err != nil {
				t.Fatal(err)
			}
			name := part[strings.Index(part, ">")+1 : strings.Index(part, "</text>")]
			rows[y] = true
			if y >= frameY {
				t.Errorf("chart %g wide: legend %q at y %g, in the plotting area from %g", w, name, y, frameY)
			}
			if x+legendCharWidth*float64(len(name)) > w && x > padL+20 {
				t.Errorf("chart %g wide: legend %q at x %g runs past the edge", w, name, x)
			}
		}
		if wantRows := c.legendRows(); len(rows) != len(wantRows) || (w == 300) != (len(rows) > 2) {
			t.Errorf("chart %g wide: the legend in %d rows (%v)", w, len(rows), rows)
		}
	}
	one := Chart{Title: "one", Series: series[:1]}.SVG()
	if strings.Contains(one, `class="lg"`) {
		t.Errorf("a single series has no legend: %s", one)
	}
}
