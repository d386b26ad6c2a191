package replay

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/joinbench/joinbench/analysis/metrics"
	"github.com/joinbench/joinbench/analysis/stall"
	"github.com/joinbench/joinbench/results"
)

// newHist and recordLatency serve the live progress line: the reducer's
// histogram bounds and clamping rule, so that its p95 reads like the
// summary's.
func newHist() *hdrhistogram.Histogram { return metrics.NewHistogram() }

func recordLatency(h *hdrhistogram.Histogram, ns int64) { metrics.Record(h, ns) }

// ScenarioSummary is the outcome of one scenario in a run: the latency
// summary `joinbench report` prints too (analysis/metrics, the same reducer
// and the same type, retries and conflicts included), and what only a
// live run knows.
type ScenarioSummary struct {
	Scenario string `json:"scenario"`
	metrics.Summary
	// Disabled says why the scenario was switched off during the run.
	Disabled string `json:"disabled,omitempty"`
}

// Summary is the outcome of a run.
type Summary struct {
	RunID string `json:"run_id"`
	// Elapsed is the window of the run's measured executions, warmup
	// excluded: from the first intended start to the last end, as
	// `joinbench report` computes it from the results files.
	Elapsed    float64 `json:"elapsed_seconds"`
	Threads    int     `json:"threads"`
	Events     int64   `json:"events"`
	Executions int64   `json:"executions"`
	Errors     int64   `json:"errors"`
	// Retries, Conflicts and FailedCommits are those of every scenario
	// (metrics.Summary says what each counts).
	Retries       int64 `json:"retries"`
	Conflicts     int64 `json:"conflicts"`
	FailedCommits int64 `json:"failed_commits"`
	// CutAtEnd counts the statements still running when the run ended,
	// recorded apart (see results.Execution.CutAtEnd).
	CutAtEnd     int64   `json:"cut_at_end,omitempty"`
	EventsPerSec float64 `json:"events_per_second"`  // per second of Elapsed
	QPS          float64 `json:"queries_per_second"` // executions per second of Elapsed
	Reconnects   int64   `json:"reconnects"`
	// Unanswered counts the calls that had no reply, even to KILL QUERY,
	// and whose connection was cut: a server that stopped answering.
	Unanswered     int64   `json:"unanswered,omitempty"`
	WriterStallsMs float64 `json:"writer_stall_ms"` // time workers waited for the result writer
	// ClientCPUSeconds is the CPU time (user and system) this client
	// process used over the measured phase, and ClientCPUPerQueryUs that
	// divided by its executions: what each query cost the client. Both
	// are 0 where the platform cannot tell.
	ClientCPUSeconds    float64           `json:"client_cpu_seconds"`
	ClientCPUPerQueryUs float64           `json:"client_cpu_us_per_query"`
	Interrupted         bool              `json:"interrupted"`
	Scenarios           []ScenarioSummary `json:"scenarios"`
	// Actions are the run's actions (--action) and what each cost every
	// endpoint: the longest stretch without a successful write.
	Actions []stall.Cost `json:"actions,omitempty"`
	// Recovery is the timeline of each crash action (recovery.parquet).
	Recovery []stall.Recovery `json:"recovery,omitempty"`
	// Down names the servers the run's actions left not running.
	Down []string `json:"down,omitempty"`
}

// Accumulator reduces the rows a run records, one at a time, to a summary
// per scenario and for the whole run. It is not safe for concurrent use.
type Accumulator struct {
	byName map[string]*metrics.Metrics
	cut    map[string]*cutTally
}

// cutTally is a scenario's statements cut at the end of the run: how many,
// and the longest time one had run.
type cutTally struct{ n, ranNs int64 }

// NewAccumulator returns an empty accumulator.
func NewAccumulator() *Accumulator { return &Accumulator{byName: map[string]*metrics.Metrics{}} }

// Add records one execution row, as it is written to the results. A
// statement cut at the end of the run is only counted: how long it ran is
// no latency.
func (a *Accumulator) Add(r *results.Execution) {
	if r.CutAtEnd {
		if a.cut == nil {
			a.cut = map[string]*cutTally{}
		}
		t := a.cut[r.Scenario]
		if t == nil {
			t = &cutTally{}
			a.cut[r.Scenario] = t
		}
		t.n++
		t.ranNs = max(t.ranNs, r.LatencyNs)
		return
	}
	m := a.byName[r.Scenario]
	if m == nil {
		m = &metrics.Metrics{}
		a.byName[r.Scenario] = m
	}
	// Field by field: a composite literal holding times is built in a
	// temporary and copied, which costs the writer a store-forwarding
	// stall per row.
	var e metrics.Execution
	e.Start = r.Start
	if r.IntendedStart != nil {
		e.IntendedStart = *r.IntendedStart
	}
	e.LatencyNs, e.Rows, e.ErrorCode, e.Retries, e.CommitErrorCode = r.LatencyNs, r.Rows, r.ErrorCode, r.Retries, r.CommitErrorCode
	e.Warnings = r.Warnings
	m.Add(&e)
}

