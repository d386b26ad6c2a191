package stall

import (
	"fmt"
	"time"

	"github.com/joinbench/joinbench/results"
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

	from, to time.Time // the window
}

// EndpointCost is the longest stretch of one endpoint without a
// successful write during an action's window.
type EndpointCost struct {
	Endpoint            string  `json:"endpoint"`
	LongestZeroWriteMs  float64 `json:"longest_zero_write_ms"`
	StretchStartSeconds float64 `json:"stretch_start_seconds"` // from the start of the measured phase
	WorstLatencyMs      float64 `json:"worst_latency_ms"`
	// NoTraffic: no client wrote through the endpoint in the whole run (a
	// node behind no client): nothing to stall, and the figures above are
	// 0.
	NoTraffic bool `json:"no_traffic,omitempty"`
	// NoWriteInFlight: no write was running during the stretch (its
	// clients sent none: reconnecting, or busy with other statements), so
	// that WorstLatencyMs, 0, says nothing of the server.
	NoWriteInFlight bool `json:"no_write_in_flight,omitempty"`
	// PeakExtraDiskBytes is the most the server's tablespaces grew over
	// their size at the action's start, during its window (a table
	// copy); nil when not sampled (disk.go).
	PeakExtraDiskBytes *int64 `json:"peak_extra_disk_bytes,omitempty"`
}

// Measure is the cost of endpoint's longest stretch without a successful
// write between from and to, in seconds from origin.
func Measure(t *Tracker, endpoint string, from, to time.Time) EndpointCost {
	if !t.Wrote(endpoint) {
		return EndpointCost{Endpoint: endpoint, NoTraffic: true}
	}
	st := t.Longest(endpoint, from, to)
	return EndpointCost{Endpoint: endpoint,
		LongestZeroWriteMs:  ms(st.Length),
		StretchStartSeconds: seconds(st.Start.Sub(t.origin)),
		WorstLatencyMs:      ms(st.Worst),
		NoWriteInFlight:     st.Length > 0 && !st.InFlight}
}

// LatencyText is the worst latency of a cost as a table shows it: "none in
// flight" when no write was running, "-" for no traffic.
func (c EndpointCost) LatencyText() string {
	switch {
	case c.NoTraffic:
		return "-"
	case c.NoWriteInFlight:
		return "none in flight"
	}
	return fmt.Sprintf("%.0f", c.WorstLatencyMs)
}

// LongestText is the longest stretch as a table shows it: "no traffic"
// for an endpoint no client wrote through.
func (c EndpointCost) LongestText() string {
	if c.NoTraffic {
		return "no traffic"
	}
	return fmt.Sprintf("%.0f", c.LongestZeroWriteMs)
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
			WindowSeconds: seconds(win.Sub(a.Start)), from: a.Start, to: win}
		for _, ep := range WithAll(endpoints) {
			c.Endpoints = append(c.Endpoints, Measure(t, ep, a.Start, win))
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
