package report

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/joinbench/joinbench/replay/results"
	"github.com/joinbench/joinbench/replay/stall"
)

// Verdicts of a stall comparison.
const (
	LessStall = "less stall"
	MoreStall = "more stall"
	SameStall = "no change"
)

// StallComparison compares what the actions of two runs cost each
// endpoint: runs that differ only in how a change was made (TOI, RSU or
// pt-online-schema-change; one DELETE or chunks).
type StallComparison struct {
	Rule      string       `json:"rule"`
	Verdict   string       `json:"verdict"`
	Base      []string     `json:"base_actions"` // the specs of each side's actions
	Candidate []string     `json:"candidate_actions"`
	Endpoints []StallDelta `json:"endpoints"`
}

// StallDelta is one endpoint's stall time on both sides: the longest
// stretch without a successful write during any action, the sum of each
// action's longest stretch, and the baseline (the longest before the first
// action) that a difference must stand out of.
type StallDelta struct {
	// Endpoint is the base's; endpoints are matched in run.json order.
	// "(all)" is the cluster as a whole: no endpoint writing.
	Endpoint           string  `json:"endpoint"`
	CandidateEndpoint  string  `json:"candidate_endpoint,omitempty"`
	BaseLongestMs      float64 `json:"base_longest_ms"`
	CandidateLongestMs float64 `json:"candidate_longest_ms"`
	BaseTotalMs        float64 `json:"base_total_ms"`
	CandidateTotalMs   float64 `json:"candidate_total_ms"`
	BaseWorstMs        float64 `json:"base_worst_latency_ms"`
	CandidateWorstMs   float64 `json:"candidate_worst_latency_ms"`
	NoiseMs            float64 `json:"noise_ms"`
	Verdict            string  `json:"verdict"`
}

// stallRule says how a stall verdict is reached.
const stallRule = "per endpoint, and for (all) the endpoints together (no endpoint writing), the longest stretch without a successful write during the runs' actions; " +
	"less or more stall when the two differ by more than 20% of the larger and by more than the noise: " +
	"twice the longer baseline (the longest stretch from a second after the first write to the first action) and at least 100 ms"

// sideStalls is what one side's actions cost, per endpoint in run.json
// order.
type sideStalls struct {
	endpoints []string
	specs     []string
	longest   []float64
	total     []float64
	worst     []float64
	baseline  []float64
}

// readStalls measures one run's actions; nil when it has none.
func readStalls(dir string, w warner) (*sideStalls, error) {
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
	s := &sideStalls{endpoints: stall.WithAll(info.Endpoints), specs: info.Actions}
	n := len(s.endpoints)
	s.longest, s.total, s.worst, s.baseline = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for _, c := range costs {
		for i, e := range c.Endpoints[:min(n, len(c.Endpoints))] {
			s.longest[i] = math.Max(s.longest[i], e.LongestZeroWriteMs)
			s.total[i] += e.LongestZeroWriteMs
			s.worst[i] = math.Max(s.worst[i], e.WorstLatencyMs)
		}
	}
	for i, b := range baseline[:min(n, len(baseline))] {
		s.baseline[i] = b.LongestZeroWriteMs
	}
	return s, nil
}

// compareStalls compares the actions' cost of the first run of each side;
// nil when either has no actions.
func compareStalls(baseDirs, candDirs []string, w warner) (*StallComparison, error) {
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
	sc := &StallComparison{Rule: stallRule, Base: b.specs, Candidate: c.specs, Verdict: SameStall}
	if len(b.endpoints) != len(c.endpoints) {
		w.warn(fmt.Errorf("stall times: the runs have %d and %d endpoints; the first %d are compared in order",
			len(b.endpoints), len(c.endpoints), min(len(b.endpoints), len(c.endpoints))))
	}
	less, more := false, false
	for i := range min(len(b.endpoints), len(c.endpoints)) {
		d := StallDelta{Endpoint: b.endpoints[i], BaseLongestMs: b.longest[i], CandidateLongestMs: c.longest[i],
			BaseTotalMs: b.total[i], CandidateTotalMs: c.total[i], BaseWorstMs: b.worst[i], CandidateWorstMs: c.worst[i],
			NoiseMs: math.Max(100, 2*math.Max(b.baseline[i], c.baseline[i])), Verdict: SameStall}
		if c.endpoints[i] != b.endpoints[i] {
			d.CandidateEndpoint = c.endpoints[i]
		}
		diff := d.CandidateLongestMs - d.BaseLongestMs
		if math.Abs(diff) > d.NoiseMs && math.Abs(diff) > 0.2*math.Max(d.BaseLongestMs, d.CandidateLongestMs) {
			if diff < 0 {
				d.Verdict, less = LessStall, true
			} else {
				d.Verdict, more = MoreStall, true
			}
		}
		sc.Endpoints = append(sc.Endpoints, d)
	}
	switch {
	case more && less:
		sc.Verdict = "mixed: " + MoreStall + " on some endpoints, " + LessStall + " on others"
	case more:
		sc.Verdict = MoreStall
	case less:
		sc.Verdict = LessStall
	}
	return sc, nil
}

// writeText prints a stall comparison.
func (sc *StallComparison) writeText(w io.Writer, md bool) {
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
