package report

import (
	"slices"
	"strings"
	"time"

	"github.com/joinbench/joinbench/results"
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

type clientAcc struct {
	ClientReport
	lat        logHist
	start, end int64 // Unix nanoseconds: first start, last end
}

// clientKey names one client of a split run.
type clientKey struct {
	seg  int32
	host string
}

// clientAccs accumulates the per-client breakdown, or one worker's share
// of it: a client's figures are sums, a first start and a last end, so the
// order of rows does not matter.
type clientAccs map[clientKey]*clientAcc

// add accumulates a row group. Its rows mostly share one client (a client
// writes its own files), so the client is looked up by name only when the
// host index or segment changes from the row before.
func (ca clientAccs) add(c *results.ExecutionColumns) {
	var a *clientAcc
	lastHost, lastSeg := int32(-2), int32(0)
	for i, hi := range c.ClientHost.Index {
		if seg := c.Segment[i]; a == nil || hi != lastHost || seg != lastSeg {
			a, lastHost, lastSeg = ca.client(clientKey{seg, c.ClientHost.At(i)}), hi, seg
		}
		start := c.StartNs[i]
		end := start + c.LatencyNs[i]
		if a.Executions == 0 {
			a.start, a.end = start, end
		} else {
			a.start, a.end = min(a.start, start), max(a.end, end)
		}
		a.Executions++
		if c.ErrorCode[i] != 0 {
			a.Errors++
		} else {
			a.lat.add(c.LatencyNs[i])
		}
	}
}

func (ca clientAccs) client(k clientKey) *clientAcc {
	a := ca[k]
	if a == nil {
		k.host = strings.Clone(k.host)
		a = &clientAcc{ClientReport: ClientReport{Segment: int(k.seg), ClientHost: k.host}}
		ca[k] = a
	}
	return a
}

// merge adds o's clients into ca.
func (ca clientAccs) merge(o clientAccs) {
	for k, oa := range o {
		a := ca[k]
		if a == nil {
			ca[k] = oa
			continue
		}
		a.start, a.end = min(a.start, oa.start), max(a.end, oa.end)
		a.Executions += oa.Executions
		a.Errors += oa.Errors
		a.lat.merge(&oa.lat)
	}
}

// clientBreakdown reads a split run's rows again, per client (segment and
// host), and the run's common window. The totals of the run are those of
// all rows; this says how they were shared out. Files are read by
// columns, each worker adding up its own share.
func clientBreakdown(dir string, warn results.Warner) ([]ClientReport, *CommonWindow, error) {
	workers := accWorkers()
	parts := make([]clientAccs, workers)
	for i := range parts {
		parts[i] = clientAccs{}
	}
	_, err := results.ScanExecutionColumns(dir, warn, results.ColumnScan{Clients: true, SkipTemplates: true, SkipRows: true, Workers: workers,
		Each: func(w int, c *results.ExecutionColumns) error {
			parts[w].add(c)
			return nil
		}}, nil)
	if err != nil {
		return nil, nil, err
	}
	accs := parts[0]
	for _, p := range parts[1:] {
		accs.merge(p)
	}
	var out []ClientReport
	w := &CommonWindow{}
	for _, a := range accs {
		a.Start, a.End = time.Unix(0, a.start).UTC(), time.Unix(0, a.end).UTC()
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
