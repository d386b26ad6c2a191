package report

import (
	"hash/fnv"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/joinbench/joinbench/replay/metrics"
	"github.com/joinbench/joinbench/replay/results"
)

const (
	// sampleSize bounds the latencies kept per scenario for resampling.
	sampleSize = 10000
	// maxBuckets bounds the points of a time series: past it, buckets
	// double in width (1 s, 2 s, 4 s, ...).
	maxBuckets = 600
	// maxChecksumKeys bounds the distinct parameter sets whose result
	// checksums are kept per scenario.
	maxChecksumKeys = 100000
)

// timeSeries is a time series of buckets of type B, aligned on the epoch so
// that merging two adjacent buckets is a shift of the key, and bounded to
// maxBuckets buckets: past it, buckets double in width (1 s, 2 s, 4 s, ...)
// and neighbours are merged. Timelines and server counters both use it.
type timeSeries[B any] struct {
	width   int64 // nanoseconds, 1 s << k
	buckets map[int64]*B
	newFn   func() *B
	mergeFn func(into, from *B)
}

func newSeries[B any](newFn func() *B, mergeFn func(into, from *B)) timeSeries[B] {
	return timeSeries[B]{width: int64(time.Second), buckets: map[int64]*B{}, newFn: newFn, mergeFn: mergeFn}
}

// at returns the bucket holding t, made when needed.
func (s *timeSeries[B]) at(t time.Time) *B {
	k := floorDiv(t.UnixNano(), s.width)
	if b := s.buckets[k]; b != nil {
		return b
	}
	for len(s.buckets) >= maxBuckets {
		s.coarsen()
		k = floorDiv(t.UnixNano(), s.width)
		if b := s.buckets[k]; b != nil {
			return b
		}
	}
	b := s.newFn()
	s.buckets[k] = b
	return b
}

func (s *timeSeries[B]) coarsen() {
	s.width *= 2
	nb := make(map[int64]*B, len(s.buckets)/2+1)
	for k, b := range s.buckets {
		nk := floorDiv(k, 2)
		if o := nb[nk]; o != nil {
			s.mergeFn(o, b)
		} else {
			nb[nk] = b
		}
	}
	s.buckets = nb
}

// keys returns the keys of the buckets in time order.
func (s *timeSeries[B]) keys() []int64 { return slices.Sorted(maps.Keys(s.buckets)) }

// start is the start time of the bucket with key k.
func (s *timeSeries[B]) start(k int64) time.Time { return time.Unix(0, k*s.width).UTC() }

// seconds is the width of a bucket.
func (s *timeSeries[B]) seconds() float64 { return float64(s.width) / float64(time.Second) }

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// tlBucket is one time bucket of a timeline.
type tlBucket struct {
	execs, errors int64
	lat           logHist
}

// timeline is executions per time bucket.
type timeline struct{ timeSeries[tlBucket] }

func newTimeline() *timeline {
	return &timeline{newSeries(
		func() *tlBucket { return &tlBucket{lat: logHist{}} },
		func(into, from *tlBucket) {
			into.execs += from.execs
			into.errors += from.errors
			into.lat.merge(from.lat)
		})}
}

func (t *timeline) add(start time.Time, latency int64, failed bool) {
	b := t.at(start)
	b.execs++
	if failed {
		b.errors++
	} else {
		b.lat.add(latency)
	}
}

// points returns the timeline in time order, empty buckets between the
// first and last included as zeros.
func (t *timeline) points() []TimePoint {
	if len(t.buckets) == 0 {
		return nil
	}
	keys := t.keys()
	secs := t.seconds()
	var out []TimePoint
	for k := keys[0]; k <= keys[len(keys)-1]; k++ {
		p := TimePoint{Time: t.start(k), Seconds: secs}
		if b := t.buckets[k]; b != nil {
			p.Executions = b.execs
			p.Errors = b.errors
			p.QPS = float64(b.execs) / secs
			p.P95Ms = ms(b.lat.quantile(0.95))
		}
		out = append(out, p)
	}
	return out
}

// checksums remembers, per parameter set, the result checksum seen; a set
// whose checksum varies within the run is marked unstable and not compared.
type checksums struct {
	sums    map[uint64]resultSum // param key → result; hash 0 = unstable
	dropped int64                // rows whose key did not fit
}

// resultSum is a result checksum and the rows it covers.
type resultSum struct {
	hash uint64
	rows int64
}

