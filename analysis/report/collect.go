package report

import (
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/analysis/metrics"
	"github.com/joinbench/joinbench/results"
)

const (
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
	// the bucket last returned by at, and its key
	last    *B
	lastKey int64
}

func newSeries[B any](newFn func() *B, mergeFn func(into, from *B)) timeSeries[B] {
	return timeSeries[B]{width: int64(time.Second), buckets: map[int64]*B{}, newFn: newFn, mergeFn: mergeFn}
}

// at returns the bucket holding t, made when needed.
func (s *timeSeries[B]) at(t time.Time) *B { return s.atNs(t.UnixNano()) }

// atNs is at with t in Unix nanoseconds.
func (s *timeSeries[B]) atNs(t int64) *B {
	k := floorDiv(t, s.width)
	if s.last != nil && k == s.lastKey {
		return s.last // rows come in time order: mostly the bucket of the row before
	}
	b := s.buckets[k]
	for b == nil && len(s.buckets) >= maxBuckets {
		s.coarsen()
		k = floorDiv(t, s.width)
		b = s.buckets[k]
	}
	if b == nil {
		b = s.newFn()
		s.buckets[k] = b
	}
	s.last, s.lastKey = b, k
	return b
}

func (s *timeSeries[B]) coarsen() {
	s.width *= 2
	s.last = nil
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
	execs, errors, retries int64
	lat                    logHist
}

// timeline is executions per time bucket.
type timeline struct{ timeSeries[tlBucket] }

func newTimeline() *timeline {
	return &timeline{newSeries(
		func() *tlBucket { return &tlBucket{lat: logHist{}} },
		func(into, from *tlBucket) {
			into.execs += from.execs
			into.errors += from.errors
			into.retries += from.retries
			into.lat.merge(&from.lat)
		})}
}

func (t *timeline) add(start time.Time, latency int64, failed bool, retries int32) {
	t.addIndex(start.UnixNano(), logHistIndex(latency), failed, retries)
}

// addIndex is add with the start in Unix nanoseconds and the latency as
// its logHist index (computed once for the timelines of the scenario and
// of the run).
func (t *timeline) addIndex(start int64, latency int16, failed bool, retries int32) {
	b := t.atNs(start)
	b.execs++
	b.retries += int64(retries)
	if failed {
		b.errors++
	} else {
		b.lat.addIndex(latency)
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
			p.Retries = b.retries
			p.QPS = float64(b.execs) / secs
			q := b.lat.quantiles(0.5, 0.95, 0.99)
			p.P50Ms, p.P95Ms, p.P99Ms = ms(q[0]), ms(q[1]), ms(q[2])
		}
		out = append(out, p)
	}
	return out
}

// checksums remembers, per parameter set, the result checksum seen; a set
// whose checksum varies within the run is marked unstable and not compared.
type checksums struct {
	sums    map[uint64]compare.ResultSum // param key → result; hash 0 = unstable
	dropped int64                        // rows whose key did not fit
}

func (c *checksums) add(params []string, sum string, rows int64) (key, val uint64) {
	key = compare.HashStrings(params...)
	val = compare.HashStrings(sum)
	old, ok := c.sums[key]
	switch {
	case !ok && len(c.sums) >= maxChecksumKeys:
		c.dropped++
	case !ok:
		c.sums[key] = compare.ResultSum{Hash: val, Rows: rows}
	case old.Hash != val:
		c.sums[key] = compare.ResultSum{}
	}
	return key, val
}

// scenarioAcc accumulates one scenario's executions: the figures in m
// (the reducer the live summary uses too), and what only a report or a
// comparison needs beside them.
type scenarioAcc struct {
	name      string
	m         metrics.Metrics
	tl        *timeline
	plans     map[string]int64
	templates map[string]bool
	checks    *checksums
	// slow and firstErr point at the rows a report shows whole: its
	// slowest executions and the first failure of each error code.
	slow     slowest
	firstErr firstErrors
}

func newScenarioAcc(name string) *scenarioAcc {
	return &scenarioAcc{
		name:      name,
		tl:        newTimeline(),
		plans:     map[string]int64{},
		templates: map[string]bool{},
		checks:    &checksums{sums: map[uint64]compare.ResultSum{}},
		slow:      newSlowest(),
		firstErr:  firstErrors{},
	}
}

// summary computes the scenario's figures.
func (a *scenarioAcc) summary() metrics.Summary {
	a.m.Close()
	return metrics.SummaryOf(&a.m)
}

func ms(ns int64) float64 { return metrics.Milliseconds(time.Duration(ns)) }

// runAcc accumulates all scenarios of one side (one or several runs).
type runAcc struct {
	scenarios map[string]*scenarioAcc
	cut       cutTallies // statements cut at the end (cut.go), in no scenarioAcc
	files     int
	// onChecksum, when set, sees every successful row with a result
	// checksum after it is accumulated (compare uses it to spot checksum
	// mismatches with the parameters at hand). params are only valid
	// during the call: copy them to keep them (cloneParams).
	onChecksum func(a *scenarioAcc, params []string, checksum string)
	// checks keeps result checksums: a comparison needs them, a report
	// does not. timelines keeps the run's and each scenario's timeline,
	// and where its slowest executions and first errors are: a report
	// shows them, a comparison does not.
	checks, timelines bool

	// per row group, reused
	from, next []int32 // where each scenario's rows start in byScen
	byScen     []int32 // row numbers, by scenario
	planN      []int64 // successes by scenario and plan index
	templSeen  []bool  // by scenario and template index
	slots      []*scenarioAcc
}

