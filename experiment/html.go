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
figure{margin:1rem 0}figcaption{font-size:.9rem;color:#555}svg.chart{background:#fff;max-width:100%;height:auto}
svg .ct{font-size:12px;font-weight:600;fill:#2d3748}svg .yl{font-size:10px;text-anchor:end;fill:#4a5568}svg .xl{font-size:10px;text-anchor:middle;fill:#4a5568}
svg .al{font-size:10px;fill:#4a5568}svg .lg{font-size:10px;fill:#2d3748}svg .grid{stroke:#edf2f7;stroke-width:1}svg .frame{fill:none;stroke:#a0aec0;stroke-width:1}
</style></head><body>
<h1>{{.Title}}</h1>
<p>{{.What}}</p>
<p class="verdict"><strong>Verdict:</strong> {{.Verdict}}</p>
<p class="tally{{if .Tally.Partial}} partial{{end}}">{{.Tally}}.</p>
{{if .Table.Header}}<table><thead><tr>{{range .Table.Header}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>{{range .Table.Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>{{end}}</tbody></table>{{end}}
{{range .Sections}}<h2>{{.Title}}</h2>{{if .Text}}<p>{{.Text}}</p>{{end}}
<table><thead><tr>{{range .Table.Header}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>{{range .Table.Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>{{end}}</tbody></table>
{{if .Notes}}<ul>{{range .Notes}}<li>{{.}}</li>{{end}}</ul>{{end}}{{end}}
{{range .Figures}}<figure>{{.SVG}}<figcaption>{{.Caption}}</figcaption></figure>{{end}}
{{if .Notes}}<ul>{{range .Notes}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .Runs}}<p>Runs (open each with <code>joinbench report</code>):</p><ul>{{range .Runs}}<li><code>{{.}}</code></li>{{end}}</ul>{{end}}
</body></html>
`))

// WriteHTML writes the page as a standalone HTML file.
func (p *Page) WriteHTML(w io.Writer) error { return pageHTML.Execute(w, p) }
