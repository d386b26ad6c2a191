package plot

import (
	"strings"
	"testing"
)

func TestSpansSVG(t *testing.T) {
	s := Spans{Title: "recovery <all>", XLabel: "seconds after the crash", XUnit: "s",
		Kinds: []SpanKind{{"down", "#c53030"}, {"IST", "#dd6b20"}},
		Bars: []Bar{
			{Label: "node1", Spans: []Span{{From: 0, To: 4, Kind: "down"}, {From: 4, To: 6, Kind: "IST"}}, Marks: []Mark{{At: 5, Title: "writable at 5 s"}}},
			{Label: "node2", Spans: []Span{{From: 0, To: 3, Kind: "other"}}, Note: "never Synced"},
		}}
	svg := s.SVG()
	for _, want := range []string{`<svg class="chart spans"`, "<title>recovery &lt;all&gt;</title>", `class="rl">node1</text>`,
		`fill="#c53030" class="span"><title>down: 0 s to 4 s (4 s)</title>`, `fill="#a0aec0" class="span"`, "<title>writable at 5 s</title>",
		">never Synced</text>", `class="lg">IST</text>`, ">seconds after the crash</text>", "</svg>"} {
		if !strings.Contains(svg, want) {
			t.Errorf("chart lacks %q:\n%s", want, svg)
		}
	}
	if n := strings.Count(svg, `class="span"`); n != 3 {
		t.Errorf("%d spans, want 3", n)
	}
	if empty := (Spans{Title: "none"}).SVG(); !strings.Contains(empty, "no data") {
		t.Errorf("empty chart: %s", empty)
	}
}

func TestChartXSpanAndBandClass(t *testing.T) {
	c := Chart{XSpan: [2]float64{0, 100}, Bands: []Band{{X0: 10, X1: 20, Label: "quiet", Class: "quiet"}},
		Series: []Series{{Name: "a", Color: "#000", X: []float64{40, 50}, Y: []float64{1, 2}}}}
	svg := c.SVG()
	if !strings.Contains(svg, `class="band quiet"><title>quiet</title>`) {
		t.Errorf("band class missing:\n%s", svg)
	}
	// The axis holds the span, not the data's 40..50 alone.
	if !strings.Contains(svg, `class="xl">0</text>`) || !strings.Contains(svg, `class="xl">100</text>`) {
		t.Errorf("x axis does not hold 0..100:\n%s", svg)
	}
}
