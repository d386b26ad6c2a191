package replay

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/DATA-DOG/go-sqlmock"
	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/results"
)

// TestLiveEndsAsTheSummary: a watched run's live view, read while it runs
// (under -race, from another goroutine), ends with the summary's counts.
func TestLiveEndsAsTheSummary(t *testing.T) {
	db, mock := newMock(t)
	expectConnect(mock, 7)
	const qa, qb = "SELECT a FROM t WHERE id = ?", "UPDATE t SET b = 1 WHERE id = ?"
	const events = 200
	for ev := 0; ev < events; ev++ {
		mock.ExpectExec("BEGIN").WillReturnResult(sqlmock.NewResult(0, 0))
		mock.ExpectQuery(qa).WithArgs(ev + 1).WillReturnRows(sqlmock.NewRows([]string{"a"}).AddRow(1))
		if ev%10 == 0 {
			mock.ExpectExec(qb).WithArgs(ev + 1).WillReturnError(&mysql.MySQLError{Number: 1062, SQLState: [5]byte{'2', '3', '0', '0', '0'}, Message: "Duplicate entry"})
		} else {
			mock.ExpectExec(qb).WithArgs(ev + 1).WillReturnResult(sqlmock.NewResult(0, 1))
		}
		mock.ExpectExec("COMMIT").WillReturnResult(sqlmock.NewResult(0, 0))
	}
	cfg := baseConfig(db, &memSink{}, scenario("a", 1, qa), scenario("b", 1, qb))
	cfg.Events = events
	var (
		live    *Live
		readers sync.WaitGroup
		stop    = make(chan struct{})
	)
	cfg.Watch = func(l *Live) {
		live = l
		readers.Add(1)
		go func() {
			defer readers.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				s := l.Snapshot()
				if s.RunID != "r1" || len(s.Endpoints) != 1 || len(s.Scenarios) != 2 || len(s.Endpoints[0].ScenarioInFlight) != 2 {
					t.Errorf("snapshot during the run: %+v", s)
					return
				}
				time.Sleep(time.Millisecond)
			}
		}()
	}
	res, err := Run(context.Background(), cfg)
	close(stop)
	readers.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if live == nil {
		t.Fatal("Watch was not called")
	}
	s := live.Snapshot()
	if s.Phase != LiveEnded || s.Progress != 1 || s.Events != events || s.Threads != 1 {
		t.Errorf("final snapshot: phase %s, progress %v, events %d, threads %d", s.Phase, s.Progress, s.Events, s.Threads)
	}
	ep := s.Endpoints[0]
	if ep.Name != "db:3306" || ep.Threads != 1 || ep.InFlight != 0 || ep.Events != res.Summary.Events ||
		ep.Executions != res.Summary.Executions || ep.Errors != res.Summary.Errors {
		t.Errorf("endpoint %+v, summary %+v", ep, res.Summary)
	}
	if len(ep.Scenarios) != len(res.Summary.Scenarios) {
		t.Fatalf("%d scenarios live, %d in the summary", len(ep.Scenarios), len(res.Summary.Scenarios))
	}
	byName := map[string]LiveScenario{}
	for _, ls := range ep.Scenarios {
		byName[ls.Name] = ls
	}
	for _, sc := range res.Summary.Scenarios {
		ls := byName[sc.Scenario]
		var counted uint64
		for _, n := range ls.Latency {
			counted += n
		}
		if ls.Name != sc.Scenario || ls.Node != "" || ls.Executions != sc.Executions || ls.Errors != sc.Errors ||
			counted != uint64(sc.Executions-sc.Errors) || len(ls.Latency) != len(LatencyBounds)+1 {
			t.Errorf("scenario %s: live %+v, summary %+v", sc.Scenario, ls, sc)
		}
	}
	if got := byName["b"].ErrorCodes[1062]; got != events/10 {
		t.Errorf("scenario b: %d errors 1062, want %d", got, events/10)
	}
}

