//go:build e2e

package replay_test

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/internal/testserver"
	"github.com/joinbench/joinbench/replay"
)

// TestHungServerEndsTheRun stops the server's process (SIGSTOP) in the
// middle of a run, as a hung or partitioned server: the run ends anyway
// (after the query timeout, at the end of its time, or when interrupted),
// with the statements that never got a reply recorded as timeouts, on
// every execution path; nothing waits for the server to be continued.
func TestHungServerEndsTheRun(t *testing.T) {
	type stopBy int
	const (
		queryTimeout stopBy = iota
		endOfRun
		interrupt
	)
	for _, c := range []struct {
		name               string
		direct, driverPath bool
		by                 stopBy
	}{
		{"driver/query timeout", false, false, queryTimeout},
		{"driver/end of run", false, false, endOfRun},
		{"direct/query timeout", true, false, queryTimeout},
		{"direct/end of run", true, false, endOfRun},
		{"direct/interrupted", true, false, interrupt},
		// --exec-path driver: the driver on the blocking sockets
		{"direct endpoint, driver path/query timeout", true, true, queryTimeout},
		{"direct endpoint, driver path/end of run", true, true, endOfRun},
	} {
		t.Run(c.name, func(t *testing.T) {
			var qt time.Duration
			if c.by == queryTimeout {
				qt = 300 * time.Millisecond
			}
			hungServer(t, c.direct, c.driverPath, qt, c.by == interrupt)
		})
	}
}

func hungServer(t *testing.T, direct, driverPath bool, queryTimeout time.Duration, interrupt bool) {
	defer replay.ShortenStopTimes(500*time.Millisecond, time.Second, time.Second)()
	// A server of its own: the shared one serves other packages' tests.
	dsn := testdb.FreshOn(t, testserver.Own(t), "replay_hung")
	db := open(t, dsn, direct)
	admin, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	q := "SELECT SLEEP(0.005)"
	sc := &replay.Scenario{Name: "tick", Count: 1, Queries: []string{q},
		NewRenderer: func(uint64, int) replay.Renderer { return constRenderer(q) }}
	sink := &lockedSink{}
	var log strings.Builder
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type outcome struct {
		res *replay.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := replay.Run(ctx, replay.Config{
			RunID: "hung", Threads: 2, Duration: 2 * time.Second, QueryTimeout: queryTimeout, Prepared: true, SkipTrx: true,
			DriverPath: driverPath,
			Endpoints:  []replay.Endpoint{{Name: "test", DB: db, Direct: direct}}, Scenarios: []*replay.Scenario{sc},
			Sink: sink, Log: &log,
		})
		done <- outcome{res, err}
	}()
	// Stop the server once the run has recorded something.
	for sink.len() < 10 {
		select {
		case o := <-done:
			t.Fatalf("the run ended before the server was stopped: %+v %v\n%s", o.res, o.err, log.String())
		case <-time.After(5 * time.Millisecond):
		}
	}
	cont, continued := testdb.StopServer(t, admin, time.Minute)
	if interrupt {
		time.AfterFunc(100*time.Millisecond, cancel)
	}
	var o outcome
	select {
	case o = <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("the run did not end")
	}
	byLimit := continued()
	cont()
	if byLimit {
		t.Fatalf("the run waited for the server to be continued\n%s", log.String())
	}
	if o.err != nil || o.res.Summary.Interrupted != interrupt {
		t.Fatalf("run: %v, interrupted %v\n%s", o.err, o.res.Summary.Interrupted, log.String())
	}
	// Stuck when the run ended (or was interrupted), they are cut at the
	// end; stopped by the query timeout before, errors.
	var noReply int
	for _, r := range sink.rows {
		if r.ErrorCode == 1317 && strings.Contains(r.ErrorMessage, "no reply") {
			noReply++
			if queryTimeout == 0 && !r.CutAtEnd {
				t.Errorf("stuck at the end of the run, recorded as an error: %+v", r)
			}
		}
	}
	if noReply == 0 || o.res.Summary.Errors+o.res.Summary.CutAtEnd < int64(noReply) {
		t.Errorf("%d statements recorded as timeouts without a reply, summary %+v, want the stuck ones\n%s",
			noReply, o.res.Summary, log.String())
	}
}
