package report

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// Formats that Write and WriteComparison accept.
const (
	FormatText     = "text"
	FormatMarkdown = "markdown"
	FormatJSON     = "json"
	FormatHTML     = "html"
)

// table renders rows as aligned text or as a markdown table.
type table struct {
	head []string
	rows [][]string
	// right marks right-aligned (numeric) columns in markdown.
	right map[int]bool
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) write(w io.Writer, markdown bool) {
	if markdown {
		fmt.Fprintln(w, "| "+strings.Join(t.head, " | ")+" |")
		seps := make([]string, len(t.head))
		for i := range seps {
			seps[i] = "---"
			if t.right[i] {
				seps[i] = "---:"
			}
		}
		fmt.Fprintln(w, "|"+strings.Join(seps, "|")+"|")
		for _, r := range t.rows {
			cells := make([]string, len(r))
			for i, c := range r {
				cells[i] = strings.ReplaceAll(c, "|", `\|`)
			}
			fmt.Fprintln(w, "| "+strings.Join(cells, " | ")+" |")
		}
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(t.head, "\t"))
	for _, r := range t.rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	tw.Flush()
}

func fms(v float64) string {
	switch {
	case v == 0:
		return "0"
	case v < 1:
		return fmt.Sprintf("%.3f", v)
	case v < 100:
		return fmt.Sprintf("%.2f", v)
	default:
		return fmt.Sprintf("%.0f", v)
	}
}

func fpct(v float64) string { return fmt.Sprintf("%.2f%%", v*100) }

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// Write renders a report in one of the formats.
func (r *Report) Write(w io.Writer, format string) error {
	switch format {
	case FormatJSON:
		return writeJSON(w, r)
	case FormatHTML:
		return r.writeHTML(w)
	case FormatText, FormatMarkdown, "":
		md := format == FormatMarkdown
		for i := range r.Runs {
			if i > 0 {
				fmt.Fprintln(w)
			}
			r.Runs[i].writeText(w, md)
		}
		return nil
	}
	return fmt.Errorf("unknown format %q", format)
}

func heading(w io.Writer, md bool, level int, s string) {
	if md {
		fmt.Fprintf(w, "%s %s\n\n", strings.Repeat("#", level), s)
		return
	}
	fmt.Fprintln(w, s)
	fmt.Fprintln(w, strings.Repeat(map[bool]string{true: "=", false: "-"}[level == 1], len(s)))
}