// TestLiveTally: latencies fall in the bucket whose bound they do not
// exceed; errors count by code and not in the buckets; statements cut at
// the end count nowhere; each node of an endpoint counts apart; only
// writes end a write stall when the run has some.
func TestLiveTally(t *testing.T) {
	e := &engine{
		eps:   []*endpointState{{Endpoint: Endpoint{Name: "a:1"}}, {Endpoint: Endpoint{Name: "b:1"}}},
		scens: []*scenState{{Scenario: &Scenario{Name: "read"}}, {Scenario: &Scenario{Name: "write", Write: true}}},
	}
	tl := e.newLiveTally()
	at := time.Unix(100, 0)
	row := func(ep, scen string, lat time.Duration, code int32) *results.Execution {
		return &results.Execution{Endpoint: ep, Node: "n1", Scenario: scen, Start: at, LatencyNs: int64(lat), ErrorCode: code}
	}
	tl.add(row("a:1", "read", LatencyBounds[0], 0))
	tl.add(row("a:1", "read", LatencyBounds[0]+1, 0))
	tl.add(row("a:1", "read", time.Hour, 0))
	tl.add(row("a:1", "read", time.Second, 1205))
	tl.add(row("b:1", "write", 3*time.Millisecond, 0))
	cut := row("b:1", "write", time.Hour, 0)
	cut.CutAtEnd = true
	tl.add(cut)
	tl.add(row("c:1", "read", time.Millisecond, 0)) // no such endpoint
	other := row("a:1", "read", time.Millisecond, 0)
	other.Node = "n2"
	tl.add(other)

	if n := len(tl.eps[0].cells); n != 2 {
		t.Errorf("a:1: %d cells, want read on n1 and n2", n)
	}
	if c := tl.eps[0].byCell[liveKey{"n2", "read"}]; c == nil || c.executions != 1 {
		t.Errorf("read on a:1, n2: %+v", c)
	}
	read := tl.eps[0].byCell[liveKey{"n1", "read"}]
	if read.buckets[0] != 1 || read.buckets[1] != 1 || read.buckets[len(LatencyBounds)] != 1 ||
		read.executions != 4 || read.errors != 1 || read.errorCodes[1205] != 1 {
		t.Errorf("read on a:1: %+v", read)
	}
	if want := int64(2*LatencyBounds[0] + 1 + time.Hour); read.sumNs != want {
		t.Errorf("read on a:1: sum %d, want %d", read.sumNs, want)
	}
	if tl.eps[0].lastWrite != 0 {
		t.Errorf("a read ended a write stall on a:1")
	}
	write := tl.eps[1].byCell[liveKey{"n1", "write"}]
	if write.executions != 1 || write.buckets[7] != 1 { // (2 ms, 5 ms]
		t.Errorf("write on b:1: %+v", write)
	}
	if want := at.Add(3 * time.Millisecond).UnixNano(); tl.eps[1].lastWrite != want {
		t.Errorf("b:1: last write at %d, want %d", tl.eps[1].lastWrite, want)
	}

	e.scens[1].Write = false // a read-only run: every execution ends a stall
	tl = e.newLiveTally()
	tl.add(row("a:1", "read", time.Millisecond, 0))
	if tl.eps[0].lastWrite == 0 {
		t.Errorf("in a read-only run, a successful read did not end the write stall")
	}
}

// BenchmarkLiveTally is what a watched run adds to the writer goroutine
// per row (live), beside what it does anyway for the summary (summary):
// rows of 4 scenarios, in runs of 10 (a count of 10), on one endpoint,
// latencies from 100 us to 10 ms, few enough to stay in cache as the
// writer's batch does between the two.
func BenchmarkLiveTally(b *testing.B) {
	e := &engine{eps: []*endpointState{{Endpoint: Endpoint{Name: "127.0.0.1:3306"}}}}
	for _, name := range []string{"a", "b", "c", "d"} {
		e.scens = append(e.scens, &scenState{Scenario: &Scenario{Name: name, Write: name == "d"}})
	}
	rows := make([]results.Execution, 80)
	for i := range rows {
		rows[i] = results.Execution{Endpoint: e.eps[0].Name, Scenario: e.scens[i/10%4].Name, Start: time.Unix(0, int64(i)),
			LatencyNs: int64(100_000 + i*i*1_500)}
	}
	b.Run("live", func(b *testing.B) {
		tl := e.newLiveTally()
		for i := 0; i < b.N; i++ {
			tl.add(&rows[i%len(rows)])
		}
	})
	b.Run("summary", func(b *testing.B) {
		acc := NewAccumulator()
		for i := 0; i < b.N; i++ {
			acc.Add(&rows[i%len(rows)])
		}
	})
}
