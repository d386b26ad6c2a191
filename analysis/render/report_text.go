package render

import (
	"cmp"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/analysis/metrics"
	"github.com/joinbench/joinbench/analysis/report"
	"github.com/joinbench/joinbench/analysis/stall"
)

// writeRunText prints the report of one run.
func writeRunText(w io.Writer, rr *report.RunReport, md bool) {
	writeRunHeader(w, rr, md)
	writeScenarioTable(w, rr, md)
	writeNodes(w, rr, md)
	writeCut(w, rr, md)
	writeClients(w, rr, md)
	writeActionsText(w, md, rr.Actions)
	writeRecoveryText(w, md, rr.Recovery)
	writeErrorCodes(w, rr, md)
	writeOverTime(w, rr, md)
	writePlans(w, rr, md)
}

// writeRunHeader prints the run's id, server, window, files and warnings.
func writeRunHeader(w io.Writer, rr *report.RunReport, md bool) {
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
}

// writeScenarioTable prints each scenario's figures and the run's.
func writeScenarioTable(w io.Writer, rr *report.RunReport, md bool) {
	heading(w, md, 2, "Scenarios (latency in ms, successful executions)")
	t := &table{head: []string{"scenario", "executions", "errors", "retries", "mean", "p50", "p95", "p99", "max", "qps", "plans"},
		right: map[int]bool{1: true, 2: true, 3: true, 4: true, 5: true, 6: true, 7: true, 8: true, 9: true, 10: true}}
	for _, s := range rr.Scenarios {
		t.add(s.Scenario, fmt.Sprint(s.Executions), fmt.Sprint(s.Errors), fmt.Sprint(s.Retries), formatMs(s.MeanMs), formatMs(s.P50Ms), formatMs(s.P95Ms),
			formatMs(s.P99Ms), formatMs(s.MaxMs), fmt.Sprintf("%.1f", s.QPS), fmt.Sprint(len(s.Plans)))
	}
	tot := rr.Total
	t.add("(all)", fmt.Sprint(tot.Executions), fmt.Sprint(tot.Errors), fmt.Sprint(tot.Retries), formatMs(tot.MeanMs), formatMs(tot.P50Ms), formatMs(tot.P95Ms),
		formatMs(tot.P99Ms), formatMs(tot.MaxMs), fmt.Sprintf("%.1f", tot.QPS), "")
	t.write(w, md)
	fmt.Fprintln(w)
	fmt.Fprintln(w, commitText(tot))
	fmt.Fprintln(w)
}

// commitText says how many events' COMMIT failed: the conflicts a
// cluster's certification refused, and the others.
func commitText(s metrics.Summary) string {
	out := fmt.Sprintf("conflicts: %d transactions whose COMMIT the cluster's certification refused", s.Conflicts)
	if n := s.FailedCommits - s.Conflicts; n > 0 {
		out += fmt.Sprintf("; %d other failed COMMITs", n)
	}
	return out
}

// writeNodes prints the figures of the statements each server served.
func writeNodes(w io.Writer, rr *report.RunReport, md bool) {
	if len(rr.Nodes) == 0 {
		return
	}
	heading(w, md, 2, "Nodes (the server each connection reached; latency in ms)")
	t := &table{head: []string{"node", "executions", "errors", "retries", "conflicts", "p50", "p95", "p99", "qps"},
		right: map[int]bool{1: true, 2: true, 3: true, 4: true, 5: true, 6: true, 7: true, 8: true}}
	for _, n := range rr.Nodes {
		t.add(n.Node, fmt.Sprint(n.Executions), fmt.Sprint(n.Errors), fmt.Sprint(n.Retries), fmt.Sprint(n.Conflicts),
			formatMs(n.P50Ms), formatMs(n.P95Ms), formatMs(n.P99Ms), fmt.Sprintf("%.1f", n.QPS))
	}
	t.write(w, md)
	fmt.Fprintln(w)
}

// writeErrorCodes lists each scenario's errors by server error code.
func writeErrorCodes(w io.Writer, rr *report.RunReport, md bool) {
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
}

// writeOverTime prints the run's timeline, in at most 30 rows.
func writeOverTime(w io.Writer, rr *report.RunReport, md bool) {
	if len(rr.Timeline) == 0 {
		return
	}
	pts := downsample(rr.Timeline, 30)
	heading(w, md, 2, fmt.Sprintf("Over time (%d buckets of %gs, shown in %d rows)", len(rr.Timeline), rr.Timeline[0].Seconds, len(pts)))
	tt := &table{head: []string{"time", "executions", "errors", "qps", "p95 ms"}, right: map[int]bool{1: true, 2: true, 3: true, 4: true}}
	for _, p := range pts {
		tt.add(p.Time.Sub(rr.Timeline[0].Time).String(), fmt.Sprint(p.Executions), fmt.Sprint(p.Errors), fmt.Sprintf("%.1f", p.QPS), formatMs(p.P95Ms))
	}
	tt.write(w, md)
	fmt.Fprintln(w)
}

