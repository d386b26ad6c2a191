package render

import (
	"html/template"
	"time"

	"github.com/joinbench/joinbench/analysis/render/plot"
	"github.com/joinbench/joinbench/analysis/report"
)

// htmlErrorSample is one error code of one scenario, in the run's errors
// panel.
type htmlErrorSample struct {
	report.ErrorSample
	Scenario, ID string
}

// errorSamplesOf lists every scenario's error codes, scenarios in the
// page's order and each one's most frequent code first.
func errorSamplesOf(scens []htmlScenario) []htmlErrorSample {
	var out []htmlErrorSample
	for _, s := range scens {
		for _, e := range s.ErrorSamples {
			out = append(out, htmlErrorSample{ErrorSample: e, Scenario: s.Scenario, ID: s.ID})
		}
	}
	return out
}

// errorsChart draws the run's errors and retries per second over time;
// nothing when it had neither.
func errorsChart(tl []report.TimePoint, origin time.Time, bands []plot.Band) template.HTML {
	var x, errs, retries []float64
	seen := false
	for _, pt := range tl {
		secs := pt.Seconds
		if secs <= 0 {
			secs = 1
		}
		x = append(x, bucketX(pt, origin))
		errs = append(errs, float64(pt.Errors)/secs)
		retries = append(retries, float64(pt.Retries)/secs)
		seen = seen || pt.Errors > 0 || pt.Retries > 0
	}
	if !seen {
		return ""
	}
	return template.HTML(plot.Chart{Title: "errors and retries", XLabel: "seconds", XUnit: "s", YLabel: "per second", Bands: bands,
		Series: []plot.Series{{Name: "errors/s", Color: colP99, X: x, Y: errs}, {Name: "retries/s", Color: colP95, X: x, Y: retries}}}.SVG())
}
