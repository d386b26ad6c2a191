package render

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/analysis/report"
)

// Formats that Report and Comparison accept.
const (
	FormatText     = "text"
	FormatMarkdown = "markdown"
	FormatJSON     = "json"
	FormatHTML     = "html"
)

// Report renders a report of runs in one of the formats.
func Report(w io.Writer, r *report.Report, format string) error {
	switch format {
	case FormatJSON:
		return writeJSON(w, r)
	case FormatHTML:
		return writeHTML(w, r)
	case FormatText, FormatMarkdown, "":
		md := format == FormatMarkdown
		for i := range r.Runs {
			if i > 0 {
				fmt.Fprintln(w)
			}
			writeRunText(w, &r.Runs[i], md)
		}
		return nil
	}
	return fmt.Errorf("unknown format %q", format)
}

// Comparison renders a comparison as text, markdown, JSON or one
// self-contained HTML page.
func Comparison(w io.Writer, c *compare.Comparison, format string) error {
	switch format {
	case FormatJSON:
		return writeJSON(w, c)
	case FormatHTML:
		return writeCompareHTML(w, c)
	case FormatText, FormatMarkdown, "":
		writeComparisonText(w, c, format == FormatMarkdown)
		return nil
	}
	return fmt.Errorf("compare cannot be rendered as %q (text, markdown, json or html)", format)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
