package report

import (
	"slices"
	"strings"
	"time"

	"github.com/joinbench/joinbench/replay/results"
	"github.com/joinbench/joinbench/replay/stall"
)

// EndpointTimeline is one endpoint's executions over time: per second (or
// wider bucket), executions, errors, p95 and the longest latency.
type EndpointTimeline struct {
	Endpoint string      `json:"endpoint"`
	Timeline []TimePoint `json:"timeline"`
}

// endpointFields are the executions columns the per-endpoint figures
// read.
var endpointFields = results.SelectExecutionFields("Scenario", "Endpoint", "Start", "IntendedStart", "LatencyNs", "ErrorCode",
	"CutAtEnd") // a cut statement is not an execution (cut.go), as the run's summary skips it

// epTimeline is a timeline that also keeps each bucket's longest latency.
type epTimeline struct {
	*timeline
	longest map[int64]int64 // bucket key at 1 s → ns
}

// baselineSettle is how long after its first write a workload is taken
// to run as it will.
const baselineSettle = time.Second

// readEndpoints reads the run's executions a second time, per endpoint:
// for runs on several endpoints (a cluster) or with actions only, so that
// other reports cost nothing more. With actions it also measures what each
// cost every endpoint, as the run's own summary did (package stall).
//
// baseline is, per endpoint, the longest stretch without a successful write
// from a second after its first write (baselineSettle) to the first action: what the workload does on its own, the noise a
// stall must stand out of.
func readEndpoints(dir string, info *results.Run, actions []results.Action, warn results.Warner) (tls []EndpointTimeline, costs []stall.Cost, baseline []stall.EndpointCost, err error) {
	if info == nil || (len(info.Endpoints) < 2 && len(actions) == 0) {
		return nil, nil, nil, nil
	}
	var tr *stall.Tracker
	if len(actions) > 0 {
		tr = stall.New(info.Start)
	}
	writes := map[string]bool{}
	for _, s := range info.WriteScenarios {
		writes[s] = true
	}
	byEp := map[string]*epTimeline{}
	_, err = results.ScanExecutionFields(dir, warn, endpointFields, func(e *results.Execution) error {
		if e.CutAtEnd {
			return nil
		}
		start := e.Start
		if e.IntendedStart != nil {
			start = *e.IntendedStart
		}
		tl := byEp[e.Endpoint]
		if tl == nil {
			tl = &epTimeline{timeline: newTimeline(), longest: map[int64]int64{}}
			byEp[strings.Clone(e.Endpoint)] = tl
		}
		tl.add(e.Start, e.LatencyNs, e.ErrorCode != 0)
		if e.ErrorCode == 0 {
			k := floorDiv(e.Start.UnixNano(), int64(time.Second))
			tl.longest[k] = max(tl.longest[k], e.LatencyNs)
		}
		if tr != nil && (len(writes) == 0 || writes[e.Scenario]) {
			tr.Add(e.Endpoint, start, time.Duration(e.LatencyNs), e.ErrorCode == 0)
		}
		return nil
	})
	if err != nil {
		return nil, nil, nil, err
	}
	eps := slices.Clone(info.Endpoints)
	for ep := range byEp {
		if !slices.Contains(eps, ep) {
			eps = append(eps, ep)
		}
	}
	for _, ep := range eps {
		tl := byEp[ep]
		if tl == nil {
			continue
		}
		pts := tl.points()
		for i := range pts {
			// Buckets wider than a second take the longest of theirs.
			from := floorDiv(pts[i].Time.UnixNano(), int64(time.Second))
			to := from + int64(pts[i].Seconds)
			for k := from; k < max(to, from+1); k++ {
				pts[i].MaxMs = max(pts[i].MaxMs, ms(tl.longest[k]))
			}
			// The p95 is read from buckets about 4% wide: never above the max.
			if pts[i].MaxMs > 0 {
				pts[i].P95Ms = min(pts[i].P95Ms, pts[i].MaxMs)
			}
		}
		tls = append(tls, EndpointTimeline{Endpoint: ep, Timeline: pts})
	}
	if tr != nil {
		costs = stall.Costs(tr, actions, info.Endpoints, info.End)
		first := info.End
		for _, a := range actions {
			if !a.Start.IsZero() && a.Start.Before(first) {
				first = a.Start
			}
		}
		for _, ep := range stall.WithAll(info.Endpoints) {
			// From a second after the first write on: connecting,
			// preparing and the first executions on a cold cache are not
			// the workload's gaps.
			from, ok := tr.FirstWrite(ep)
			if !ok {
				from = info.Start
			}
			if settled := from.Add(baselineSettle); settled.Before(first) {
				from = settled
			}
			st := tr.Longest(ep, from, first)
			baseline = append(baseline, stall.EndpointCost{Endpoint: ep, LongestZeroWriteMs: float64(st.Length.Microseconds()) / 1e3,
				StretchStartSeconds: float64(st.Start.Sub(info.Start).Milliseconds()) / 1e3,
				WorstLatencyMs:      float64(st.Worst.Microseconds()) / 1e3})
		}
	}
	return tls, costs, baseline, nil
}
