// Package render shows reports and comparisons: a run's report
// (analysis/report) as text, markdown, JSON or one self-contained HTML page
// (inline CSS, JS and SVG charts drawn by render/plot: it opens offline),
// and a comparison (analysis/compare) as text, markdown or JSON. Report and
// Comparison choose the view by format; each view is a file of its own
// (report_text.go, compare_text.go, html.go with report.html.tmpl), so that
// a new view is a new file and a case in format.go.
//
// It must not read results or judge anything: it prints the models it is
// given, the same for the same model.
package render
