package render

import (
	"cmp"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/joinbench/joinbench/analysis/render/plot"
	"github.com/joinbench/joinbench/analysis/report"
)

//go:embed report.html.tmpl
var htmlTemplate string

// pageTmpl is parsed on first use, not when joinbench starts: every
// command (a lint of one file too) paid for parsing it.
var pageTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"ms":  formatMs,
		"pct": fpct,
		"qps": func(v float64) string { return fmt.Sprintf("%.1f", v) },
		"ts":  func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
		"dur": func(a, b time.Time) string { return b.Sub(a).Round(time.Millisecond).String() },
		"bar": func(v, maxv float64) template.CSS {
			if maxv <= 0 || v <= 0 {
				return "width:0"
			}
			// log scale over three decades below the largest p99
			f := 1 + math.Log10(v/maxv)/3
			return template.CSS(fmt.Sprintf("width:%.1f%%", math.Max(f, 0.01)*100))
		},
		"join":  strings.Join,
		"minus": func(a, b int64) int64 { return a - b },
		// at is where t falls in the run, in seconds from its start.
		"at": func(t, origin time.Time) string { return fmt.Sprintf("%.3f s", t.Sub(origin).Seconds()) },
	}).Parse(htmlTemplate))
})

// htmlScenario is a scenario with its charts rendered.
type htmlScenario struct {
	report.ScenarioReport
	ID                       string
	Spectrum, Hist, OverTime template.HTML
}

type htmlRun struct {
	*report.RunReport
	Scenarios   []htmlScenario
	MaxP99      float64
	Throughput  template.HTML
	Counters    []template.HTML
	CounterNote string
	// ByScenario draws the p95 over time of the scenarios that took the
	// most time, each its own line: the run's pooled p95 mixes scenarios
	// of very different speed.
	ByScenario template.HTML
	// Errors and ErrorSamples: see html_errors.go.
	Errors       template.HTML
	ErrorSamples []htmlErrorSample
	// Settings and ServerVars: see html_settings.go.
	Settings   []setting
	ServerVars []setting
	// ActionsTable, EndpointCharts and ClusterCharts: see html_actions.go;
	// ClusterHeading names flow control only when the run has Galera's.
	ActionsTable   template.HTML
	RecoveryTable  template.HTML // recovery.go
	EndpointCharts []template.HTML
	ClusterCharts  []template.HTML
	ClusterHeading string
}

// writeHTML renders the report as one self-contained page.
func writeHTML(w io.Writer, r *report.Report) error {
	var runs []htmlRun
	for i := range r.Runs {
		runs = append(runs, htmlRunOf(&r.Runs[i], len(r.Runs) > 1))
	}
	return pageTmpl().Execute(w, struct {
		Runs      []htmlRun
		Generated string
	}{runs, "joinbench report"})
}

const (
	colP50 = "#2b6cb0"
	colP95 = "#dd6b20"
	colP99 = "#c53030"
	colQPS = "#2f855a"
	colCDF = "#6b46c1"
	colBar = "#90cdf4"
)

// spectrumX maps a percentile to the x axis of a percentile chart:
// -log10(1-p), so that 90, 99, 99.9 are evenly spaced.
func spectrumX(p float64) float64 {
	return -math.Log10(math.Max(1-p/100, 1e-5))
}

var spectrumTicks = []plot.Tick{{Pos: 0, Label: "0%"}, {Pos: 1, Label: "90%"}, {Pos: 2, Label: "99%"}, {Pos: 3, Label: "99.9%"},
	{Pos: 4, Label: "99.99%"}, {Pos: 5, Label: "max"}}

