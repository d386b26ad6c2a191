package plot

import (
	"strings"
	"testing"
)

// A scatter plot draws every point with a whisker per interval (none for
// a point without one), the line y = x when asked, and escapes its text.
func TestScatter(t *testing.T) {
	svg := Scatter{Title: "cluster <against> node", XLabel: "node", YLabel: "cluster", Diagonal: "claim: y = x",
		Points: []Point{
			{Label: "10%", X: 10, XLow: 8, XHigh: 12, Y: 9, YLow: 4, YHigh: 14},
			{Label: "0%", Hollow: true, X: 0, XLow: 0, XHigh: 0, Y: 1, YLow: 1, YHigh: 1},
		}}.SVG()
	for want, n := range map[string]int{"<circle": 2, `class="whisker"`: 2, `class="diag"`: 1, "claim: y = x": 2, `fill="#fff"`: 1} {
		if got := strings.Count(svg, want); got != n {
			t.Errorf("%d of %q, want %d:\n%s", got, want, n, svg)
		}
	}
	if !strings.Contains(svg, "cluster &lt;against&gt; node") || strings.Contains(svg, "<against>") {
		t.Errorf("title not escaped:\n%s", svg)
	}
	if none := (Scatter{Title: "t"}).SVG(); !strings.Contains(none, "no data") {
		t.Errorf("no points:\n%s", none)
	}
}
