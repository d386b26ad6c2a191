package replay

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/joinbench/joinbench/analysis/metrics"
	"github.com/joinbench/joinbench/results"
)

// The live progress lines count the rows the writer receives, by the
// second their statement started: the seconds of the report's timeline
// (buckets of the report interval, aligned on the epoch), not the second
// a statement happened to end in. A line is printed once every worker has
// handed the writer the rows of statements started before the bucket's
// end, and at most lateLine after it: a statement still running then is
// left out of the line (it is in the results).

// lateLine bounds how long after its bucket's end a line waits for the
// rows of statements still running (tests lengthen it).
var lateLine = time.Second

// bucketTally is what the rows started in one bucket hold.
type bucketTally struct {
	events, execs, errs, retries, conflicts int64
	lat                                     *hdrhistogram.Histogram // successful executions
}

// tally counts the rows the writer receives by bucket; the writer adds,
// the reporter takes. Guarded by engine.mu.
type tally struct {
	width   int64 // ns
	buckets map[int64]*bucketTally
	free    []*hdrhistogram.Histogram
}

func newTally(width time.Duration) *tally {
	return &tally{width: int64(width), buckets: map[int64]*bucketTally{}}
}

// bucketOf is the bucket holding Unix time ns.
func (t *tally) bucketOf(ns int64) int64 { return floorDiv(ns, t.width) }

// add counts one row, a statement cut at the end excepted: it is no
// execution.
func (t *tally) add(r *results.Execution) {
	if r.CutAtEnd {
		return
	}
	k := t.bucketOf(r.Start.UnixNano())
	b := t.buckets[k]
	if b == nil {
		b = &bucketTally{}
		if n := len(t.free); n > 0 {
			b.lat, t.free = t.free[n-1], t.free[:n-1]
		} else {
			b.lat = newHist()
		}
		t.buckets[k] = b
	}
	if r.StatementSeq == 0 {
		b.events++
	}
	b.execs++
	b.retries += int64(r.Retries)
	if metrics.IsConflict(r.CommitErrorCode) {
		b.conflicts++
	}
	if r.ErrorCode != 0 {
		b.errs++
	} else {
		recordLatency(b.lat, r.LatencyNs)
	}
}

// take removes bucket k and every earlier one (too late for a line) and
// returns k's figures, p95 in ns.
func (t *tally) take(k int64) (b bucketTally, p95 int64) {
	for key, x := range t.buckets {
		if key > k {
			continue
		}
		if key == k {
			b, p95 = *x, x.lat.ValueAtQuantile(95)
		}
		x.lat.Reset()
		t.free = append(t.free, x.lat)
		delete(t.buckets, key)
	}
	b.lat = nil
	return b, p95
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// noneHeld is a worker's held time when it holds no row and runs no
// statement.
const noneHeld = math.MaxInt64

// progress is the goroutines of the live report (report) and of status
// sampling (sampling.go).
type progress struct {
	stop chan struct{}
	wg   sync.WaitGroup
}

// startProgress starts the live report of the measured phase and the
// sampling of every server's status; sampling stops with ctx.
func (e *engine) startProgress(ctx context.Context, measured *phase) *progress {
	p := &progress{stop: make(chan struct{})}
	if e.cfg.ReportInterval <= 0 {
		return p
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		e.report(measured, p.stop)
	}()
	for _, src := range e.statusSources() {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			e.sample(ctx, src, p.stop)
		}()
	}
	return p
}

// finish has every server's status sampled a last time, and waits for it.
func (p *progress) finish() {
	close(p.stop)
	p.wg.Wait()
}

// report prints a line per bucket of the measured phase.
func (e *engine) report(measured *phase, stop <-chan struct{}) {
	out := &lockedWriter{w: e.cfg.Progress}
	first := e.tally.bucketOf(measured.start.UnixNano())
	k := max(first, e.tally.bucketOf(time.Now().UnixNano()))
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		end := time.Unix(0, (k+1)*e.tally.width)
		timer.Reset(time.Until(end))
		select {
		case <-stop:
			return
		case <-timer.C:
		}
		if !e.awaitRows(end, stop) {
			return
		}
		e.mu.Lock()
		b, p95 := e.tally.take(k)
		e.mu.Unlock()
		out.Printf("%s", e.progressLine(b, p95, end.Sub(time.Unix(0, first*e.tally.width)), e.cfg.ReportInterval))
		k = max(k+1, e.tally.bucketOf(time.Now().UnixNano())-1)
	}
}

// progressLine is the line of one bucket, ending since from the start of
// the measured phase's first bucket. Retries and conflicts are shown once
// the run has had some.
func (e *engine) progressLine(b bucketTally, p95 int64, since, iv time.Duration) string {
	secs := iv.Seconds()
	line := fmt.Sprintf("[ %5.0fs ] thds: %d eps: %.1f qps: %.1f err/s: %.2f", since.Seconds(), e.cfg.Threads,
		float64(b.events)/secs, float64(b.execs)/secs, float64(b.errs)/secs)
	if b.retries > 0 || b.conflicts > 0 {
		e.churned.Store(true)
	}
	if e.churned.Load() {
		line += fmt.Sprintf(" retry/s: %.2f conflict/s: %.2f", float64(b.retries)/secs, float64(b.conflicts)/secs)
	}
	line += fmt.Sprintf(" p95: %.3fms", float64(p95)/1e6)
	if n := e.reconnects.Load(); n > 0 {
		line += fmt.Sprintf(" reconn: %d", n)
	}
	if st := e.stallNs.Load(); st > 0 {
		line += fmt.Sprintf(" writer-stall: %.0fms", float64(st)/1e6)
	}
	return line
}

// awaitRows waits until the writer has every row of the statements
// started before end (each worker holds none, and the writer has taken
// every batch it sent), lateLine after end at most; false when the run
// stops first.
func (e *engine) awaitRows(end time.Time, stop <-chan struct{}) bool {
	limit := time.NewTimer(time.Until(end.Add(lateLine)))
	defer limit.Stop()
	for !e.rowsIn(end.UnixNano()) {
		select {
		case <-stop:
			return false
		case <-limit.C:
			return true
		case <-time.After(writerPoll):
		}
	}
	return true
}

// rowsIn reports whether the writer has taken every row of statements
// started before Unix time end. A worker publishes when its oldest row
// not yet handed over (or its statement running) started, then the
// batches it sent; the writer, the last batch of each worker it took.
func (e *engine) rowsIn(end int64) bool {
	for i := range e.counts {
		c := &e.counts[i]
		if c.held.Load() < end {
			return false
		}
		if e.taken[i].Load() < c.sent.Load() {
			return false
		}
	}
	return true
}

// The bucket a worker's held row ends in, so that it hands its rows over
// once the bucket of the oldest has ended (heldUntil).
func (e *engine) bucketEnd(ns int64) int64 {
	if e.tally == nil {
		return noneHeld
	}
	return (e.tally.bucketOf(ns) + 1) * e.tally.width
}
