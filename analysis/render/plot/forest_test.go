package plot

import (
	"strings"
	"testing"
)

func TestForestSVG(t *testing.T) {
	f := Forest{Title: "median ratio", XLabel: "candidate / base", Band: [2]float64{1 / 1.1, 1.1}, BandNote: "within 10%",
		Rows: []ForestRow{
			{Label: "simple_inner_index", Mid: 1.56, Low: 1.4, High: 1.69, Color: "#c53030", Title: "regression", Mark: 2.0, MarkTitle: "pages 2.00x"},
			{Label: "a <b>", Mid: 1, Low: 0.9, High: 1.1, Color: "#718096"},
			{Label: "wild", Mid: 3, Low: 0.001, High: 5000, Color: "#718096"},
			{Label: "no latency"},
		}}
	svg := f.SVG()
	for _, want := range []string{`<svg class="chart forest"`, ">simple_inner_index</text>", "a &lt;b&gt;", `class="band"><title>within 10%</title>`,
		`class="one"`, `class="mark"><title>pages 2.00x</title>`, ">candidate / base</text>", "</svg>"} {
		if !strings.Contains(svg, want) {
			t.Errorf("forest lacks %q:\n%s", want, svg)
		}
	}
	// The axis is clamped: an interval out to 5000 does not squash the rest.
	lo, hi := f.xRange()
	if lo < 0.01-1e-12 || hi > 100+1e-9 {
		t.Errorf("axis %v..%v", lo, hi)
	}
	if n := strings.Count(svg, `<g class="row">`); n != 4 {
		t.Errorf("%d rows", n)
	}
}
