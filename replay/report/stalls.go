package report

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/joinbench/joinbench/replay/compare"
	"github.com/joinbench/joinbench/replay/results"
	"github.com/joinbench/joinbench/replay/stall"
)

// readStalls measures one run's actions; nil when it has none.
func readStalls(dir string, w warner) (*compare.ActionCosts, error) {
	info := results.ReadRunInfo(dir, w.warn)
	if info == nil {
		return nil, nil
	}
	rows, err := results.ReadActions(dir, w.warn)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	_, costs, baseline, err := readEndpoints(dir, info, rows, w.warn)
	if err != nil {
		return nil, err
	}
	s := &compare.ActionCosts{Endpoints: stall.WithAll(info.Endpoints), Specs: info.Actions}
	n := len(s.Endpoints)
	s.Longest, s.Total, s.Worst, s.Baseline = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for _, c := range costs {
		for i, e := range c.Endpoints[:min(n, len(c.Endpoints))] {
			s.Longest[i] = math.Max(s.Longest[i], e.LongestZeroWriteMs)
			s.Total[i] += e.LongestZeroWriteMs
			s.Worst[i] = math.Max(s.Worst[i], e.WorstLatencyMs)
		}
	}
	for i, b := range baseline[:min(n, len(baseline))] {
		s.Baseline[i] = b.LongestZeroWriteMs
	}
	return s, nil
}

// compareStalls compares the actions' cost of the first run of each side;
// nil when either has no actions.
func compareStalls(baseDirs, candDirs []string, w warner) (*compare.StallComparison, error) {
	if len(baseDirs) == 0 || len(candDirs) == 0 {
		return nil, nil
	}
	b, err := readStalls(baseDirs[0], w)
	if err != nil || b == nil {
		return nil, err
	}
	c, err := readStalls(candDirs[0], w)
	if err != nil || c == nil {
		return nil, err
	}
	if len(baseDirs) > 1 || len(candDirs) > 1 {
		w.warn(fmt.Errorf("stall times compare the first run of each side only"))
	}
	sc, warnings := compare.Stalls(b, c)
	for _, err := range warnings {
		w.warn(err)
	}
	return sc, nil
}

// writeStallsText prints a stall comparison.
func writeStallsText(w io.Writer, md bool, sc *compare.StallComparison) {
	if sc == nil {
		return
	}
	heading(w, md, 2, "Stall time per endpoint (actions)")
	fmt.Fprintf(w, "%sbase:      %s\n", listItem(md), strings.Join(sc.Base, " | "))
	fmt.Fprintf(w, "%scandidate: %s\n", listItem(md), strings.Join(sc.Candidate, " | "))
	fmt.Fprintf(w, "%sverdict:   candidate has %s\n\n", listItem(md), sc.Verdict)
	t := &table{head: []string{"endpoint", "verdict", "longest ms base→cand", "sum ms base→cand", "worst latency ms base→cand", "noise ms"},
		right: map[int]bool{5: true}}
	for _, d := range sc.Endpoints {
		ep := d.Endpoint
		if d.CandidateEndpoint != "" {
			ep += " / " + d.CandidateEndpoint
		}
		t.add(ep, d.Verdict, fmt.Sprintf("%.0f→%.0f", d.BaseLongestMs, d.CandidateLongestMs),
			fmt.Sprintf("%.0f→%.0f", d.BaseTotalMs, d.CandidateTotalMs), fmt.Sprintf("%.0f→%.0f", d.BaseWorstMs, d.CandidateWorstMs),
			fmt.Sprintf("%.0f", d.NoiseMs))
	}
	t.write(w, md)
	fmt.Fprintf(w, "\nStall rule: %s.\n\n", sc.Rule)
}

// writeActionsText prints what a run's actions cost every endpoint.
func writeActionsText(w io.Writer, md bool, costs []stall.Cost) {
	if len(costs) == 0 {
		return
	}
	heading(w, md, 2, "Actions: longest stretch without a successful write, per endpoint")
	t := &table{head: []string{"action", "at s", "took s", "outcome", "endpoint", "longest zero-write ms", "from s", "worst latency ms"},
		right: map[int]bool{1: true, 2: true, 5: true, 6: true, 7: true}}
	for _, c := range costs {
		for i, e := range c.Endpoints {
			label, at, took, outcome := fmt.Sprintf("%d.%d %s on %s", c.Action, c.Step, c.Kind, cmp.Or(c.Node, c.Endpoint)),
				fmt.Sprintf("%.1f", c.StartSeconds), fmt.Sprintf("%.1f", c.Seconds), c.Outcome
			if i > 0 {
				label, at, took, outcome = "", "", "", ""
			}
			t.add(label, at, took, outcome, e.Endpoint, fmt.Sprintf("%.0f", e.LongestZeroWriteMs),
				fmt.Sprintf("%.1f", e.StretchStartSeconds), fmt.Sprintf("%.0f", e.WorstLatencyMs))
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