func newRunAcc(checks bool) *runAcc {
	return &runAcc{scenarios: map[string]*scenarioAcc{}, checks: checks, timelines: !checks}
}

// maxPairs bounds the scenario × plan (or template) counters of a row
// group; past it, rows go to the maps one by one.
const maxPairs = 1 << 16

// addColumns accumulates what does not depend on the order of rows of one
// row group: figures, timelines, plans, templates (checksums
// do: see addInOrder). It runs on a partial accumulator per worker
// (collect_parallel.go). Rows are taken scenario by scenario, so that the
// histogram written to stays in cache. What is the same for many rows is
// done once per group: the scenario of a dictionary index is looked up
// once, plans and templates are counted by index and added to the maps at
// the end.
func (r *runAcc) addColumns(c *results.ExecutionColumns) error {
	r.cut.add(c.Cut)
	nScen, nPlans, nTempl := len(c.Scenario.Values), len(c.PlanHash.Values), len(c.TemplateHash.Values)
	pairs := nScen*nPlans <= maxPairs && nScen*nTempl <= maxPairs
	if pairs {
		r.planN = resize(r.planN, nScen*nPlans)
		r.templSeen = resize(r.templSeen, nScen*nTempl)
	}
	// rows of scenario si: r.byScen[r.from[si]:r.from[si+1]]
	r.from = resize(r.from, nScen+1)
	for _, si := range c.Scenario.Index {
		r.from[si+1]++
	}
	for si := range nScen {
		r.from[si+1] += r.from[si]
	}
	r.byScen = resize(r.byScen, c.Len)
	next := append(r.next[:0], r.from[:nScen]...)
	r.next = next
	for i, si := range c.Scenario.Index {
		r.byScen[next[si]] = int32(i)
		next[si]++
	}
	for si := range nScen {
		rows := r.byScen[r.from[si]:r.from[si+1]]
		if len(rows) == 0 {
			continue // a dictionary value no row uses makes no scenario
		}
		a := r.scenario(c.Scenario.Values[si])
		for _, i := range rows {
			start, lat, code := c.StartNs[i], c.LatencyNs[i], c.ErrorCode[i]
			a.m.AddUnixNano(start, c.IntendedStartNs[i], lat, c.Rows[i], code, c.Retries[i], c.CommitErrorCode[i])
			if c.Warnings[i] > 0 {
				a.m.Warned++
			}
			failed := code != 0
			if !failed {
				if pi := c.PlanHash.Index[i]; pi >= 0 {
					if pairs {
						r.planN[si*nPlans+int(pi)]++
					} else {
						a.plans[c.PlanHash.Values[pi]]++
					}
				}
			}
			if ti := c.TemplateHash.Index[i]; ti >= 0 && c.TemplateHash.Values[ti] != "" {
				if pairs {
					r.templSeen[si*nTempl+int(ti)] = true
				} else {
					a.templates[c.TemplateHash.Values[ti]] = true
				}
			}
			if r.timelines {
				li := logHistIndex(lat)
				retries := c.Retries[i]
				a.tl.addIndex(start, li, failed, retries) // paced runs: latency already measured from the intended start
				if lat > a.slow.floor {
					// the strings of a group are its pages': keep a copy
					a.slow.offer(slowRow{latency: lat, start: start, code: code,
						plan: strings.Clone(c.PlanHash.At(int(i))), ref: c.Ref(int(i))})
				}
				if failed {
					a.firstErr.add(code, start, c.Ref(int(i)))
				}
			}
		}
		if pairs {
			for pi, n := range r.planN[si*nPlans : (si+1)*nPlans] {
				if n > 0 {
					a.plans[c.PlanHash.Values[pi]] += n
				}
			}
			for ti, seen := range r.templSeen[si*nTempl : (si+1)*nTempl] {
				if seen && c.TemplateHash.Values[ti] != "" {
					a.templates[c.TemplateHash.Values[ti]] = true
				}
			}
		}
	}
	return nil
}

// overall is the run's timeline: every scenario's merged. Merging the
// scenarios' at the end gives the buckets and the width that adding each
// row to a run timeline as well would (timeSeries.merge), for a tenth of
// the report's CPU less: one bucket update a row instead of two.
func (r *runAcc) overall() *timeline {
	t := newTimeline()
	for _, a := range r.scenarios {
		t.timeSeries.merge(a.tl.timeSeries.clone())
	}
	return t
}

// scenario returns the accumulator of the scenario named name, made when
// needed.
func (r *runAcc) scenario(name string) *scenarioAcc {
	a := r.scenarios[name]
	if a == nil {
		a = newScenarioAcc(strings.Clone(name))
		r.scenarios[a.name] = a
	}
	return a
}

// resize returns s with n zero elements, reusing its memory.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
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
	n, err := scanRun(r, dir, warn)
	r.files += n
	return err
}
