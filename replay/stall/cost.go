package stall

import (
	"time"

	"github.com/joinbench/joinbench/replay/results"
)

// Cost is what one action (one row of actions.parquet: one endpoint, one
// step) cost every endpoint of the run.
type Cost struct {
	Action   int32  `json:"action"`
	Step     int32  `json:"step"`
	Spec     string `json:"spec"`
	Kind     string `json:"kind"`
	Endpoint string `json:"endpoint"` // where the action ran
	Node     string `json:"node,omitempty"`
	Outcome  string `json:"outcome"`
	Error    string `json:"error,omitempty"`
	// StartSeconds is when it started, from the start of the measured
	// phase; Seconds how long it ran.
	StartSeconds float64 `json:"start_seconds"`
	Seconds      float64 `json:"seconds"`
	// WindowSeconds is the time looked at: from the action's start to its
	// end or, when later, the next action's start (or the next node's, in a
	// rolling change; the run's end for the last one), so that what an action leaves behind (a write-set the
	// other nodes still apply) counts too.
	WindowSeconds float64        `json:"window_seconds"`
	Endpoints     []EndpointCost `json:"endpoints"`
}

// EndpointCost is the longest stretch of one endpoint without a
// successful write during an action's window.
type EndpointCost struct {
	Endpoint            string  `json:"endpoint"`
	LongestZeroWriteMs  float64 `json:"longest_zero_write_ms"`
	StretchStartSeconds float64 `json:"stretch_start_seconds"` // from the start of the measured phase
	WorstLatencyMs      float64 `json:"worst_latency_ms"`
}

// Costs measures, for each action that ran, the longest stretch without a
// successful write on each of endpoints (in their order) and, with several,
// on all of them at once (AllEndpoints, last) within its window. runEnd
// ends the last window.
func Costs(t *Tracker, actions []results.Action, endpoints []string, runEnd time.Time) []Cost {
	var out []Cost
	for _, a := range actions {
		if a.Outcome == results.ActionSkipped || a.Start.IsZero() {
			continue
		}
		end := a.End
		if end.IsZero() || end.Before(a.Start) {
			end = a.Start
		}
		next := runEnd
		for _, b := range actions {
			// The next action, or the next node of a rolling change.
			if (b.Action != a.Action || b.Step != a.Step) && b.Start.After(a.Start) && b.Start.Before(next) && b.Outcome != results.ActionSkipped {
				next = b.Start
			}
		}
		win := end
		if next.After(win) {
			win = next
		}
		c := Cost{Action: a.Action, Step: a.Step, Spec: a.Spec, Kind: a.Kind, Endpoint: a.Endpoint, Node: a.Node,
			Outcome: a.Outcome, Error: a.ErrorMessage,
			StartSeconds: seconds(a.Start.Sub(t.origin)), Seconds: seconds(end.Sub(a.Start)),
			WindowSeconds: seconds(win.Sub(a.Start))}
		for _, ep := range WithAll(endpoints) {
			st := t.Longest(ep, a.Start, win)
			c.Endpoints = append(c.Endpoints, EndpointCost{Endpoint: ep,
				LongestZeroWriteMs:  ms(st.Length),
				StretchStartSeconds: seconds(st.Start.Sub(t.origin)),
				WorstLatencyMs:      ms(st.Worst)})
		}
		out = append(out, c)
	}
	return out
}

func seconds(d time.Duration) float64 { return float64(d.Milliseconds()) / 1e3 }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }

// WithAll is endpoints followed, when there are several, by AllEndpoints.
func WithAll(endpoints []string) []string {
	if len(endpoints) < 2 {
		return endpoints
	}
	return append(append([]string(nil), endpoints...), AllEndpoints)
}
