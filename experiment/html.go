package experiment

import (
	"html/template"
	"io"
)

var pageHTML = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;margin:1rem 0}th,td{padding:.3rem .7rem;border-bottom:1px solid #ddd}
td+td,th+th{text-align:right;font-variant-numeric:tabular-nums}.verdict{font-size:1.1rem;background:#f4f6fa;padding:.7rem 1rem;border-left:4px solid #4a6fa5}
code{background:#f3f3f3;padding:0 .2rem}.tally.partial{color:#a33;font-weight:bold}
</style></head><body>
<h1>{{.Title}}</h1>
<p>{{.What}}</p>
<p class="verdict"><strong>Verdict:</strong> {{.Verdict}}</p>
<p class="tally{{if .Tally.Partial}} partial{{end}}">{{.Tally}}.</p>
<table><thead><tr>{{range .Table.Header}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>{{range .Table.Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>{{end}}</tbody></table>
{{if .Notes}}<ul>{{range .Notes}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .Runs}}<p>Runs (open each with <code>joinbench report</code>):</p><ul>{{range .Runs}}<li><code>{{.}}</code></li>{{end}}</ul>{{end}}
</body></html>
`))

// WriteHTML writes the page as a standalone HTML file.
func (p *Page) WriteHTML(w io.Writer) error { return pageHTML.Execute(w, p) }
