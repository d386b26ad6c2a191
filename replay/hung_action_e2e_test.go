//go:build e2e

package replay_test

import (
	"context"
	"database/sql"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/internal/testserver"
	"github.com/joinbench/joinbench/replay"
	"github.com/joinbench/joinbench/replay/action"
	"github.com/joinbench/joinbench/results"
)

// hungActionSink records executions and actions, and can be read while
// the run writes.
type hungActionSink struct {
	lockedSink
	amu     sync.Mutex
	actions []results.Action
}

func (s *hungActionSink) WriteActions(rows []results.Action) error {
	s.amu.Lock()
	defer s.amu.Unlock()
	s.actions = rows
	return nil
}

// TestHungServerActionDoesNotHoldTheRun: an action whose statement is
// running when the server stops answering (SIGSTOP) cannot be stopped:
// KILL QUERY gets no reply. The run ends all the same, abortAfter after
// its workers, as it would for a worker's statement, and records the
// action as unstopped; nothing waits for the server to be continued.
func TestHungServerActionDoesNotHoldTheRun(t *testing.T) {
	defer replay.ShortenStopTimes(500*time.Millisecond, time.Second, time.Second)()
	// A server of its own: the shared one serves other packages' tests.
	dsn := testdb.FreshOn(t, testserver.Own(t), "replay_hung_action")
	db := open(t, dsn, false)
	admin, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	specs, err := action.ParseAll([]string{"0s@1: sql: SELECT SLEEP(60)"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	actions, err := action.Resolve(specs, []server.Endpoint{{Name: "test", DSN: dsn}})
	if err != nil {
		t.Fatal(err)
	}
	q := "SELECT SLEEP(0.005)"
	sc := &replay.Scenario{Name: "tick", Count: 1, Queries: []string{q},
		NewRenderer: func(uint64, int) replay.Renderer { return constRenderer(q) }}
	sink := &hungActionSink{}
	progress := &lockedBuilder{b: &strings.Builder{}}
	type outcome struct {
		res *replay.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := replay.Run(context.Background(), replay.Config{
			RunID: "hung", Threads: 2, Duration: 2 * time.Second, Prepared: true, SkipTrx: true,
			Endpoints: []replay.Endpoint{{Name: "test", DB: db}}, Scenarios: []*replay.Scenario{sc},
			Sink: sink, Actions: actions, Progress: progress,
		})
		done <- outcome{res, err}
	}()
	// Stop the server once the action's statement was sent and the run
	// recorded something.
	for sink.len() < 10 || !strings.Contains(progress.String(), "action 1 on test: sql: SELECT SLEEP(60)") {
		select {
		case o := <-done:
			t.Fatalf("the run ended before the server was stopped: %+v %v", o.res, o.err)
		case <-time.After(5 * time.Millisecond):
		}
	}
	time.Sleep(50 * time.Millisecond) // the SLEEP reaches the server
	cont, continued := testdb.StopServer(t, admin, time.Minute)
	var o outcome
	select {
	case o = <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("the run did not end")
	}
	byLimit := continued()
	cont()
	if byLimit {
		t.Fatalf("the run waited for the server to be continued\n%s", progress.String())
	}
	if o.err != nil {
		t.Fatalf("run: %v", o.err)
	}
	if r := o.res.Actions; len(r) != 1 || r[0].Outcome != results.ActionUnstopped || r[0].Start.IsZero() ||
		!strings.Contains(r[0].ErrorMessage, "did not stop within") {
		t.Fatalf("action rows %+v, want one unstopped\n%s", r, progress.String())
	}
	sink.amu.Lock()
	written := sink.actions
	sink.amu.Unlock()
	if len(written) != 1 || written[0].Outcome != results.ActionUnstopped {
		t.Errorf("actions file: %+v", written)
	}
}

func (l *lockedBuilder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
