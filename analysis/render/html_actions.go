package render

import (
	"cmp"
	"fmt"
	"html"
	"html/template"
	"slices"
	"strings"
	"time"

	"github.com/joinbench/joinbench/analysis/render/plot"
	"github.com/joinbench/joinbench/analysis/report"
	"github.com/joinbench/joinbench/analysis/stall"
	"github.com/joinbench/joinbench/results"
)

// endpointColors tell endpoints apart on charts with a line per endpoint.
var endpointColors = []string{"#2b6cb0", "#dd6b20", "#2f855a", "#c53030", "#6b46c1", "#b7791f", "#319795", "#d53f8c", "#4a5568"}

// actionBands are the run's actions as bands, in seconds from origin.
func actionBands(rows []results.Action, origin time.Time) []plot.Band {
	var out []plot.Band
	for _, a := range rows {
		if a.Start.IsZero() {
			continue
		}
		end := a.End
		if end.Before(a.Start) {
			end = a.Start
		}
		out = append(out, plot.Band{X0: a.Start.Sub(origin).Seconds(), X1: end.Sub(origin).Seconds(),
			Label: fmt.Sprintf("action %d: %s on %s (%s)", a.Action, a.Kind, cmp.Or(a.Node, a.Endpoint), a.Outcome)})
	}
	return out
}

