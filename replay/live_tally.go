package replay

import (
	"time"

	"github.com/joinbench/joinbench/results"
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
// live view of the run: per endpoint, node and scenario, executions,
// errors and latency buckets, and per endpoint the end of its latest
// successful write. The writer feeds it under engine.mu, as it feeds the
// summary, so that the workers never touch it.
type liveTally struct {
	bounds []int64 // LatencyBounds in nanoseconds
	eps    []*liveEndpointTally
	byName map[string]*liveEndpointTally
	// writes says which scenarios end a write stall: those that write, or
	// every one when none does (as in the stalls an action costs:
	// stalls.go).
	writes map[string]bool
	// last is the endpoint of the last row: a batch is one worker's, on
	// one endpoint.
	last *liveEndpointTally
}

type liveEndpointTally struct {
	name string
	// cells are per node and scenario, in the order first seen.
	cells  []*liveCell
	byCell map[liveKey]*liveCell
	// lastWrite is when the latest successful write ended, Unix ns; 0
	// before the first.
	lastWrite int64
	// lastCell is the cell of the last row: a scenario's rows come in
	// runs of its count per event, from one connection.
	lastCell *liveCell
}

// liveKey names a cell: the server that served the statements (as rows
// name it: results.Execution.Node) and the scenario.
type liveKey struct{ node, scenario string }

// liveCell is one scenario on one node of one endpoint.
type liveCell struct {
	liveKey
	write                       bool // its successful executions end a write stall
	executions, errors, retries int64
	errorCodes                  map[int32]int64
	buckets                     []uint64 // per bound, and one past the last
	sumNs                       int64    // of the latencies counted in buckets
}

func (e *engine) newLiveTally() *liveTally {
	t := &liveTally{byName: map[string]*liveEndpointTally{}, writes: map[string]bool{}}
	for _, b := range LatencyBounds {
		t.bounds = append(t.bounds, int64(b))
	}
	anyWrite := false
	for _, s := range e.scens {
		anyWrite = anyWrite || s.Write
	}
	for _, s := range e.scens {
		t.writes[s.Name] = s.Write || !anyWrite
	}
	for _, ep := range e.eps {
		et := &liveEndpointTally{name: ep.Name, byCell: map[liveKey]*liveCell{}}
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
	if c == nil || c.scenario != r.Scenario || c.node != r.Node {
		c = t.cell(ep, liveKey{node: r.Node, scenario: r.Scenario})
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

// cell returns the cell of k on ep, made on its first row.
func (t *liveTally) cell(ep *liveEndpointTally, k liveKey) *liveCell {
	if c := ep.byCell[k]; c != nil {
		return c
	}
	c := &liveCell{liveKey: k, write: t.writes[k.scenario], buckets: make([]uint64, len(t.bounds)+1)}
	ep.byCell[k] = c
	ep.cells = append(ep.cells, c)
	return c
}
