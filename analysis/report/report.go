package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/joinbench/joinbench/analysis/internal/warn"
	"github.com/joinbench/joinbench/analysis/metrics"
	"github.com/joinbench/joinbench/analysis/stall"
	"github.com/joinbench/joinbench/internal/parallel"
	"github.com/joinbench/joinbench/results"
)

// TimePoint is one bucket of a time series. Buckets are one second wide
// unless the run is long: then 2, 4, 8... seconds, at most 600 points.
type TimePoint struct {
	Time       time.Time `json:"time"` // start of the bucket
	Seconds    float64   `json:"seconds"`
	Executions int64     `json:"executions"`
	Errors     int64     `json:"errors"`
	QPS        float64   `json:"queries_per_second"`
	// Retries counts the deadlock and lock-wait retries of the
	// statements that started in the bucket.
	Retries int64 `json:"retries,omitempty"`
	// P50Ms, P95Ms and P99Ms are of the successful executions, at about
	// 4% resolution.
	P50Ms float64 `json:"p50_ms"`
	P95Ms float64 `json:"p95_ms"`
	P99Ms float64 `json:"p99_ms"`
	// MaxMs is the longest successful latency (per-endpoint timelines
	// only).
	MaxMs float64 `json:"max_ms,omitempty"`
}

// Percentile is one point of a latency percentile spectrum.
type Percentile struct {
	Percentile float64 `json:"percentile"`
	Ms         float64 `json:"ms"`
}

// Bin is one bar of a latency histogram, with the cumulative fraction.
type Bin struct {
	FromMs     float64 `json:"from_ms"`
	ToMs       float64 `json:"to_ms"`
	Count      int64   `json:"count"`
	Cumulative float64 `json:"cumulative"`
}

// PlanInfo is one distinct plan of a scenario.
type PlanInfo struct {
	Hash       string   `json:"plan_hash"`
	Executions int64    `json:"executions"` // successful executions that used it
	Formats    []string `json:"formats,omitempty"`
	Tree       string   `json:"tree,omitempty"` // readable plan
}

// ScenarioReport is one scenario of a run.
type ScenarioReport struct {
	Scenario string `json:"scenario"`
	// Summary is reduced by analysis/metrics as the live summary of
	// `joinbench run` is, so the two agree.
	metrics.Summary
	ErrorCodes map[string]int64 `json:"error_codes,omitempty"`
	// ErrorSamples are, per error code, the first failure's SQLSTATE and
	// message, most frequent code first.
	ErrorSamples []ErrorSample `json:"error_samples,omitempty"`
	Percentiles  []Percentile  `json:"percentiles"`
	Histogram    []Bin         `json:"histogram"`
	Timeline     []TimePoint   `json:"timeline"`
	Plans        []PlanInfo    `json:"plans"`
	// SQL is the scenario's statement text as run.json records it
	// (placeholders, not values); when it does not, ExplainedSQL is a
	// statement EXPLAIN ran, with one execution's values.
	SQL          string `json:"sql,omitempty"`
	ExplainedSQL string `json:"explained_sql,omitempty"`
	// Slowest are the scenario's slowest executions, failed ones
	// included, slowest first, with their parameters.
	Slowest []SlowExecution `json:"slowest,omitempty"`
	// NotReached says why a scenario the run lists has no row at all: the
	// scenarios ahead of it in every event were cut at the end (cut.go).
	NotReached string `json:"not_reached,omitempty"`
}

// CounterPoint is the rate of a server counter over one interval.
type CounterPoint struct {
	Time    time.Time `json:"time"`
	PerSec  float64   `json:"per_second"`
	Seconds float64   `json:"seconds"`
}

// CounterSeries is one server counter of one endpoint over time.
type CounterSeries struct {
	Endpoint string `json:"endpoint"`
	Variable string `json:"variable"`
	// Gauge: a level (Galera's queues), whose points are its value at the
	// end of each interval (the largest in a bucket), not a rate.
	Gauge  bool           `json:"gauge,omitempty"`
	Total  int64          `json:"total"`
	Points []CounterPoint `json:"points"`
}

// RunReport is the report of one run folder.
type RunReport struct {
	Dir       string           `json:"dir"`
	RunID     string           `json:"run_id"`
	Info      *results.Run     `json:"run,omitempty"`
	Files     int              `json:"executions_files"`
	Start     time.Time        `json:"start"` // first intended start (start when unpaced)
	End       time.Time        `json:"end"`   // last end
	Total     metrics.Summary  `json:"total"`
	Scenarios []ScenarioReport `json:"scenarios"`
	Timeline  []TimePoint      `json:"timeline"`
	Counters  []CounterSeries  `json:"counters,omitempty"`
	// BufferPoolHitRatio is, per endpoint and interval, the share of
	// buffer pool read requests served from memory.
	BufferPoolHitRatio []RatioSeries `json:"buffer_pool_hit_ratio,omitempty"`
	// Endpoints are the executions per endpoint over time, for runs on
	// several endpoints or with actions.
	Endpoints []EndpointTimeline `json:"endpoints,omitempty"`
	// ActionRows are the run's actions (actions.parquet), Actions what
	// each cost every endpoint, as the run's summary printed it.
	ActionRows []results.Action `json:"action_rows,omitempty"`
	Actions    []stall.Cost     `json:"actions,omitempty"`
	// Recovery is the timeline of each crash action (recovery.parquet).
	Recovery []stall.Recovery `json:"recovery,omitempty"`
	// Baseline is, per endpoint, the longest stretch without a successful
	// write before the first action: the workload's own gaps.
	Baseline []stall.EndpointCost `json:"baseline,omitempty"`
	// Nodes are the figures of the statements each server served (the
	// node each connection reached, behind a proxy too), when the run's
	// rows name two or more.
	Nodes []NodeReport `json:"nodes,omitempty"`
	// Clients and Common break a run split over several clients
	// (--segment) down per client; the figures above are of all of them.
	Clients  []ClientReport `json:"clients,omitempty"`
	Common   *CommonWindow  `json:"common_window,omitempty"`
	Warnings []string       `json:"warnings,omitempty"`
}

