package report

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/analysis/internal/fixture"
	"github.com/joinbench/joinbench/results"
)

// The per-client breakdown as it was read before it read by columns, row
// by row: the reference the column path must agree with.

// clientRow is what the per-client breakdown reads of an executions row.
type clientRow struct {
	ClientHost string    `parquet:"client_host,dict"`
	Segment    int32     `parquet:"segment,optional"`
	Start      time.Time `parquet:"start_time,timestamp(nanosecond)"`
	LatencyNs  int64     `parquet:"latency_ns"`
	ErrorCode  int32     `parquet:"error_code"`
}

type clientRowAcc struct {
	ClientReport
	lat logHist
}

// clientBreakdown reads a split run's rows again, per client (segment and
// host), and the run's common window. The totals of the run are those of
// all rows; this says how they were shared out.
func clientBreakdownByRows(dir string, warn results.Warner) ([]ClientReport, *CommonWindow, error) {
	type key struct {
		seg  int32
		host string
	}
	accs := map[key]*clientRowAcc{}
	_, err := results.ScanExecutionsAs(dir, warn, func(r *clientRow) error {
		k := key{r.Segment, r.ClientHost}
		a := accs[k]
		if a == nil {
			a = &clientRowAcc{ClientReport: ClientReport{Segment: int(r.Segment), ClientHost: strings.Clone(r.ClientHost)}, lat: logHist{}}
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

// TestClientsByColumns: the per-client breakdown read by columns, over any
// number of workers, is the one read row by row.
func TestClientsByColumns(t *testing.T) {
	execs := fixture.Gen(4, 40, fixture.Scen{Name: "a", N: 4000, MedianMs: 2, Plan: "p"}, fixture.Scen{Name: "b", N: 2500, MedianMs: 5, Plan: "p", ErrEvery: 9, ErrCode: 1213})
	for i := range execs {
		execs[i].Segment = int32(i%4 + 1)
		if i%4 == 0 {
			execs[i].Start = execs[i].Start.Add(3 * time.Second)
		}
	}
	fixture.RowGroup = 300
	defer func() { fixture.RowGroup = 700 }()
	dir := fixture.Run{ID: "split", Execs: execs, Hosts: 3}.Write(t, t.TempDir())
	var wantWarn, gotWarn []string
	wantC, wantW, err := clientBreakdownByRows(dir, func(err error) { wantWarn = append(wantWarn, err.Error()) })
	if err != nil {
		t.Fatal(err)
	}
	if len(wantC) != 12 || wantW == nil {
		t.Fatalf("fixture: %d clients, window %+v", len(wantC), wantW)
	}
	for _, n := range []int{1, 2, 5} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			withWorkers(n, func() {
				gotWarn = nil
				c, w, err := clientBreakdown(dir, func(err error) { gotWarn = append(gotWarn, err.Error()) })
				if err != nil {
					t.Fatal(err)
				}
				sameJSON(t, "clients", c, wantC)
				sameJSON(t, "common window", w, wantW)
				if !slices.Equal(gotWarn, wantWarn) {
					t.Errorf("warnings %q, want %q", gotWarn, wantWarn)
				}
			})
		})
	}
}
