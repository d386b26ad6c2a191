package report

import (
	"fmt"
	"math"
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
// number of workers, gives the figures worked out by hand from the rows
// (and the row-by-row reading the same).
func TestClientsByColumns(t *testing.T) {
	at := func(d time.Duration) time.Time { return fixture.T0.Add(d) }
	ms := time.Millisecond
	// The fixture gives row i the client host client<i%2>.
	rows := []struct {
		seg     int32
		start   time.Duration
		latency time.Duration
		errCode int32
	}{
		{1, 0, 10 * ms, 0},                       // segment 1, client0
		{1, time.Second, 20 * ms, 0},             // segment 1, client1
		{1, 4 * time.Second, 10 * ms, 1213},      // segment 1, client0
		{1, 5 * time.Second, time.Second, 0},     // segment 1, client1
		{2, 2 * time.Second, 10 * ms, 0},         // segment 2, client0
		{2, 2 * time.Second, 10 * ms, 0},         // segment 2, client1
		{2, 8 * time.Second, 2 * time.Second, 0}, // segment 2, client0
		{2, 3 * time.Second, 10 * ms, 0},         // segment 2, client1
	}
	var execs []results.Execution
	for _, r := range rows {
		execs = append(execs, results.Execution{Scenario: "a", TemplateHash: "t-a", Endpoint: "127.0.0.1:3306", Segment: r.seg,
			Start: at(r.start), LatencyNs: int64(r.latency), ErrorCode: r.errCode})
	}
	fixture.RowGroup = 2
	defer func() { fixture.RowGroup = 700 }()
	dir := fixture.Run{ID: "split", Execs: execs, Hosts: 2}.Write(t, t.TempDir())
	qps := func(n int64, d time.Duration) float64 { return float64(n) / d.Seconds() }
	want := []ClientReport{
		{Segment: 1, ClientHost: "client0", Executions: 2, Errors: 1, Start: at(0), End: at(4*time.Second + 10*ms), QPS: qps(2, 4*time.Second+10*ms), P99Ms: 10},
		{Segment: 1, ClientHost: "client1", Executions: 2, Start: at(time.Second), End: at(6 * time.Second), QPS: qps(2, 5*time.Second), P99Ms: 1000},
		{Segment: 2, ClientHost: "client0", Executions: 2, Start: at(2 * time.Second), End: at(10 * time.Second), QPS: qps(2, 8*time.Second), P99Ms: 2000},
		{Segment: 2, ClientHost: "client1", Executions: 2, Start: at(2 * time.Second), End: at(3*time.Second + 10*ms), QPS: qps(2, time.Second+10*ms), P99Ms: 10},
	}
	// Every client ran from 2s (the last first start) to 3.01s (the first
	// last end); three statements started in it.
	wantWindow := CommonWindow{Start: at(2 * time.Second), End: at(3*time.Second + 10*ms), Executions: 3, QPS: qps(3, time.Second+10*ms)}
	byRows, byRowsWindow, err := clientBreakdownByRows(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 2, 5} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			withWorkers(n, func() {
				var warned []string
				got, w, err := clientBreakdown(dir, func(err error) { warned = append(warned, err.Error()) })
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(want) {
					t.Fatalf("%d clients, want %d: %+v", len(got), len(want), got)
				}
				for i := range want {
					g, w := got[i], want[i]
					// The p99 is a histogram's: within its 4% buckets.
					if math.Abs(g.P99Ms-w.P99Ms) > 0.04*w.P99Ms {
						t.Errorf("client %d p99 %.3f ms, want %.0f ms within 4%%", i, g.P99Ms, w.P99Ms)
					}
					g.P99Ms, w.P99Ms = 0, 0
					if !g.Start.Equal(w.Start) || !g.End.Equal(w.End) {
						t.Errorf("client %d from %v to %v, want %v to %v", i, g.Start, g.End, w.Start, w.End)
					}
					g.Start, g.End, w.Start, w.End = time.Time{}, time.Time{}, time.Time{}, time.Time{}
					if g != w {
						t.Errorf("client %d: %+v, want %+v", i, g, w)
					}
				}
				if w == nil || !w.Start.Equal(wantWindow.Start) || !w.End.Equal(wantWindow.End) || w.Executions != wantWindow.Executions || w.QPS != wantWindow.QPS {
					t.Errorf("common window %+v, want %+v", w, wantWindow)
				}
				if len(warned) > 0 {
					t.Errorf("warnings %q", warned)
				}
				sameJSON(t, "clients", got, byRows)
				sameJSON(t, "common window", w, byRowsWindow)
			})
		})
	}
}
