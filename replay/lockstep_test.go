package replay

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/DATA-DOG/go-sqlmock"

	"github.com/joinbench/joinbench/results"
)

// lockstepRun is a run of events events (one statement each, no
// transaction) on its own mock server, as one side of a lockstep.
func lockstepRun(t *testing.T, side *LockstepSide, endpoint string, events int) (Config, *memSink) {
	t.Helper()
	db, mock := newMock(t)
	expectConnect(mock, 7)
	const q = "SELECT a FROM t WHERE id = ?"
	for i := 1; i <= events; i++ {
		mock.ExpectQuery(q).WithArgs(i).WillReturnRows(sqlmock.NewRows([]string{"a"}).AddRow(1))
	}
	sink := &memSink{}
	cfg := baseConfig(db, sink, scenario("a", 1, q))
	cfg.Endpoints[0].Name = endpoint
	cfg.Events, cfg.SkipTrx, cfg.Lockstep = int64(events), true, side
	return cfg, sink
}

// TestLockstepAlternates: two runs in lockstep take turns statement by
// statement, each statement on both sides one after the other, either
// side first; and when one has finished, the other goes on alone.
func TestLockstepAlternates(t *testing.T) {
	l := NewLockstep(1)
	a, sa := lockstepRun(t, l.Side(0), "a:1", 6)
	b, sb := lockstepRun(t, l.Side(1), "b:1", 9) // 3 more than a: alone at the end
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, cfg := range []Config{a, b} {
		wg.Add(1)
		go func() { defer wg.Done(); _, errs[i] = Run(context.Background(), cfg) }()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	rows := append(slices.Clone(sa.rows), sb.rows...)
	if len(rows) != 15 {
		t.Fatalf("%d executions, want 15", len(rows))
	}
	slices.SortFunc(rows, func(x, y results.Execution) int { return x.Start.Compare(y.Start) })
	var order strings.Builder
	for _, r := range rows {
		order.WriteByte(r.Endpoint[0])
	}
	got := order.String()
	for j := 0; j < 6; j++ {
		if pair := got[2*j : 2*j+2]; pair != "ab" && pair != "ba" {
			t.Errorf("statement %d ran as %q: want it once on each side, one after the other (order %s)", j+1, pair, got)
		}
	}
	if got[12:] != "bbb" {
		t.Errorf("after a finished, b ran %q alone, want bbb (order %s)", got[12:], got)
	}
}

// TestLockstepOrderBalanced: which side runs a statement first is drawn
// at random, so that each statement of an event (here two, where an
// alternation statement by statement would always put the same side first
// for each) has each side first about half the time.
func TestLockstepOrderBalanced(t *testing.T) {
	const events = 200
	l := NewLockstep(1)
	var sinks [2]*memSink
	var cfgs [2]Config
	for side, ep := range []string{"a:1", "b:1"} {
		db, mock := newMock(t)
		expectConnect(mock, 7)
		const q1, q2 = "SELECT a FROM t WHERE id = ?", "SELECT b FROM t WHERE id = ?"
		for i := 1; i <= events; i++ {
			mock.ExpectQuery(q1).WithArgs(i).WillReturnRows(sqlmock.NewRows([]string{"a"}).AddRow(1))
			mock.ExpectQuery(q2).WithArgs(i).WillReturnRows(sqlmock.NewRows([]string{"b"}).AddRow(1))
		}
		sinks[side] = &memSink{}
		cfgs[side] = baseConfig(db, sinks[side], scenario("s", 1, q1, q2))
		cfgs[side].Endpoints[0].Name = ep
		cfgs[side].Events, cfgs[side].SkipTrx, cfgs[side].Lockstep = events, true, l.Side(side)
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range cfgs {
		wg.Add(1)
		go func() { defer wg.Done(); _, errs[i] = Run(context.Background(), cfgs[i]) }()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	var aFirst [2]int // by statement of the event
	for i, a := range sinks[0].rows {
		if b := sinks[1].rows[i]; a.Start.Before(b.Start) {
			aFirst[a.StatementSeq]++
		}
	}
	for seq, n := range aFirst {
		if n < 70 || n > 130 {
			t.Errorf("statement %d of the event ran first on a %d times of %d: want about half", seq+1, n, events)
		}
	}
}

// TestLockstepTurnsExclude: the two workers of a pair never run at once,
// however many statements and pairs.
func TestLockstepTurnsExclude(t *testing.T) {
	const pairs, steps = 4, 2000
	l := NewLockstep(pairs)
	var running [pairs]atomic.Int32
	var wg sync.WaitGroup
	var overlaps atomic.Int64
	for side := range 2 {
		s := l.Side(side)
		for id := range pairs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer s.leave(id)
				for range steps - side*500 { // side 1 leaves early: side 0 ends alone
					if !s.acquire(context.Background(), id) {
						t.Error("acquire failed")
						return
					}
					if running[id].Add(1) != 1 {
						overlaps.Add(1)
					}
					running[id].Add(-1)
					s.release(id)
				}
			}()
		}
	}
	wg.Wait()
	if n := overlaps.Load(); n > 0 {
		t.Errorf("%d statements ran while the other side of their pair did", n)
	}
}

// TestLockstepMeetCancelled: a run whose other side never starts waits
// only as long as its context.
func TestLockstepMeetCancelled(t *testing.T) {
	l := NewLockstep(1)
	a, _ := lockstepRun(t, l.Side(0), "a:1", 0)
	a.Events = 1
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := Run(ctx, a); err == nil || !strings.Contains(err.Error(), "other server") {
		t.Errorf("run without its other side: %v", err)
	}
}