// actionsTable renders, per action, what it cost each endpoint (named by
// name).
func actionsTable(costs []stall.Cost, name func(string) string) template.HTML {
	if len(costs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(`<table class="actions"><thead><tr><th>action</th><th>at s</th><th>took s</th><th>outcome</th><th>endpoint</th>` +
		`<th>longest zero-write ms</th><th>from s</th><th>worst latency ms</th><th>peak extra disk MB</th></tr></thead><tbody>`)
	for _, c := range costs {
		for i, ep := range c.Endpoints {
			b.WriteString("<tr>")
			if i == 0 {
				n := len(c.Endpoints)
				title := html.EscapeString(c.Spec)
				if c.Error != "" {
					title += "&#10;" + html.EscapeString(c.Error)
				}
				fmt.Fprintf(&b, `<td rowspan="%d" title="%s">%d.%d %s on %s</td><td rowspan="%d">%.1f</td><td rowspan="%d">%.1f</td><td rowspan="%d">%s</td>`,
					n, title, c.Action, c.Step, html.EscapeString(c.Kind), html.EscapeString(cmp.Or(c.Node, c.Endpoint)),
					n, c.StartSeconds, n, c.Seconds, n, html.EscapeString(c.Outcome))
			}
			fmt.Fprintf(&b, `<td class="ep">%s</td><td>%s</td><td>%.1f</td><td>%s</td><td>%s</td></tr>`, html.EscapeString(name(ep.Endpoint)),
				ep.LongestText(), ep.StretchStartSeconds, ep.LatencyText(), ep.DiskText())
		}
	}
	b.WriteString("</tbody></table>")
	return template.HTML(b.String())
}

// endpointCharts draws, one line per endpoint (named by name):
// executions per second, p95 and the longest latency.
func endpointCharts(eps []report.EndpointTimeline, origin time.Time, bands []plot.Band, name func(string) string) []template.HTML {
	if len(eps) == 0 {
		return nil
	}
	var q, p, m []plot.Series
	for i, ep := range eps {
		col := endpointColors[i%len(endpointColors)]
		var x, qy, py, my []float64
		for _, pt := range ep.Timeline {
			x = append(x, bucketX(pt, origin))
			qy = append(qy, pt.QPS)
			py = append(py, pt.P95Ms)
			my = append(my, pt.MaxMs)
		}
		q = append(q, plot.Series{Name: name(ep.Endpoint), Color: col, X: x, Y: qy})
		p = append(p, plot.Series{Name: name(ep.Endpoint), Color: col, X: x, Y: py})
		m = append(m, plot.Series{Name: name(ep.Endpoint), Color: col, X: x, Y: my})
	}
	return []template.HTML{
		template.HTML(plot.Chart{Title: "executions/s per endpoint", XLabel: "seconds", YLabel: "executions/s", Series: q, Bands: bands}.SVG()),
		template.HTML(plot.Chart{Title: "p95 latency per endpoint", XLabel: "seconds", YLabel: "ms", LogY: true, Series: p, Bands: bands}.SVG()),
		template.HTML(plot.Chart{Title: "longest latency per endpoint", XLabel: "seconds", YLabel: "ms", LogY: true, Series: m, Bands: bands}.SVG()),
	}
}

// inEndpointOrder sorts counter series by the run's endpoint order (the
// nodes' order for a cluster sandbox), so that a node keeps its colour
// from chart to chart.
func inEndpointOrder(cs []report.CounterSeries, info *results.Run) []report.CounterSeries {
	if info == nil {
		return cs
	}
	out := slices.Clone(cs)
	pos := func(ep string) int {
		if i := slices.Index(info.Endpoints, ep); i >= 0 {
			return i
		}
		return len(info.Endpoints)
	}
	slices.SortStableFunc(out, func(a, b report.CounterSeries) int { return cmp.Compare(pos(a.Endpoint), pos(b.Endpoint)) })
	return out
}

// clusterCharts draws Galera's flow control per node (the fraction of time
// each node was paused, the pause messages it sent, its receive queue) and
// the buffer pool hit ratio per endpoint, each named by name, under a
// heading that names flow control only when the run has it (Galera).
func clusterCharts(cs []report.CounterSeries, hit []report.RatioSeries, origin time.Time, bands []plot.Band, name func(string) string) (out []template.HTML, heading string) {
	line := func(title, ylabel, variable string, f func(report.CounterPoint) (float64, bool)) {
		var ss []plot.Series
		for _, c := range cs {
			if c.Variable != variable {
				continue
			}
			var x, y []float64
			for _, p := range c.Points {
				if v, ok := f(p); ok {
					x = append(x, p.Time.Sub(origin).Seconds())
					y = append(y, v)
				}
			}
			ss = append(ss, plot.Series{Name: name(c.Endpoint), Color: endpointColors[len(ss)%len(endpointColors)], X: x, Y: y})
		}
		if len(ss) > 0 {
			out = append(out, template.HTML(plot.Chart{Title: title, XLabel: "seconds", YLabel: ylabel, Series: ss, Bands: bands}.SVG()))
		}
	}
	perSec := func(p report.CounterPoint) (float64, bool) { return p.PerSec, true }
	line("flow control: fraction of time paused, per node", "paused", "wsrep_flow_control_paused_ns",
		func(p report.CounterPoint) (float64, bool) { return p.PerSec / 1e9, true })
	line("flow control messages sent per node (the node throttling the cluster)", "messages/s", "wsrep_flow_control_sent", perSec)
	line("receive queue per node (write-sets waiting to be applied)", "write-sets", "wsrep_local_recv_queue", perSec)
	line("cluster size each node sees", "members", "wsrep_cluster_size", perSec)
	galera := len(out) > 0
	if len(hit) > 0 {
		var ss []plot.Series
		for i, h := range hit {
			var x, y []float64
			for _, p := range h.Points {
				x = append(x, p.Time.Sub(origin).Seconds())
				y = append(y, p.Ratio)
			}
			ss = append(ss, plot.Series{Name: name(h.Endpoint), Color: endpointColors[i%len(endpointColors)], X: x, Y: y})
		}
		out = append(out, template.HTML(plot.Chart{Title: "buffer pool hit ratio (1 - reads from disk / read requests)", XLabel: "seconds",
			YLabel: "hit ratio", Series: ss, Bands: bands}.SVG()))
	}
	switch {
	case len(out) > 0 && galera:
		heading = "Flow control and buffer pool per node"
	case len(out) > 0:
		heading = "Buffer pool per node"
	}
	return out, heading
}
