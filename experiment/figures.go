package experiment

import (
	"fmt"
	"html/template"
	"math"
	"slices"
	"time"

	"github.com/joinbench/joinbench/analysis/render/plot"
	"github.com/joinbench/joinbench/analysis/report"
)

// runSeries is what a run's figure draws, as analysis/report reads it:
// each node's executions per second over time and the fraction of the
// time flow control paused it, in seconds from the run's start.
type runSeries struct {
	start time.Time
	nodes []nodeSeries
}

// nodeSeries is one node's lines.
type nodeSeries struct {
	name           string
	x, qps         []float64
	pausedX, pause []float64
}

// flowControl says whether the run had Galera's flow control counters.
func (s *runSeries) flowControl() bool {
	return slices.ContainsFunc(s.nodes, func(n nodeSeries) bool { return len(n.pausedX) > 0 })
}

// pausedVariable is the counter of the time flow control paused a node.
const pausedVariable = "wsrep_flow_control_paused_ns"

// runSeriesOf takes a run's figures from its report: the executions per
// endpoint over time, and the flow control counter, named and ordered as
// the run's nodes.
func runSeriesOf(rr *report.RunReport) *runSeries {
	s := &runSeries{start: rr.Start}
	byName := map[string]int{}
	node := func(ep string) *nodeSeries {
		name := rr.Info.NodeName(ep)
		i, ok := byName[name]
		if !ok {
			i = len(s.nodes)
			byName[name] = i
			s.nodes = append(s.nodes, nodeSeries{name: name})
		}
		return &s.nodes[i]
	}
	if rr.Info != nil {
		for _, ep := range rr.Info.Endpoints {
			node(ep)
		}
	}
	for _, ep := range rr.Endpoints {
		n := node(ep.Endpoint)
		for _, pt := range ep.Timeline {
			// A bucket's middle, as the report draws it.
			n.x = append(n.x, math.Max(pt.Time.Sub(rr.Start).Seconds()+pt.Seconds/2, 0))
			n.qps = append(n.qps, pt.QPS)
		}
	}
	for _, c := range rr.Counters {
		if c.Variable != pausedVariable {
			continue
		}
		n := node(c.Endpoint)
		for _, p := range c.Points {
			// Sampled from the warmup on: the run's figure starts where
			// its measured phase does.
			if x := p.Time.Sub(rr.Start).Seconds(); x >= 0 {
				n.pausedX = append(n.pausedX, x)
				n.pause = append(n.pause, math.Min(p.PerSec/1e9, 1))
			}
		}
	}
	// Nodes with nothing drawn (a run on some nodes only) are left out.
	s.nodes = slices.DeleteFunc(s.nodes, func(n nodeSeries) bool { return len(n.x) == 0 && len(n.pausedX) == 0 })
	return s
}

// shadedWindow is a stretch a run's figure shades: a quiet window an
// action is judged against, the action's window, or a window not judged.
type shadedWindow struct {
	from, to time.Time
	class    string // shadeQuiet, shadeAction or shadeSkipped
	label    string
}

// The classes of the shaded windows, styled by the page.
const (
	shadeQuiet   = "quiet"
	shadeAction  = "action"
	shadeSkipped = "skipped"
)

// windowShades are the stretches of the windows a page judged, each
// named what: its quiet window and its action's, and the action's
// window alone, in grey, of those not judged.
func windowShades(wins []report.ActionWindow, judged []bool, what func(i int) string) []shadedWindow {
	var out []shadedWindow
	for i, w := range wins {
		if i < len(judged) && !judged[i] {
			out = append(out, shadedWindow{from: w.Window[0], to: w.Window[1], class: shadeSkipped, label: what(i) + ": not judged"})
			continue
		}
		out = append(out,
			shadedWindow{from: w.Quiet[0], to: w.Quiet[1], class: shadeQuiet, label: "quiet window before " + what(i)},
			shadedWindow{from: w.Window[0], to: w.Window[1], class: shadeAction, label: what(i)})
	}
	return out
}

// bands are the shaded windows on a figure of a run that started at
// start.
func bands(shades []shadedWindow, start time.Time) []plot.Band {
	var out []plot.Band
	for _, s := range shades {
		a, b := s.from.Sub(start).Seconds(), s.to.Sub(start).Seconds()
		out = append(out, plot.Band{X0: a, X1: b, Class: s.class, Label: fmt.Sprintf("%s: %.1f to %.1f s", s.label, a, b)})
	}
	return out
}

// runFigure draws a run (named title: "the run", a method): each node's
// executions per second over time, and beneath it, on the same time
// axis, the fraction of the time flow control paused each node, with the
// windows shaded.
func runFigure(title string, s *runSeries, shades []shadedWindow) Figure {
	bs := bands(shades, s.start)
	var q, fc []plot.Series
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, b := range bs {
		lo, hi = math.Min(lo, b.X0), math.Max(hi, b.X1)
	}
	for i, n := range s.nodes {
		col := nodeColors[i%len(nodeColors)]
		if len(n.x) > 0 {
			q = append(q, plot.Series{Name: n.name, Color: col, X: n.x, Y: n.qps})
		}
		if len(n.pausedX) > 0 {
			fc = append(fc, plot.Series{Name: n.name, Color: col, X: n.pausedX, Y: n.pause})
		}
		for _, x := range append(slices.Clone(n.x), n.pausedX...) {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
	}
	span := [2]float64{math.Min(lo, 0), hi}
	svg := plot.Chart{Title: title + ": executions per second per node", XLabel: "seconds from the run's start", XUnit: "s", YLabel: "executions/s",
		Series: q, Bands: bs, XSpan: span, W: 900, H: 250}.SVG()
	caption := title + ": each node's executions per second over the run"
	if len(fc) > 0 {
		svg += plot.Chart{Title: "flow control: the fraction of each interval every node was paused", XLabel: "seconds from the run's start", XUnit: "s",
			YLabel: "paused", Series: fc, Bands: bs, XSpan: span, W: 900, H: 190}.SVG()
		caption += ", and beneath it the fraction of the time flow control paused it (the same time axis)"
	}
	caption += ". Shaded blue: the quiet windows each action is judged against; orange: the actions' windows; grey: a window not judged. Point at a band for its times."
	return Figure{Caption: caption, SVG: template.HTML(svg)}
}

// nodeColors tell the nodes apart, as the report's charts do.
var nodeColors = []string{"#2b6cb0", "#dd6b20", "#2f855a", "#c53030", "#6b46c1", "#b7791f", "#319795", "#d53f8c", "#4a5568"}

// readRunSeries reads a run's figures with analysis/report; nil, with a
// warning, when they cannot be read: a page without its picture is
// still the lesson's page.
func readRunSeries(dir string, warn func(error)) *runSeries {
	rep, err := report.Build([]string{dir}, report.Options{Warn: warn, SkipDetails: true})
	if err != nil {
		warn(fmt.Errorf("the run's figure: %w", err))
		return nil
	}
	if len(rep.Runs) == 0 {
		return nil
	}
	return runSeriesOf(&rep.Runs[0])
}

// judgedMask marks the windows of n whose indices are in idx.
func judgedMask(n int, idx []int) []bool {
	m := make([]bool, n)
	for _, i := range idx {
		m[i] = true
	}
	return m
}