func (rr *RunReport) writeText(w io.Writer, md bool) {
	heading(w, md, 1, "Run "+rr.RunID)
	var meta []string
	if rr.Info != nil {
		if rr.Info.ServerVersion != "" {
			meta = append(meta, "server "+rr.Info.ServerVersion)
		}
		if len(rr.Info.Endpoints) > 0 {
			meta = append(meta, "endpoints "+strings.Join(rr.Info.Endpoints, ", "))
		}
		if rr.Info.Interrupted {
			meta = append(meta, "interrupted")
		}
	}
	if !rr.Start.IsZero() {
		meta = append(meta, fmt.Sprintf("%s, %s", rr.Start.UTC().Format(time.RFC3339), rr.End.Sub(rr.Start).Round(time.Millisecond)))
	}
	meta = append(meta, fmt.Sprintf("%d executions files in %s", rr.Files, rr.Dir))
	fmt.Fprintln(w, strings.Join(meta, "; "))
	fmt.Fprintln(w)
	for _, s := range rr.Warnings {
		fmt.Fprintln(w, "warning: "+s)
	}
	if len(rr.Warnings) > 0 {
		fmt.Fprintln(w)
	}

	heading(w, md, 2, "Scenarios (latency in ms, successful executions)")
	t := &table{head: []string{"scenario", "executions", "errors", "mean", "p50", "p95", "p99", "max", "qps", "plans"},
		right: map[int]bool{1: true, 2: true, 3: true, 4: true, 5: true, 6: true, 7: true, 8: true, 9: true}}
	for _, s := range rr.Scenarios {
		t.add(s.Scenario, fmt.Sprint(s.Executions), fmt.Sprint(s.Errors), fms(s.MeanMs), fms(s.P50Ms), fms(s.P95Ms),
			fms(s.P99Ms), fms(s.MaxMs), fmt.Sprintf("%.1f", s.QPS), fmt.Sprint(len(s.Plans)))
	}
	tot := rr.Total
	t.add("(all)", fmt.Sprint(tot.Executions), fmt.Sprint(tot.Errors), fms(tot.MeanMs), fms(tot.P50Ms), fms(tot.P95Ms),
		fms(tot.P99Ms), fms(tot.MaxMs), fmt.Sprintf("%.1f", tot.QPS), "")
	t.write(w, md)
	fmt.Fprintln(w)
	rr.writeCut(w, md)
	rr.writeClients(w, md)
	writeActionsText(w, md, rr.Actions)

	var errs []string
	for _, s := range rr.Scenarios {
		if len(s.ErrorCodes) == 0 {
			continue
		}
		codes := make([]string, 0, len(s.ErrorCodes))
		for c, n := range s.ErrorCodes {
			codes = append(codes, fmt.Sprintf("%s x%d", c, n))
		}
		sort.Strings(codes)
		errs = append(errs, fmt.Sprintf("%s: %s", s.Scenario, strings.Join(codes, ", ")))
	}
	if len(errs) > 0 {
		heading(w, md, 2, "Errors by code")
		for _, e := range errs {
			fmt.Fprintln(w, listItem(md)+e)
		}
		fmt.Fprintln(w)
	}

	if len(rr.Timeline) > 0 {
		pts := downsample(rr.Timeline, 30)
		heading(w, md, 2, fmt.Sprintf("Over time (%d buckets of %gs, shown in %d rows)", len(rr.Timeline), rr.Timeline[0].Seconds, len(pts)))
		tt := &table{head: []string{"time", "executions", "errors", "qps", "p95 ms"}, right: map[int]bool{1: true, 2: true, 3: true, 4: true}}
		for _, p := range pts {
			tt.add(p.Time.Sub(rr.Timeline[0].Time).String(), fmt.Sprint(p.Executions), fmt.Sprint(p.Errors), fmt.Sprintf("%.1f", p.QPS), fms(p.P95Ms))
		}
		tt.write(w, md)
		fmt.Fprintln(w)
	}

	heading(w, md, 2, "Plans")
	for _, s := range rr.Scenarios {
		if len(s.Plans) == 0 {
			continue
		}
		for _, p := range s.Plans {
			fmt.Fprintf(w, "%s%s: plan %s (%d executions)\n", listItem(md), s.Scenario, p.Hash, p.Executions)
			if p.Tree != "" {
				if md {
					fmt.Fprintln(w, "\n```")
					fmt.Fprintln(w, p.Tree)
					fmt.Fprintln(w, "```")
				} else {
					fmt.Fprintln(w, indent(p.Tree, "    "))
				}
			}
		}
	}
}

func listItem(md bool) string {
	if md {
		return "- "
	}
	return ""
}

func indent(s, pre string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = pre + l
	}
	return strings.Join(lines, "\n")
}

// downsample merges adjacent points so that at most n remain (text output
// only; JSON and HTML keep every point).
func downsample(pts []TimePoint, n int) []TimePoint {
	if len(pts) <= n {
		return pts
	}
	k := (len(pts) + n - 1) / n
	var out []TimePoint
	for i := 0; i < len(pts); i += k {
		g := pts[i:min(i+k, len(pts))]
		m := TimePoint{Time: g[0].Time}
		for _, p := range g {
			m.Seconds += p.Seconds
			m.Executions += p.Executions
			m.Errors += p.Errors
			m.P95Ms = max(m.P95Ms, p.P95Ms) // worst bucket of the group
		}
		m.QPS = float64(m.Executions) / m.Seconds
		out = append(out, m)
	}
	return out
}