// htmlRunOf draws a run; several (of one report) name their scenarios'
// anchors after the run too.
func htmlRunOf(rr *report.RunReport, several bool) htmlRun {
	// Charts name a server by its node name where the run knows it.
	name := rr.Info.NodeName
	hr := htmlRun{RunReport: rr, ActionsTable: actionsTable(rr.Actions, name), RecoveryTable: recoveryTable(rr.Recovery)}
	bands := actionBands(rr.ActionRows, rr.Start)
	for _, s := range rr.Scenarios {
		hr.MaxP99 = math.Max(hr.MaxP99, s.P99Ms)
	}
	for _, s := range rr.Scenarios {
		hr.Scenarios = append(hr.Scenarios, htmlScenarioOf(s, scenarioAnchor(rr.RunID, s.Scenario, several), rr.Start, bands))
	}
	hr.Throughput = timeCharts(rr.Timeline, rr.Start, bands)
	hr.ByScenario = byScenarioChart(rr.Scenarios, rr.Start, bands)
	hr.Errors = errorsChart(rr.Timeline, rr.Start, bands)
	hr.ErrorSamples = errorSamplesOf(hr.Scenarios)
	hr.Settings, hr.ServerVars = settingsOf(rr.Info)
	hr.EndpointCharts = endpointCharts(rr.Endpoints, rr.Start, bands, name)
	hr.ClusterCharts, hr.ClusterHeading = clusterCharts(inEndpointOrder(rr.Counters, rr.Info), rr.BufferPoolHitRatio, rr.Start, bands, name)
	hr.Counters, hr.CounterNote = counterCharts(rr.Counters, rr.Start, bands, name)
	return hr
}

// scenarioAnchor is the id of a scenario's section: its name, so that a
// link to it reads and survives a new scenario; after the run's id when
// the page shows several runs (with a dot, which a link's fragment keeps
// as it is).
func scenarioAnchor(runID, scenario string, several bool) string {
	if several {
		return runID + "." + scenario
	}
	return scenario
}

// htmlScenarioOf draws a scenario's charts: latency by percentile, the
// histogram with its CDF, and throughput and p95 over time.
func htmlScenarioOf(s report.ScenarioReport, id string, origin time.Time, bands []plot.Band) htmlScenario {
	hs := htmlScenario{ScenarioReport: s, ID: id}
	var sx, sy []float64
	for _, p := range s.Percentiles {
		sx = append(sx, spectrumX(p.Percentile))
		sy = append(sy, p.Ms)
	}
	hs.Spectrum = template.HTML(plot.Chart{Title: "latency by percentile", YLabel: "ms", LogY: true, XTicks: spectrumTicks,
		Series: []plot.Series{{Name: "latency", Color: colP99, X: sx, Y: sy}}}.SVG())
	if len(s.Histogram) > 0 {
		var bx, by, cx, cy []float64
		for _, b := range s.Histogram {
			bx = append(bx, b.FromMs)
			by = append(by, float64(b.Count))
			cx = append(cx, b.ToMs)
			cy = append(cy, b.Cumulative)
		}
		bx = append(bx, s.Histogram[len(s.Histogram)-1].ToMs)
		hs.Hist = template.HTML(plot.Chart{Title: "histogram and CDF", XLabel: "ms (log)", XUnit: "ms", YLabel: "executions", Y2Label: "CDF", LogX: true,
			Series: []plot.Series{{Name: "executions", Color: colBar, X: bx, Y: by, Bars: true},
				{Name: "CDF", Color: colCDF, X: cx, Y: cy, Axis2: true}}}.SVG())
	}
	hs.OverTime = timeCharts(s.Timeline, origin, bands)
	return hs
}

// counterCharts draws the busiest server counters as small multiples, and
// says when some were left out; name names a server.
func counterCharts(counters []report.CounterSeries, origin time.Time, bands []plot.Band, name func(string) string) (charts []template.HTML, note string) {
	cs := slices.Clone(counters)
	slices.SortStableFunc(cs, func(a, b report.CounterSeries) int {
		switch {
		case a.Total > b.Total:
			return -1
		case a.Total < b.Total:
			return 1
		}
		return 0
	})
	const maxCounters = 16
	if len(cs) > maxCounters {
		note = fmt.Sprintf("the %d busiest of %d counters; all are in the status-*.parquet files", maxCounters, len(cs))
		cs = cs[:maxCounters]
	}
	eps := map[string]bool{}
	for _, c := range counters {
		eps[c.Endpoint] = true
	}
	for _, c := range cs {
		if c.Total == 0 {
			continue
		}
		var x, y []float64
		for _, p := range c.Points {
			x = append(x, p.Time.Sub(origin).Seconds())
			y = append(y, p.PerSec)
		}
		title := c.Variable + " /s"
		if c.Gauge {
			title = c.Variable
		}
		if len(eps) > 1 {
			title += " (" + name(c.Endpoint) + ")"
		}
		charts = append(charts, template.HTML(plot.Chart{Title: title, XLabel: "seconds", W: 400, H: 180, Bands: bands,
			Series: []plot.Series{{Name: c.Variable, Color: colQPS, X: x, Y: y}}}.SVG()))
	}
	return charts, note
}