// Close returns one summary per scenario seen, sorted by name, and the
// metrics of the whole run (every scenario merged), closed.
func (a *Accumulator) Close() ([]ScenarioSummary, metrics.Metrics) {
	var total metrics.Metrics
	out := make([]ScenarioSummary, 0, len(a.byName))
	for name, m := range a.byName {
		m.Close()
		out = append(out, summarize(name, m))
		total.Merge(m)
	}
	for name, t := range a.cut {
		i := slices.IndexFunc(out, func(s ScenarioSummary) bool { return s.Scenario == name })
		if i < 0 {
			out = append(out, ScenarioSummary{Scenario: name})
			i = len(out) - 1
		}
		out[i].SetCut(t.n, time.Duration(t.ranNs))
	}
	total.Close()
	sort.Slice(out, func(i, j int) bool { return out[i].Scenario < out[j].Scenario })
	return out, total
}

func summarize(name string, m *metrics.Metrics) ScenarioSummary {
	return ScenarioSummary{Scenario: name, Summary: metrics.SummaryOf(m)}
}

// setClientCPU records the client's CPU time over the measured phase.
func (s *Summary) setClientCPU(used time.Duration) {
	s.ClientCPUSeconds = used.Seconds()
	if s.Executions > 0 {
		s.ClientCPUPerQueryUs = float64(used.Microseconds()) / float64(s.Executions)
	}
}

// otherCommits says how many COMMITs failed other than by a conflict, when
// any did.
func otherCommits(n int64) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (and %d other failed COMMITs)", n)
}

// WriteText prints the summary as a table for people.
func (s *Summary) WriteText(w io.Writer) error {
	state := ""
	if s.Interrupted {
		state = " (interrupted)"
	}
	cut := ""
	if s.CutAtEnd > 0 {
		cut = fmt.Sprintf(", %d cut at the end", s.CutAtEnd)
	}
	fmt.Fprintf(w, "run %s%s: %.1fs, %d threads, %d events (%.1f/s), %d executions (%.1f/s), %d errors%s, %d retries, %d conflicts%s, %d reconnects\n",
		s.RunID, state, s.Elapsed, s.Threads, s.Events, s.EventsPerSec, s.Executions, s.QPS, s.Errors, cut, s.Retries, s.Conflicts,
		otherCommits(s.FailedCommits-s.Conflicts), s.Reconnects)
	if len(s.Down) > 0 {
		fmt.Fprintf(w, "left down by the run's actions: %s\n", strings.Join(s.Down, ", "))
	}
	if s.ClientCPUSeconds > 0 {
		fmt.Fprintf(w, "client CPU %.2fs, %.1f µs per execution\n", s.ClientCPUSeconds, s.ClientCPUPerQueryUs)
	}
	if s.WriterStallsMs > 0 {
		fmt.Fprintf(w, "warning: workers waited %.0f ms in total for the result writer to catch up\n", s.WriterStallsMs)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scenario\texecutions\terrors\tretries\tmean ms\tp50 ms\tp95 ms\tp99 ms\tmax ms\tqueries/s\t")
	for _, sc := range s.Scenarios {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.1f\t\n", sc.Scenario, sc.Executions, sc.Errors,
			sc.Retries, sc.MeanMs, sc.P50Ms, sc.P95Ms, sc.P99Ms, sc.MaxMs, sc.QPS)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, sc := range s.Scenarios {
		if sc.Disabled != "" {
			fmt.Fprintf(w, "disabled: %s\n", sc.Disabled)
		}
	}
	for _, sc := range s.Scenarios {
		if sc.CutAtEnd > 0 {
			fmt.Fprintf(w, "cut at the end: %s: %d statement(s) still running when the run ended, the longest after %s "+
				"(at least that slow; not in the figures above)\n", sc.Scenario, sc.CutAtEnd, time.Duration(sc.CutRanMs*1e6).Round(time.Millisecond))
		}
	}
	if err := writeActionCosts(w, s.Actions); err != nil {
		return err
	}
	writeRecoveries(w, s.Recovery)
	return nil
}
