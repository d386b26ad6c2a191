package replay

import (
	"cmp"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/joinbench/joinbench/analysis/stall"
	"github.com/joinbench/joinbench/results"
)

// stallRecorder feeds the writes of a run with actions to a stall
// tracker, which measures what each action cost (see package stall).
type stallRecorder struct {
	t *stall.Tracker
	// writes are the scenarios that write; with none, every execution
	// counts, so that a read-only run still shows its stalls.
	writes map[string]bool
}

// newStallRecorder returns nil when the run has no actions.
func (e *engine) newStallRecorder(origin time.Time) *stallRecorder {
	if len(e.cfg.Actions) == 0 {
		return nil
	}
	r := &stallRecorder{t: stall.New(origin)}
	for _, s := range e.scens {
		if s.Write {
			if r.writes == nil {
				r.writes = map[string]bool{}
			}
			r.writes[s.Name] = true
		}
	}
	return r
}

func (r *stallRecorder) add(x *results.Execution) {
	if r.writes != nil && !r.writes[x.Scenario] {
		return
	}
	// A paced run measures latency from the intended start.
	start := x.Start
	if x.IntendedStart != nil {
		start = *x.IntendedStart
	}
	r.t.Add(x.Endpoint, start, time.Duration(x.LatencyNs), x.ErrorCode == 0)
}

// actionCosts measures what each action cost every endpoint.
func (e *engine) actionCosts(rows []results.Action, end time.Time) []stall.Cost {
	if e.stalls == nil {
		return nil
	}
	names := make([]string, len(e.eps))
	for i, ep := range e.eps {
		names[i] = ep.Name
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return stall.Costs(e.stalls.t, rows, names, end)
}

// writeActionCosts prints, per action, the longest stretch without a
// successful write on each endpoint and the worst latency in it.
func writeActionCosts(w io.Writer, costs []stall.Cost) error {
	if len(costs) == 0 {
		return nil
	}
	fmt.Fprintln(w, "\nactions: longest stretch without a successful write on each endpoint, from the action's start to the next one's")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "action\tat s\ttook s\toutcome\tendpoint\tlongest zero-write ms\tfrom s\tworst latency ms\t")
	steps := map[int32]int{}
	for _, c := range costs {
		steps[c.Action]++
	}
	for _, c := range costs {
		label := fmt.Sprintf("%d %s on %s", c.Action, c.Kind, cmp.Or(c.Node, c.Endpoint))
		if steps[c.Action] > 1 {
			label = fmt.Sprintf("%d.%d %s on %s", c.Action, c.Step, c.Kind, cmp.Or(c.Node, c.Endpoint))
		}
		outcome := c.Outcome
		for i, ep := range c.Endpoints {
			if i > 0 {
				label, outcome = "", ""
			}
			at, took := fmt.Sprintf("%.1f", c.StartSeconds), fmt.Sprintf("%.1f", c.Seconds)
			if i > 0 {
				at, took = "", ""
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%.1f\t%s\t\n", label, at, took, outcome, ep.Endpoint,
				ep.LongestText(), ep.StretchStartSeconds, ep.LatencyText())
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, c := range costs {
		if c.Error != "" {
			fmt.Fprintf(w, "action %d (%s) %s: %s\n", c.Action, c.Spec, c.Outcome, clipText(c.Error, 300))
		}
	}
	return nil
}

// clipText puts s on one line and cuts it after n bytes.
func clipText(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
