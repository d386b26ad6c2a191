package replay

import (
	"fmt"
	"io"
	"sort"
	"text/tabwriter"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Latencies are kept in HDR histograms of nanoseconds from 1µs to one hour
// with three significant digits (0.1% resolution): values outside are
// clamped.
const (
	histMin  = int64(time.Microsecond)
	histMax  = int64(time.Hour)
	histSigs = 3
)

func newHist() *hdrhistogram.Histogram { return hdrhistogram.New(histMin, histMax, histSigs) }

func recordLatency(h *hdrhistogram.Histogram, ns int64) {
	if ns < histMin {
		ns = histMin
	} else if ns > histMax {
		ns = histMax
	}
	_ = h.RecordValue(ns) // cannot fail once clamped
}

// ScenarioSummary is the outcome of one scenario in a run. Latency figures
// cover the executions that succeeded, in milliseconds.
type ScenarioSummary struct {
	Scenario   string  `json:"scenario"`
	Executions int64   `json:"executions"` // succeeded and failed
	Errors     int64   `json:"errors"`
	Retries    int64   `json:"retries"` // deadlock / lock wait retries
	MeanMs     float64 `json:"mean_ms"`
	P50Ms      float64 `json:"p50_ms"`
	P95Ms      float64 `json:"p95_ms"`
	P99Ms      float64 `json:"p99_ms"`
	MaxMs      float64 `json:"max_ms"`
	QPS        float64 `json:"queries_per_second"` // executions per second of the measured time
	// Disabled says why the scenario was switched off during the run.
	Disabled string `json:"disabled,omitempty"`
}

// Summary is the outcome of a run.
type Summary struct {
	RunID          string            `json:"run_id"`
	Elapsed        float64           `json:"elapsed_seconds"` // measured time, warmup excluded
	Threads        int               `json:"threads"`
	Events         int64             `json:"events"`
	Executions     int64             `json:"executions"`
	Errors         int64             `json:"errors"`
	EventsPerSec   float64           `json:"events_per_second"`
	QPS            float64           `json:"queries_per_second"`
	Reconnects     int64             `json:"reconnects"`
	WriterStallsMs float64           `json:"writer_stall_ms"` // time workers waited for the result writer
	Interrupted    bool              `json:"interrupted"`
	Scenarios      []ScenarioSummary `json:"scenarios"`
}

// Accumulator builds per-scenario summaries from executions one at a time.
// It is not safe for concurrent use.
type Accumulator struct {
	byName map[string]*scenarioAcc
}

type scenarioAcc struct {
	hist            *hdrhistogram.Histogram
	execs, errs, rt int64
}

// NewAccumulator returns an empty accumulator.
func NewAccumulator() *Accumulator { return &Accumulator{byName: map[string]*scenarioAcc{}} }

// Add records one execution: its latency in nanoseconds (ignored when it
// failed), whether it failed, and its retries.
func (a *Accumulator) Add(scenario string, latencyNs int64, failed bool, retries int32) {
	s := a.byName[scenario]
	if s == nil {
		s = &scenarioAcc{hist: newHist()}
		a.byName[scenario] = s
	}
	s.execs++
	s.rt += int64(retries)
	if failed {
		s.errs++
		return
	}
	recordLatency(s.hist, latencyNs)
}

// Merge adds everything recorded in b to a.
func (a *Accumulator) Merge(b *Accumulator) {
	for name, sb := range b.byName {
		s := a.byName[name]
		if s == nil {
			s = &scenarioAcc{hist: newHist()}
			a.byName[name] = s
		}
		s.hist.Merge(sb.hist)
		s.execs += sb.execs
		s.errs += sb.errs
		s.rt += sb.rt
	}
}

// Scenarios returns one summary per scenario seen, sorted by name; elapsed
// is the measured time that queries per second divide by.
func (a *Accumulator) Scenarios(elapsed time.Duration) []ScenarioSummary {
	out := make([]ScenarioSummary, 0, len(a.byName))
	for name, s := range a.byName {
		out = append(out, summarize(name, s, elapsed))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Scenario < out[j].Scenario })
	return out
}

// SummarizeLatencies computes a scenario summary from a slice of latencies
// in nanoseconds (successful executions) and a count of failed ones, with
// the same histogram a run uses, so figures match the live summary.
func SummarizeLatencies(scenario string, latenciesNs []int64, errors int64, elapsed time.Duration) ScenarioSummary {
	s := &scenarioAcc{hist: newHist(), execs: int64(len(latenciesNs)) + errors, errs: errors}
	for _, ns := range latenciesNs {
		recordLatency(s.hist, ns)
	}
	return summarize(scenario, s, elapsed)
}

func summarize(name string, s *scenarioAcc, elapsed time.Duration) ScenarioSummary {
	ms := func(ns int64) float64 { return float64(ns) / 1e6 }
	out := ScenarioSummary{Scenario: name, Executions: s.execs, Errors: s.errs, Retries: s.rt}
	if s.hist.TotalCount() > 0 {
		out.MeanMs = s.hist.Mean() / 1e6
		out.P50Ms = ms(s.hist.ValueAtQuantile(50))
		out.P95Ms = ms(s.hist.ValueAtQuantile(95))
		out.P99Ms = ms(s.hist.ValueAtQuantile(99))
		out.MaxMs = ms(s.hist.Max())
	}
	if elapsed > 0 {
		out.QPS = float64(s.execs) / elapsed.Seconds()
	}
	return out
}

// WriteText prints the summary as a table for people.
func (s *Summary) WriteText(w io.Writer) error {
	state := ""
	if s.Interrupted {
		state = " (interrupted)"
	}
	fmt.Fprintf(w, "run %s%s: %.1fs, %d threads, %d events (%.1f/s), %d executions (%.1f/s), %d errors, %d reconnects\n",
		s.RunID, state, s.Elapsed, s.Threads, s.Events, s.EventsPerSec, s.Executions, s.QPS, s.Errors, s.Reconnects)
	if s.WriterStallsMs > 0 {
		fmt.Fprintf(w, "warning: workers waited %.0f ms in total for the result writer to catch up\n", s.WriterStallsMs)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scenario\texecutions\terrors\tmean ms\tp50 ms\tp95 ms\tp99 ms\tmax ms\tqueries/s\t")
	for _, sc := range s.Scenarios {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.1f\t\n", sc.Scenario, sc.Executions, sc.Errors,
			sc.MeanMs, sc.P50Ms, sc.P95Ms, sc.P99Ms, sc.MaxMs, sc.QPS)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, sc := range s.Scenarios {
		if sc.Disabled != "" {
			fmt.Fprintf(w, "disabled: %s\n", sc.Disabled)
		}
	}
	return nil
}