// Report is the report of one or more runs.
type Report struct {
	Runs []RunReport `json:"runs"`
}

// Options tune reading.
type Options struct {
	// Warn receives problems that do not stop the report (a skipped file).
	// They are also listed in the report.
	Warn func(error)
	// SkipDetails leaves out what only the HTML and JSON views show and
	// costs a second read of some pages after the scan: the slowest
	// executions' parameters and the error samples' messages
	// (details.go). Slowest is then empty.
	SkipDetails bool
}

// Build reads each run folder and reports on it.
func Build(dirs []string, opt Options) (*Report, error) {
	rep := &Report{}
	for _, d := range dirs {
		rr, err := buildRun(d, opt)
		if err != nil {
			return nil, err
		}
		rep.Runs = append(rep.Runs, *rr)
	}
	return rep, nil
}

// warner collects warnings and passes them on (package warn).
type warner = warn.Collector

func buildRun(dir string, opt Options) (*RunReport, error) {
	rr := &RunReport{Dir: dir, RunID: results.RunIDFromDir(dir)}
	w := warner{List: &rr.Warnings, Fn: opt.Warn}
	rr.Info = results.ReadRunInfo(dir, w.Warn)
	if rr.Info != nil && rr.Info.RunID != "" {
		rr.RunID = rr.Info.RunID
	}
	acc := newRunAcc(false)
	if err := acc.readRun(dir, w.Warn); err != nil {
		return nil, err
	}
	rr.Files = acc.files
	if acc.files == 0 {
		w.Warn(fmt.Errorf("%s: no readable executions file", dir))
	}
	plans, err := results.ReadPlans(dir, w.Warn)
	if err != nil {
		return nil, err
	}
	catalog := newPlanCatalog(rr.Info, plans)
	// The scenarios' figures, and the total merged from them, are computed
	// on every core: they are all that is left after the scan, and would
	// otherwise run on one (bench/README.md, report_vs_duckdb.sh). Every
	// scenario's pending latencies are recorded first, so that reading its
	// figures writes nothing (analysis/metrics/pending.go): the total reads
	// them all while each scenario's report reads its own.
	names := acc.names()
	parallel.Each(len(names), func(i int) { acc.scenarios[names[i]].m.Flush() })
	scens := make([]*scenarioAcc, len(names))
	for i, n := range names {
		scens[i] = acc.scenarios[n]
	}
	var details details
	if !opt.SkipDetails {
		details = readDetails(scens, w.Warn)
	}
	var sql map[string]string
	if rr.Info != nil {
		sql = rr.Info.ScenarioSQL
	}
	rr.Scenarios = make([]ScenarioReport, len(names))
	var total metrics.Metrics
	totalDone := make(chan struct{})
	go func() { defer close(totalDone); total = acc.total() }()
	parallel.Each(len(names), func(i int) {
		rr.Scenarios[i] = scenarioReport(scens[i], catalog, details, sql[names[i]])
		if opt.SkipDetails {
			rr.Scenarios[i].Slowest = nil
		}
	})
	<-totalDone
	rr.Start, rr.End = total.First, total.Last
	rr.Total = metrics.SummaryOf(&total)
	rr.addCut(acc.cut)
	rr.addNotReached(acc.cut, acc.scenarios)
	rr.Timeline = acc.overall().points()
	counters, err := readCounters(dir, w.Warn)
	if err != nil {
		return nil, err
	}
	rr.Counters = counters
	rr.BufferPoolHitRatio = hitRatio(counters)
	if rr.ActionRows, err = results.ReadActions(dir, w.Warn); err != nil {
		return nil, err
	}
	recovery, err := results.ReadRecovery(dir, w.Warn)
	if err != nil {
		return nil, err
	}
	if err := recoveryMissing(dir, rr.ActionRows); err != nil {
		w.Warn(err)
	}
	rr.Recovery = stall.Recoveries(recovery)
	figs, err := readEndpoints(dir, rr.Info, rr.ActionRows, w.Warn)
	if err != nil {
		return nil, err
	}
	rr.Endpoints, rr.Actions, rr.Baseline, rr.Nodes = figs.timelines, figs.costs, figs.baseline, figs.nodes
	if len(rr.Actions) > 0 {
		disk, err := readDisk(dir, w.Warn)
		if err != nil {
			return nil, err
		}
		stall.AddDiskCost(rr.Actions, disk)
	}
	if rr.Info != nil && rr.Info.Segments > 1 {
		if rr.Clients, rr.Common, err = clientBreakdown(dir, w.Warn); err != nil {
			return nil, err
		}
	}
	return rr, nil
}

