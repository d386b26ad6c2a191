package replay_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/replay"
	"github.com/joinbench/joinbench/replay/action"
	"github.com/joinbench/joinbench/results"
)

// actionSink records executions and actions.
type actionSink struct {
	countSink
	mu      sync.Mutex
	actions []results.Action
	writes  int
}

func (s *actionSink) WriteActions(rows []results.Action) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.actions, s.writes = rows, s.writes+1
	return nil
}

// TestActionsOnOneServer runs every kind of action that needs no cluster
// during a short run on the test server: each is recorded with what it
// did; a failing one does not stop the run; one still running at the end
// is stopped (its statement killed); one past the end of a run cut short
// is skipped.
func TestActionsOnOneServer(t *testing.T) {
	dsn := testdb.Fresh(t, "replay_actions")
	db := open(t, dsn, false)
	for _, q := range []string{
		"CREATE TABLE big (id INT PRIMARY KEY, grp INT NOT NULL)",
		"INSERT INTO big SELECT seq, seq % 10 FROM seq_1_to_1000",
		"CREATE TABLE w (id INT PRIMARY KEY, v INT NOT NULL)",
		"INSERT INTO w VALUES (1, 0)",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	specs, err := action.ParseAll([]string{
		"0s@1: sql: UPDATE big SET grp = grp + 100 WHERE id <= 10",
		"100ms@1: chunked 100: DELETE FROM big WHERE id > 500 AND id <= 750",
		"100ms@1: chunked 30 limit: UPDATE big SET grp = 0 WHERE grp = 3 AND id BETWEEN 11 AND 500",
		"200ms@1: lock 300ms: w",
		"300ms@1: exec: echo on {host} port {port} as {user} in {database}",
		"400ms@1: sql: ALTER TABLE nosuchtable FORCE",
		"1s@1: sql: SELECT SLEEP(60)",
		"1h@1: sql: SELECT 1",
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	actions, err := action.Resolve(specs, []server.Endpoint{{Name: "test", DSN: dsn}})
	if err != nil {
		t.Fatal(err)
	}
	q := "UPDATE w SET v = v + 1 WHERE id = 1"
	sc := &replay.Scenario{Name: "w", Count: 1, Write: true, Queries: []string{q},
		NewRenderer: func(uint64, int) replay.Renderer { return constRenderer(q) }}
	sink := &actionSink{}
	var progress strings.Builder
	start := time.Now()
	res, err := replay.Run(context.Background(), replay.Config{
		RunID: "t", Threads: 2, Duration: 3 * time.Second, SkipTrx: true, Prepared: true,
		Endpoints: []replay.Endpoint{{Name: "test", DB: db}}, Scenarios: []*replay.Scenario{sc}, Sink: sink,
		Actions: actions, Progress: &lockedBuilder{b: &progress},
	})
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 30*time.Second {
		t.Fatal("the run waited for SLEEP(60): the action was not stopped")
	}
	rows := res.Actions
	if len(rows) != 8 || sink.writes < 8 || len(sink.actions) != 8 {
		t.Fatalf("%d action rows (%d written, %d writes), want 8", len(rows), len(sink.actions), sink.writes)
	}
	want := []struct {
		outcome string
		rows    int64
		chunks  int32
	}{
		{results.ActionOK, 10, 0},
		{results.ActionOK, 250, 3}, // keys 501..750 by 100: 3 ranges
		{results.ActionOK, 49, 2},  // 13, 23, ... 493: 30, then 19
		{results.ActionOK, 0, 0},
		{results.ActionOK, 0, 0},
		{results.ActionFailed, 0, 0},
		{results.ActionCancelled, 0, 0},
		{results.ActionSkipped, 0, 0},
	}
	for i, w := range want {
		r := rows[i]
		if r.Action != int32(i+1) || r.Outcome != w.outcome || (w.outcome == results.ActionOK && (r.Rows != w.rows || r.Chunks != w.chunks)) {
			t.Errorf("action %d (%s): %s, %d rows in %d chunks, error %q; want %s, %d rows in %d chunks",
				i+1, r.Spec, r.Outcome, r.Rows, r.Chunks, r.ErrorMessage, w.outcome, w.rows, w.chunks)
		}
	}
	if r := rows[4]; !strings.Contains(r.Output, "port") || !strings.Contains(r.Output, "in jbtest_replay_actions") || strings.Contains(r.What, "{port}") {
		t.Errorf("exec: what %q, output %q", r.What, r.Output)
	}
	if r := rows[5]; r.ErrorCode != 1146 {
		t.Errorf("failed ALTER: error %d %q, want 1146", r.ErrorCode, r.ErrorMessage)
	}
	if r := rows[7]; !r.Start.IsZero() || r.Planned.Sub(start) < time.Hour-time.Minute {
		t.Errorf("skipped action %+v", r)
	}
	// A rolling change stops at the first node it fails on.
	rolling, err := action.ParseAll([]string{"0s@all: rsu: ALTER TABLE nosuchtable FORCE"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	two, err := action.Resolve(rolling, []server.Endpoint{{Name: "a", DSN: dsn}, {Name: "b", DSN: dsn}})
	if err != nil {
		t.Fatal(err)
	}
	res2, err := replay.Run(context.Background(), replay.Config{
		RunID: "t", Threads: 1, Duration: 500 * time.Millisecond, SkipTrx: true, Prepared: true,
		Endpoints: []replay.Endpoint{{Name: "a", DB: db}, {Name: "b", DB: db}}, Scenarios: []*replay.Scenario{sc}, Sink: &actionSink{},
		Actions: two,
	})
	if err != nil {
		t.Fatal(err)
	}
	if r := res2.Actions; len(r) != 2 || r[0].Outcome != results.ActionFailed || r[1].Outcome != results.ActionSkipped || r[1].Step != 2 {
		t.Errorf("rolling change failing on its first node: %+v", r)
	}
	// The run's summary says what each action that ran cost.
	if len(res.Summary.Actions) != 7 || len(res.Summary.Actions[0].Endpoints) != 1 {
		t.Errorf("summary actions %+v", res.Summary.Actions)
	}
	// The lock held w: writes stopped for about as long.
	if c := res.Summary.Actions[3]; c.Endpoints[0].LongestZeroWriteMs < 150 {
		t.Errorf("lock 300ms: longest stretch without writes %v ms", c.Endpoints[0].LongestZeroWriteMs)
	}
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM big").Scan(&n); err != nil || n != 750 {
		t.Errorf("big has %d rows (%v), want 750 after the chunked DELETE", n, err)
	}
	for _, want := range []string{"action 1 on test: sql: UPDATE big", "action 6 on test: sql failed", "action 7 on test: sql cancelled"} {
		if !strings.Contains(progress.String(), want) {
			t.Errorf("live output lacks %q:\n%s", want, progress.String())
		}
	}
}

type lockedBuilder struct {
	mu sync.Mutex
	b  *strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// TestActionStoppedAtTheEnd: an action that holds up the workers (a lock
// on the table they write) is stopped when the measured phase ends, not
// after the workers, which could never end before it.
func TestActionStoppedAtTheEnd(t *testing.T) {
	dsn := testdb.Fresh(t, "replay_action_end")
	db := open(t, dsn, false)
	for _, q := range []string{"CREATE TABLE w (id INT PRIMARY KEY, v INT NOT NULL)", "INSERT INTO w VALUES (1, 0)"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	specs, err := action.ParseAll([]string{"200ms@1: lock 1h: w"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	actions, err := action.Resolve(specs, []server.Endpoint{{Name: "test", DSN: dsn}})
	if err != nil {
		t.Fatal(err)
	}
	q := "UPDATE w SET v = v + 1 WHERE id = 1"
	sc := &replay.Scenario{Name: "w", Count: 1, Write: true, Queries: []string{q},
		NewRenderer: func(uint64, int) replay.Renderer { return constRenderer(q) }}
	start := time.Now()
	res, err := replay.Run(context.Background(), replay.Config{
		RunID: "t", Threads: 2, Duration: time.Second, SkipTrx: true, Prepared: true,
		Endpoints: []replay.Endpoint{{Name: "test", DB: db}}, Scenarios: []*replay.Scenario{sc}, Sink: &actionSink{}, Actions: actions,
	})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Fatalf("the run took %s: the lock was not released at its end", d)
	}
	if len(res.Actions) != 1 || res.Actions[0].Outcome != results.ActionCancelled {
		t.Errorf("actions %+v, want the lock cancelled", res.Actions)
	}
}
