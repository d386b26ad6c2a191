package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strings"
	"time"
)

//go:embed report.html.tmpl
var htmlTemplate string

var pageTmpl = template.Must(template.New("report").Funcs(template.FuncMap{
	"ms":  fms,
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
	"join": strings.Join,
}).Parse(htmlTemplate))

// htmlScenario is a scenario with its charts rendered.
type htmlScenario struct {
	ScenarioReport
	ID                       string
	Spectrum, Hist, OverTime template.HTML
}

type htmlRun struct {
	*RunReport
	Scenarios   []htmlScenario
	MaxP99      float64
	Throughput  template.HTML
	Counters    []template.HTML
	CounterNote string
	// ActionsTable, EndpointCharts and ClusterCharts: see html_actions.go.
	ActionsTable   template.HTML
	EndpointCharts []template.HTML
	ClusterCharts  []template.HTML
}

func (r *Report) writeHTML(w io.Writer) error {
	var runs []htmlRun
	for i := range r.Runs {
		runs = append(runs, htmlRunOf(&r.Runs[i], i))
	}
	return pageTmpl.Execute(w, struct {
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

var spectrumTicks = []tick{{0, "0%"}, {1, "90%"}, {2, "99%"}, {3, "99.9%"}, {4, "99.99%"}, {5, "max"}}

func htmlRunOf(rr *RunReport, idx int) htmlRun {
	hr := htmlRun{RunReport: rr, ActionsTable: actionsTable(rr.Actions)}
	bands := actionBands(rr.ActionRows, rr.Start)
	for _, s := range rr.Scenarios {
		hr.MaxP99 = math.Max(hr.MaxP99, s.P99Ms)
	}
	for i, s := range rr.Scenarios {
		hs := htmlScenario{ScenarioReport: s, ID: fmt.Sprintf("r%d-s%d", idx, i)}
		var sx, sy []float64
		for _, p := range s.Percentiles {
			sx = append(sx, spectrumX(p.Percentile))
			sy = append(sy, p.Ms)
		}
		hs.Spectrum = template.HTML(chart{title: "latency by percentile", ylabel: "ms", logY: true, xticks: spectrumTicks,
			series: []series{{name: "latency", color: colP99, x: sx, y: sy}}}.svg())
		if len(s.Histogram) > 0 {
			var bx, by, cx, cy []float64
			for _, b := range s.Histogram {
				bx = append(bx, math.Log10(b.FromMs))
				by = append(by, float64(b.Count))
				cx = append(cx, math.Log10(b.ToMs))
				cy = append(cy, b.Cumulative)
			}
			bx = append(bx, math.Log10(s.Histogram[len(s.Histogram)-1].ToMs))
			hs.Hist = template.HTML(chart{title: "histogram and CDF", xlabel: "ms (log)", ylabel: "executions", y2label: "CDF",
				xfmt: func(v float64) string { return num(math.Pow(10, v)) },
				series: []series{{name: "executions", color: colBar, x: bx, y: by, bars: true},
					{name: "CDF", color: colCDF, x: cx, y: cy, axis2: true}}}.svg())
		}
		hs.OverTime = timeCharts(s.Timeline, rr.Start, bands)
		hr.Scenarios = append(hr.Scenarios, hs)
	}
	hr.Throughput = timeCharts(rr.Timeline, rr.Start, bands)
	hr.EndpointCharts = endpointCharts(rr.Endpoints, rr.Start, bands)
	hr.ClusterCharts = clusterCharts(inEndpointOrder(rr.Counters, rr.Info), rr.BufferPoolHitRatio, rr.Start, bands)
	// Server counters: the busiest ones, as small multiples.
	cs := slices.Clone(rr.Counters)
	slices.SortStableFunc(cs, func(a, b CounterSeries) int {
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
		hr.CounterNote = fmt.Sprintf("the %d busiest of %d counters; all are in the status-*.parquet files", maxCounters, len(cs))
		cs = cs[:maxCounters]
	}
	eps := map[string]bool{}
	for _, c := range rr.Counters {
		eps[c.Endpoint] = true
	}
	for _, c := range cs {
		if c.Total == 0 {
			continue
		}
		var x, y []float64
		for _, p := range c.Points {
			x = append(x, p.Time.Sub(rr.Start).Seconds())
			y = append(y, p.PerSec)
		}
		title := c.Variable + " /s"
		if len(eps) > 1 {
			title += " (" + c.Endpoint + ")"
		}
		if c.Gauge {
			title = c.Variable
			if len(eps) > 1 {
				title += " (" + c.Endpoint + ")"
			}
		}
		hr.Counters = append(hr.Counters, template.HTML(chart{title: title, xlabel: "seconds", w: 400, h: 180, bands: bands,
			series: []series{{name: c.Variable, color: colQPS, x: x, y: y}}}.svg()))
	}
	return hr
}

// timeCharts draws throughput and p95 over time.
func timeCharts(tl []TimePoint, origin time.Time, bands []band) template.HTML {
	if len(tl) == 0 {
		return ""
	}
	var x, q, p []float64
	for _, pt := range tl {
		x = append(x, pt.Time.Sub(origin).Seconds()+pt.Seconds/2)
		q = append(q, pt.QPS)
		p = append(p, pt.P95Ms)
	}
	a := chart{title: "throughput", xlabel: "seconds", ylabel: "executions/s", bands: bands, series: []series{{name: "qps", color: colQPS, x: x, y: q}}}
	b := chart{title: "p95 latency", xlabel: "seconds", ylabel: "ms", logY: true, bands: bands, series: []series{{name: "p95", color: colP95, x: x, y: p}}}
	return template.HTML(a.svg() + b.svg())
}