// bucketX places a time bucket on a chart's x axis: its middle, in
// seconds from origin. Buckets start at whole seconds, so the first one
// may start before the run: its middle is then put at the run's start,
// where an axis starting at zero has it.
func bucketX(pt report.TimePoint, origin time.Time) float64 {
	return math.Max(pt.Time.Sub(origin).Seconds()+pt.Seconds/2, 0)
}

// timeCharts draws throughput, and p50, p95 and p99 over time.
func timeCharts(tl []report.TimePoint, origin time.Time, bands []plot.Band) template.HTML {
	if len(tl) == 0 {
		return ""
	}
	var x, q, p50, p95, p99 []float64
	for _, pt := range tl {
		x = append(x, bucketX(pt, origin))
		q = append(q, pt.QPS)
		p50 = append(p50, pt.P50Ms)
		p95 = append(p95, pt.P95Ms)
		p99 = append(p99, pt.P99Ms)
	}
	a := plot.Chart{Title: "throughput", XLabel: "seconds", XUnit: "s", YLabel: "executions/s", Bands: bands,
		Series: []plot.Series{{Name: "qps", Color: colQPS, X: x, Y: q}}}
	b := plot.Chart{Title: "latency: p50, p95, p99", XLabel: "seconds", XUnit: "s", YLabel: "ms", LogY: true, Bands: bands,
		Series: []plot.Series{{Name: "p50", Color: colP50, X: x, Y: p50}, {Name: "p95", Color: colP95, X: x, Y: p95}, {Name: "p99", Color: colP99, X: x, Y: p99}}}
	return template.HTML(a.SVG() + b.SVG())
}

// byScenarioTop is how many scenarios the p95-by-scenario chart draws:
// more lines than that no longer read apart.
const byScenarioTop = 6

// byScenarioChart draws the p95 over time of the scenarios that took the
// most time (executions times mean latency), one line each.
func byScenarioChart(scens []report.ScenarioReport, origin time.Time, bands []plot.Band) template.HTML {
	order := make([]int, 0, len(scens))
	for i, s := range scens {
		if len(s.Timeline) > 0 && s.Executions > s.Errors {
			order = append(order, i)
		}
	}
	if len(order) < 2 {
		return "" // the run's own latency chart is this scenario's
	}
	busy := func(s report.ScenarioReport) float64 { return float64(s.Executions-s.Errors) * s.MeanMs }
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(busy(scens[b]), busy(scens[a])) })
	title := "p95 by scenario"
	if len(order) > byScenarioTop {
		title = fmt.Sprintf("p95 of the %d scenarios that took the most time (of %d)", byScenarioTop, len(order))
		order = order[:byScenarioTop]
	}
	var ss []plot.Series
	for k, i := range order {
		var x, y []float64
		for _, pt := range scens[i].Timeline {
			if pt.P95Ms > 0 {
				x = append(x, bucketX(pt, origin))
				y = append(y, pt.P95Ms)
			}
		}
		ss = append(ss, plot.Series{Name: scens[i].Scenario, Color: endpointColors[k%len(endpointColors)], X: x, Y: y})
	}
	return template.HTML(plot.Chart{Title: title, XLabel: "seconds", XUnit: "s", YLabel: "ms", YUnit: "ms", LogY: true, Bands: bands, Series: ss, W: 1050, H: 260}.SVG())
}
