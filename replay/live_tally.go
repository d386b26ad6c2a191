package replay

import (
	"time"

	"github.com/joinbench/joinbench/replay/results"
)

// LatencyBounds are the upper bounds of the latency buckets a live run
// counts (Live): 1-2-5 steps from 20 µs to 100 s, so that a live view's
// histograms and heatmaps read in round numbers over every latency a join
// takes. Percentiles read from them are within a bucket's width; the
// results files keep every latency to 0.1%.
var LatencyBounds = []time.Duration{
	20 * time.Microsecond, 50 * time.Microsecond,
	100 * time.Microsecond, 200 * time.Microsecond, 500 * time.Microsecond,
	time.Millisecond, 2 * time.Millisecond, 5 * time.Millisecond,
	10 * time.Millisecond, 20 * time.Millisecond, 50 * time.Millisecond,
	100 * time.Millisecond, 200 * time.Millisecond, 500 * time.Millisecond,
	time.Second, 2 * time.Second, 5 * time.Second,
	10 * time.Second, 20 * time.Second, 50 * time.Second,
	100 * time.Second,
}

// liveTally is what the writer goroutine counts of the rows it writes for a
// live view of the run: per endpoint and scenario, executions, errors and
// latency buckets, and per endpoint the end of its latest successful
// write. The writer feeds it under engine.mu, as it feeds the summary, so
// that the workers never touch it.
type liveTally struct {
	bounds []int64 // LatencyBounds in nanoseconds
	eps    []*liveEndpointTally
	byName map[string]*liveEndpointTally
	// last is the endpoint of the last row: a batch is one worker's, on
	// one endpoint.
	last *liveEndpointTally
}

type liveEndpointTally struct {
	name  string
	cells map[string]*liveCell
	// lastWrite is when the latest successful write ended, Unix ns; 0
	// before the first.
	lastWrite int64
	// lastCell is the cell of the last row: a scenario's rows come in
	// runs of its count per event.
	lastCell *liveCell
}

// liveCell is one scenario on one endpoint.
type liveCell struct {
	scenario string
	// write says its successful executions end a write stall: it writes,
	// or no scenario of the run does (every execution counts then, as in
	// the stalls an action costs: stalls.go).
	write                       bool
	executions, errors, retries int64
	errorCodes                  map[int32]int64
	buckets                     []uint64 // per bound, and one past the last
	sumNs                       int64    // of the latencies counted in buckets
}

func (e *engine) newLiveTally() *liveTally {
	t := &liveTally{byName: map[string]*liveEndpointTally{}}
	for _, b := range LatencyBounds {
		t.bounds = append(t.bounds, int64(b))
	}
	anyWrite := false
	for _, s := range e.scens {
		anyWrite = anyWrite || s.Write
	}
	for _, ep := range e.eps {
		et := &liveEndpointTally{name: ep.Name, cells: map[string]*liveCell{}}
		for _, s := range e.scens {
			et.cells[s.Name] = &liveCell{scenario: s.Name, write: s.Write || !anyWrite, buckets: make([]uint64, len(t.bounds)+1)}
		}
		t.eps = append(t.eps, et)
		t.byName[ep.Name] = et
	}
	return t
}

// add counts one row the writer writes. Statements cut at the end of the
// run are neither executions nor errors (see results.Execution.CutAtEnd).
func (t *liveTally) add(r *results.Execution) {
	if r.CutAtEnd {
		return
	}
	ep := t.last
	if ep == nil || ep.name != r.Endpoint {
		if ep = t.byName[r.Endpoint]; ep == nil {
			return
		}
		t.last = ep
	}
	c := ep.lastCell
	if c == nil || c.scenario != r.Scenario {
		if c = ep.cells[r.Scenario]; c == nil {
			return
		}
		ep.lastCell = c
	}
	c.executions++
	c.retries += int64(r.Retries)
	if r.ErrorCode != 0 {
		c.errors++
		if c.errorCodes == nil {
			c.errorCodes = map[int32]int64{}
		}
		c.errorCodes[r.ErrorCode]++
		return
	}
	ns := r.LatencyNs
	i := 0
	for i < len(t.bounds) && ns > t.bounds[i] {
		i++
	}
	c.buckets[i]++
	c.sumNs += ns
	if c.write {
		from := r.Start
		if r.IntendedStart != nil {
			from = *r.IntendedStart
		}
		ep.lastWrite = max(ep.lastWrite, from.UnixNano()+ns)
	}
}
