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
svg .y2l{font-size:10px;fill:#6b46c1}svg .muted{fill:#718096}svg .rl{font-size:11px;text-anchor:end;fill:#2d3748}svg .one{stroke:#4a5568;stroke-width:1;stroke-dasharray:3 3}
svg .band{fill:#f6ad55;fill-opacity:.25}svg .band.quiet{fill:#63b3ed;fill-opacity:.2}svg .band.skipped{fill:#a0aec0;fill-opacity:.3}svg .mark{fill:#6b46c1;fill-opacity:.85}
.figures figure{margin:1.2rem 0}
</style></head><body data-figures="no">
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
{{if .Figures}}<div class="figures">{{range .Figures}}<figure>{{.SVG}}<figcaption>{{.Caption}}</figcaption></figure>{{end}}</div>{{end}}
{{if .Notes}}<ul>{{range .Notes}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .Runs}}<p>Runs (open each with <code>joinbench report</code>):</p><ul>{{range .Runs}}<li><code>{{.}}</code></li>{{end}}</ul>{{end}}
<script>
// Stamps how many pictures the browser laid out with a size: a check
// that the page draws (the page reads without it).
(function(){var n=0;document.querySelectorAll("figure svg").forEach(function(s){var r=s.getBoundingClientRect();if(r.width>0&&r.height>0)n++});
document.body.setAttribute("data-figures",String(n));})();
</script>
</body></html>
`))

// WriteHTML writes the page as a standalone HTML file.
func (p *Page) WriteHTML(w io.Writer) error { return pageHTML.Execute(w, p) }
