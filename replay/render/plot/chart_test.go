package plot

import (
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