func hashStrings(ss ...string) uint64 {
	h := fnv.New64a()
	for _, s := range ss {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	v := h.Sum64()
	if v == 0 {
		v = 1
	}
	return v
}

func (c *checksums) add(params []string, sum string, rows int64) (key, val uint64) {
	key = hashStrings(params...)
	val = hashStrings(sum)
	old, ok := c.sums[key]
	switch {
	case !ok && len(c.sums) >= maxChecksumKeys:
		c.dropped++
	case !ok:
		c.sums[key] = resultSum{hash: val, rows: rows}
	case old.hash != val:
		c.sums[key] = resultSum{}
	}
	return key, val
}

// execution is the part of an executions row that report and compare
// read; the other columns are not decoded (retries neither: no report
// shows them).
type execution struct {
	Scenario      string    `parquet:"scenario,dict"`
	TemplateHash  string    `parquet:"template_hash,dict"`
	Start         time.Time `parquet:"start_time,timestamp(nanosecond)"`
	IntendedStart time.Time `parquet:"intended_start,optional,timestamp(nanosecond)"` // zero when unpaced
	LatencyNs     int64     `parquet:"latency_ns"`
	Rows          int64     `parquet:"rows"`
	ErrorCode     int32     `parquet:"error_code"`
	PlanHash      string    `parquet:"plan_hash,dict,optional"`
	Params        []string  `parquet:"params,list"`
	Checksum      string    `parquet:"result_checksum,optional"`
}

// scenarioAcc accumulates one scenario's executions: the figures in m
// (the reducer the live summary uses too), and what only a report or a
// comparison needs beside them.
type scenarioAcc struct {
	name      string
	m         metrics.Metrics
	sample    *reservoir
	tl        *timeline
	plans     map[string]int64
	templates map[string]bool
	checks    *checksums
}

func newScenarioAcc(name string, seed uint64) *scenarioAcc {
	return &scenarioAcc{
		name:      name,
		sample:    newReservoir(sampleSize, seed^hashStrings(name)),
		tl:        newTimeline(),
		plans:     map[string]int64{},
		templates: map[string]bool{},
		checks:    &checksums{sums: map[uint64]resultSum{}},
	}
}

func (a *scenarioAcc) add(e *execution) {
	// Field by field: a composite literal holding times is built in a
	// temporary and copied, which costs a store-forwarding stall per row.
	var me metrics.Execution
	me.Start, me.IntendedStart = e.Start, e.IntendedStart
	me.LatencyNs, me.Rows, me.ErrorCode = e.LatencyNs, e.Rows, e.ErrorCode
	a.m.Add(&me)
	failed := e.ErrorCode != 0
	if !failed {
		// The bootstrap resamples what the histogram holds.
		a.sample.add(metrics.Clamp(e.LatencyNs))
		if e.PlanHash != "" {
			a.plans[e.PlanHash]++
		}
	}
	if e.TemplateHash != "" {
		a.templates[e.TemplateHash] = true
	}
	a.tl.add(e.Start, e.LatencyNs, failed) // paced runs: latency already measured from the intended start
}

// summary computes the scenario's figures.
func (a *scenarioAcc) summary() Summary {
	a.m.Close()
	return summaryOf(&a.m)
}

// summaryOf turns closed metrics into a Summary: the same figures, from
// the same reducer, as the live summary of `joinbench run`.
func summaryOf(m *metrics.Metrics) Summary {
	l, ms := m.Latencies, metrics.Milliseconds
	s := Summary{Executions: m.Executions, Errors: m.Errors,
		MeanMs: ms(l.Mean), P50Ms: ms(l.P50), P95Ms: ms(l.P95), P99Ms: ms(l.P99), MaxMs: ms(l.Max),
		QPS: m.Throughput}
	if m.Executions > 0 {
		s.ErrorRate = float64(m.Errors) / float64(m.Executions)
	}
	return s
}

func ms(ns int64) float64 { return metrics.Milliseconds(time.Duration(ns)) }

// runAcc accumulates all scenarios of one side (one or several runs).
type runAcc struct {
	seed      uint64
	scenarios map[string]*scenarioAcc
	overall   *timeline
	files     int
	// onRow, when set, sees every row after it is accumulated (compare
	// uses it to spot checksum mismatches with the parameters at hand).
	onRow  func(a *scenarioAcc, e *execution)
	checks bool
}

func newRunAcc(seed uint64, checks bool) *runAcc {
	return &runAcc{seed: seed, scenarios: map[string]*scenarioAcc{}, overall: newTimeline(), checks: checks}
}

func (r *runAcc) add(e *execution) {
	a := r.scenarios[e.Scenario]
	if a == nil {
		a = newScenarioAcc(strings.Clone(e.Scenario), r.seed)
		r.scenarios[a.name] = a
	}
	a.add(e)
	r.overall.add(e.Start, e.LatencyNs, e.ErrorCode != 0)
	if r.checks && e.ErrorCode == 0 && e.Checksum != "" {
		a.checks.add(e.Params, e.Checksum, e.Rows)
	}
	if r.onRow != nil {
		r.onRow(a, e)
	}
}

// executions counts the executions read so far, of every scenario.
func (r *runAcc) executions() int64 {
	var n int64
	for _, a := range r.scenarios {
		n += a.m.Executions
	}
	return n
}

// names returns the scenario names sorted.
func (r *runAcc) names() []string {
	return slices.Sorted(maps.Keys(r.scenarios))
}

// total is the metrics of all scenarios merged, closed: its window is
// the run's (or side's) first intended start to last end.
func (r *runAcc) total() metrics.Metrics {
	var t metrics.Metrics
	for _, a := range r.scenarios {
		t.Merge(&a.m)
	}
	t.Close()
	return t
}

// readRun adds every executions file of dir to acc.
func (r *runAcc) readRun(dir string, warn results.Warner) error {
	n, err := results.ScanExecutionsAs(dir, warn, func(e *execution) error {
		r.add(e)
		return nil
	})
	r.files += n
	return err
}
