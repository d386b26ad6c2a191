package report

import (
	"slices"
	"strings"
	"time"

	"github.com/joinbench/joinbench/analysis/stall"
	"github.com/joinbench/joinbench/results"
)

// EndpointTimeline is one endpoint's executions over time: per second (or
// wider bucket), executions, errors, p95 and the longest latency.
type EndpointTimeline struct {
	Endpoint string      `json:"endpoint"`
	Timeline []TimePoint `json:"timeline"`
}

// endpointFields are the executions columns the per-endpoint and per-node
// figures read.
var endpointFields = results.SelectExecutionFields("Scenario", "Endpoint", "Start", "IntendedStart", "LatencyNs", "ErrorCode",
	"CutAtEnd", // a cut statement is not an execution (cut.go), as the run's summary skips it
	"Retries", "CommitErrorCode", "Node")

// endpointFigures are what a second reading of a run's executions gives,
// per endpoint and per node (readEndpoints).
type endpointFigures struct {
	timelines []EndpointTimeline
	costs     []stall.Cost
	baseline  []stall.EndpointCost
	nodes     []NodeReport
	// rates are, per endpoint, its successful executions per rateSlot
	// from the run's start (runs with actions only).
	rates map[string][]int32
}

// rateSlot is the resolution of the rates of a run with actions.
const rateSlot = 100 * time.Millisecond

// epTimeline is a timeline that also keeps each bucket's longest latency.
type epTimeline struct {
	*timeline
	longest  map[int64]int64 // bucket key at 1 s → ns
	endpoint string
}

// baselineSettle is how long after its first write a workload is taken
// to run as it will.
const baselineSettle = time.Second

// readEndpoints reads the run's executions a second time, per endpoint
// and per node: for runs on several endpoints (a cluster), behind a proxy
// or with actions only, so that other reports cost nothing more. With
// actions it also measures what each cost every endpoint, as the run's own
// summary did (package stall).
//
// baseline is, per endpoint, the longest stretch without a successful write
// from a second after its first write (baselineSettle) to the first action: what the workload does on its own, the noise a
// stall must stand out of.
func readEndpoints(dir string, info *results.Run, actions []results.Action, warn results.Warner) (endpointFigures, error) {
	var out endpointFigures
	if info == nil || (len(info.Endpoints) < 2 && len(actions) == 0 && !behindProxy(info)) {
		return out, nil
	}
	var tr *stall.Tracker
	if len(actions) > 0 {
		tr = stall.New(info.Start)
		out.rates = map[string][]int32{}
	}
	writes := map[string]bool{}
	for _, s := range info.WriteScenarios {
		writes[s] = true
	}
	byEp := map[string]*epTimeline{}
	nodes := nodeAcc{}
	_, err := results.ScanExecutionFields(dir, warn, endpointFields, func(e *results.Execution) error {
		if e.CutAtEnd {
			return nil
		}
		nodes.add(e)
		start := e.Start
		if e.IntendedStart != nil {
			start = *e.IntendedStart
		}
		tl := byEp[e.Endpoint]
		if tl == nil {
			tl = &epTimeline{timeline: newTimeline(), longest: map[int64]int64{}, endpoint: strings.Clone(e.Endpoint)}
			byEp[tl.endpoint] = tl
		}
		tl.add(e.Start, e.LatencyNs, e.ErrorCode != 0, e.Retries)
		if e.ErrorCode == 0 {
			k := floorDiv(e.Start.UnixNano(), int64(time.Second))
			tl.longest[k] = max(tl.longest[k], e.LatencyNs)
		}
		if tr != nil && (len(writes) == 0 || writes[e.Scenario]) {
			tr.Add(e.Endpoint, start, time.Duration(e.LatencyNs), e.ErrorCode == 0)
		}
		if tr != nil && e.ErrorCode == 0 && !start.Before(info.Start) {
			rate := out.rates[e.Endpoint]
			i := int(start.Sub(info.Start) / rateSlot)
			for len(rate) <= i {
				rate = append(rate, 0)
			}
			rate[i]++
			out.rates[tl.endpoint] = rate
		}
		return nil
	})
	if err != nil {
		return out, err
	}
	out.nodes = nodes.reports()
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
		out.timelines = append(out.timelines, EndpointTimeline{Endpoint: ep, Timeline: pts})
	}
	if tr != nil {
		out.costs = stall.Costs(tr, actions, info.Endpoints, info.End)
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
			out.baseline = append(out.baseline, stall.Measure(tr, ep, from, first))
		}
	}
	return out, nil
}

// behindProxy reports whether the run's traffic went to a proxy in front
// of its nodes: a node is not one of its endpoints.
func behindProxy(info *results.Run) bool {
	for _, n := range info.Nodes {
		if !slices.Contains(info.Endpoints, n.Endpoint) {
			return true
		}
	}
	return false
}
