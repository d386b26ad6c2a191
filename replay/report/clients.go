package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/joinbench/joinbench/replay/results"
)

// ClientReport is one client of a run split over several (--segment): its
// share of the run's executions, read from the rows it wrote.
type ClientReport struct {
	Segment    int       `json:"segment"`
	ClientHost string    `json:"client_host"`
	Executions int64     `json:"executions"`
	Errors     int64     `json:"errors"`
	Start      time.Time `json:"start"` // its first statement
	End        time.Time `json:"end"`   // its last statement's end
	QPS        float64   `json:"queries_per_second"`
	P99Ms      float64   `json:"p99_ms"`
}

// CommonWindow is the stretch of a split run when every client was
// running: from the last client's first statement to the first client's
// last end, and the throughput of all of them over it.
type CommonWindow struct {
	Start      time.Time `json:"start"`
	End        time.Time `json:"end"`
	Executions int64     `json:"executions"` // started within the window
	QPS        float64   `json:"queries_per_second"`
}

// clientRow is what the per-client breakdown reads of an executions row.
type clientRow struct {
	ClientHost string    `parquet:"client_host,dict"`
	Segment    int32     `parquet:"segment,optional"`
	Start      time.Time `parquet:"start_time,timestamp(nanosecond)"`
	LatencyNs  int64     `parquet:"latency_ns"`
	ErrorCode  int32     `parquet:"error_code"`
	CutAtEnd   bool      `parquet:"cut_at_end,optional"` // not an execution (cut.go)
}

type clientAcc struct {
	ClientReport
	lat logHist
}

// clientBreakdown reads a split run's rows again, per client (segment and
// host), and the run's common window. The totals of the run are those of
// all rows; this says how they were shared out.
func clientBreakdown(dir string, warn results.Warner) ([]ClientReport, *CommonWindow, error) {
	type key struct {
		seg  int32
		host string
	}
	accs := map[key]*clientAcc{}
	_, err := results.ScanExecutionsAs(dir, warn, func(r *clientRow) error {
		if r.CutAtEnd {
			return nil
		}
		k := key{r.Segment, r.ClientHost}
		a := accs[k]
		if a == nil {
			a = &clientAcc{ClientReport: ClientReport{Segment: int(r.Segment), ClientHost: strings.Clone(r.ClientHost)}, lat: logHist{}}
			accs[key{r.Segment, a.ClientHost}] = a
		}
		a.Executions++
		end := r.Start.Add(time.Duration(r.LatencyNs))
		if a.Start.IsZero() || r.Start.Before(a.Start) {
			a.Start = r.Start
		}
		if end.After(a.End) {
			a.End = end
		}
		if r.ErrorCode != 0 {
			a.Errors++
		} else {
			a.lat.add(r.LatencyNs)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	var out []ClientReport
	w := &CommonWindow{}
	for _, a := range accs {
		if secs := a.End.Sub(a.Start).Seconds(); secs > 0 {
			a.QPS = float64(a.Executions) / secs
		}
		a.P99Ms = ms(a.lat.quantile(0.99))
		out = append(out, a.ClientReport)
		if a.Start.After(w.Start) {
			w.Start = a.Start
		}
		if w.End.IsZero() || a.End.Before(w.End) {
			w.End = a.End
		}
	}
	slices.SortFunc(out, func(a, b ClientReport) int {
		if a.Segment != b.Segment {
			return a.Segment - b.Segment
		}
		return strings.Compare(a.ClientHost, b.ClientHost)
	})
	// The executions in the window: a second reading, of the start times
	// only, rather than every start time kept (memory would grow with the
	// run). Its warnings were given by the first.
	from, to := w.Start.UnixNano(), w.End.UnixNano()
	if _, err := results.ScanExecutionColumns(dir, nil, results.ColumnScan{SkipTemplates: true, SkipRows: true}, func(c *results.ExecutionColumns) error {
		for _, s := range c.StartNs {
			if s >= from && s < to {
				w.Executions++
			}
		}
		return nil
	}); err != nil {
		return nil, nil, err
	}
	if secs := w.End.Sub(w.Start).Seconds(); secs > 0 {
		w.QPS = float64(w.Executions) / secs
	} else {
		w = nil
	}
	return out, w, nil
}

// writeClients prints the per-client breakdown of a split run.
func (rr *RunReport) writeClients(w io.Writer, md bool) {
	if len(rr.Clients) == 0 {
		return
	}
	heading(w, md, 2, fmt.Sprintf("Clients (%d segments)", len(rr.Clients)))
	t := &table{head: []string{"segment", "client", "executions", "errors", "start", "seconds", "qps", "p99"},
		right: map[int]bool{0: true, 2: true, 3: true, 5: true, 6: true, 7: true}}
	for _, c := range rr.Clients {
		t.add(fmt.Sprint(c.Segment), c.ClientHost, fmt.Sprint(c.Executions), fmt.Sprint(c.Errors),
			c.Start.Sub(rr.Start).Round(time.Millisecond).String(), fmt.Sprintf("%.1f", c.End.Sub(c.Start).Seconds()),
			fmt.Sprintf("%.1f", c.QPS), fms(c.P99Ms))
	}
	t.write(w, md)
	if cw := rr.Common; cw != nil {
		fmt.Fprintf(w, "common window (every client running): %.1fs, %d executions, %.1f qps\n",
			cw.End.Sub(cw.Start).Seconds(), cw.Executions, cw.QPS)
	}
	fmt.Fprintln(w)
}