// writePlans prints each scenario's plans as readable trees.
func writePlans(w io.Writer, rr *report.RunReport, md bool) {
	heading(w, md, 2, "Plans")
	for _, s := range rr.Scenarios {
		for _, p := range s.Plans {
			fmt.Fprintf(w, "%s%s: plan %s (%d executions)\n", listItem(md), s.Scenario, p.Hash, p.Executions)
			if p.Tree == "" {
				continue
			}
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

// writeCut lists the scenarios with statements cut at the end of the run.
func writeCut(w io.Writer, rr *report.RunReport, md bool) {
	if rr.Total.CutAtEnd == 0 {
		return
	}
	heading(w, md, 2, fmt.Sprintf("Cut at the end (%d statements still running when the run ended: not in the figures above)", rr.Total.CutAtEnd))
	for _, s := range rr.Scenarios {
		if s.CutAtEnd > 0 {
			fmt.Fprintf(w, "%s%s: %s\n", listItem(md), s.Scenario, compare.CutText(&s.Summary))
		}
	}
	for _, s := range rr.Scenarios {
		if s.NotReached != "" {
			fmt.Fprintf(w, "%s%s: %s\n", listItem(md), s.Scenario, s.NotReached)
		}
	}
	fmt.Fprintln(w)
}

// writeClients prints the per-client breakdown of a split run.
func writeClients(w io.Writer, rr *report.RunReport, md bool) {
	if len(rr.Clients) == 0 {
		return
	}
	heading(w, md, 2, fmt.Sprintf("Clients (%d segments)", len(rr.Clients)))
	t := &table{head: []string{"segment", "client", "executions", "errors", "start", "seconds", "qps", "p99"},
		right: map[int]bool{0: true, 2: true, 3: true, 5: true, 6: true, 7: true}}
	for _, c := range rr.Clients {
		t.add(fmt.Sprint(c.Segment), c.ClientHost, fmt.Sprint(c.Executions), fmt.Sprint(c.Errors),
			c.Start.Sub(rr.Start).Round(time.Millisecond).String(), fmt.Sprintf("%.1f", c.End.Sub(c.Start).Seconds()),
			fmt.Sprintf("%.1f", c.QPS), formatMs(c.P99Ms))
	}
	t.write(w, md)
	if cw := rr.Common; cw != nil {
		fmt.Fprintf(w, "common window (every client running): %.1fs, %d executions, %.1f qps\n",
			cw.End.Sub(cw.Start).Seconds(), cw.Executions, cw.QPS)
	}
	fmt.Fprintln(w)
}

// writeActionsText prints what a run's actions cost every endpoint.
func writeActionsText(w io.Writer, md bool, costs []stall.Cost) {
	if len(costs) == 0 {
		return
	}
	heading(w, md, 2, "Actions: longest stretch without a successful write, per endpoint")
	t := &table{head: []string{"action", "at s", "took s", "outcome", "endpoint", "longest zero-write ms", "from s", "worst latency ms", "peak extra disk MB"},
		right: map[int]bool{1: true, 2: true, 5: true, 6: true, 7: true, 8: true}}
	for _, c := range costs {
		for i, e := range c.Endpoints {
			label, at, took, outcome := fmt.Sprintf("%d.%d %s on %s", c.Action, c.Step, c.Kind, cmp.Or(c.Node, c.Endpoint)),
				fmt.Sprintf("%.1f", c.StartSeconds), fmt.Sprintf("%.1f", c.Seconds), c.Outcome
			if i > 0 {
				label, at, took, outcome = "", "", "", ""
			}
			t.add(label, at, took, outcome, e.Endpoint, e.LongestText(), fmt.Sprintf("%.1f", e.StretchStartSeconds), e.LatencyText(), e.DiskText())
		}
	}
	t.write(w, md)
	fmt.Fprintln(w)
	for _, c := range costs {
		if c.Error != "" {
			fmt.Fprintf(w, "%saction %d (%s) %s: %s\n", listItem(md), c.Action, c.Spec, c.Outcome, c.Error)
		}
	}
}

// downsample merges adjacent points so that at most n remain (text output
// only; JSON and HTML keep every point).
func downsample(pts []report.TimePoint, n int) []report.TimePoint {
	if len(pts) <= n {
		return pts
	}
	k := (len(pts) + n - 1) / n
	var out []report.TimePoint
	for i := 0; i < len(pts); i += k {
		g := pts[i:min(i+k, len(pts))]
		m := report.TimePoint{Time: g[0].Time}
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