// spectrum is the percentiles of the percentile chart.
var spectrum = []float64{0, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 100}

// scenarioReport is a scenario's report: its figures, and the rows read
// back (details) and the statement text (sql, "" when run.json has none)
// it shows.
func scenarioReport(a *scenarioAcc, catalog *planCatalog, d details, sql string) ScenarioReport {
	sr := ScenarioReport{Scenario: a.name, Summary: a.summary(), Timeline: a.tl.points(), SQL: sql,
		ErrorSamples: errorSamples(a.m.ErrorCodes, a.firstErr, d.errors), Slowest: slowExecutions(a, d)}
	if sql == "" {
		sr.ExplainedSQL = catalog.queries[a.name]
	}
	if len(a.m.ErrorCodes) > 0 {
		sr.ErrorCodes = map[string]int64{}
		for c, n := range a.m.ErrorCodes {
			sr.ErrorCodes[strconv.Itoa(int(c))] = n
		}
	}
	if a.m.Successes() > 0 {
		for _, p := range spectrum {
			sr.Percentiles = append(sr.Percentiles, Percentile{Percentile: p, Ms: metrics.Milliseconds(a.m.Percentile(p))})
		}
		sr.Histogram = histogramBins(&a.m)
	}
	sr.Plans = catalog.plansOf(a)
	return sr
}

// histogramBins groups the latency histogram of closed metrics into about
// 40 log-spaced bins between the minimum and the maximum.
func histogramBins(m *metrics.Metrics) []Bin {
	lo, hi := float64(max(m.Latencies.Min, 1)), float64(max(m.Latencies.Max, 1))
	const n = 40
	if hi <= lo {
		return []Bin{{FromMs: lo / 1e6, ToMs: hi / 1e6, Count: m.Successes(), Cumulative: 1}}
	}
	step := math.Log(hi/lo) / n
	bins := make([]Bin, n)
	for i := range bins {
		bins[i].FromMs = lo * math.Exp(step*float64(i)) / 1e6
		bins[i].ToMs = lo * math.Exp(step*float64(i+1)) / 1e6
	}
	m.EachBucket(func(b metrics.Bucket) {
		v := float64(max((b.From+b.To)/2, 1))
		i := int(math.Log(v/lo) / step)
		bins[min(max(i, 0), n-1)].Count += b.Count
	})
	total := float64(m.Successes())
	cum := int64(0)
	for i := range bins {
		cum += bins[i].Count
		bins[i].Cumulative = float64(cum) / total
	}
	return bins
}

// counterBucket is one time bucket of a server counter: the sum of its
// deltas and of the sampling intervals they cover.
type counterBucket struct{ delta, seconds float64 }

// counterSeries accumulates one counter.
type counterSeries struct {
	total int64
	gauge bool
	timeSeries[counterBucket]
}

func readCounters(dir string, warn results.Warner) ([]CounterSeries, error) {
	type key struct{ ep, v string }
	all := map[key]*counterSeries{}
	err := results.ScanStatus(dir, warn, func(s *results.Status) error {
		k := key{s.Endpoint, s.Variable}
		cs := all[k]
		if cs == nil {
			gauge := s.Gauge
			cs = &counterSeries{timeSeries: newSeries(
				func() *counterBucket { return &counterBucket{} },
				func(into, from *counterBucket) {
					if gauge { // the largest level, not a sum
						into.delta = max(into.delta, from.delta)
					} else {
						into.delta += from.delta
					}
					into.seconds += from.seconds
				})}
			all[key{strings.Clone(s.Endpoint), strings.Clone(s.Variable)}] = cs
		}
		b := cs.at(s.Time)
		if s.Gauge {
			cs.gauge = true
			b.delta = max(b.delta, float64(s.Delta))
			b.seconds += s.Interval
			cs.total = max(cs.total, s.Delta)
			return nil
		}
		cs.total += s.Delta
		b.delta += float64(s.Delta)
		b.seconds += s.Interval
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []CounterSeries
	for k, cs := range all {
		s := CounterSeries{Endpoint: k.ep, Variable: k.v, Total: cs.total, Gauge: cs.gauge}
		for _, bk := range cs.keys() {
			b := cs.buckets[bk]
			p := CounterPoint{Time: cs.start(bk), Seconds: b.seconds}
			switch {
			case cs.gauge:
				p.PerSec = b.delta
			case b.seconds > 0:
				p.PerSec = b.delta / b.seconds
			}
			s.Points = append(s.Points, p)
		}
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b CounterSeries) int {
		return cmp.Or(cmp.Compare(a.Endpoint, b.Endpoint), cmp.Compare(a.Variable, b.Variable))
	})
	return out, nil
}
