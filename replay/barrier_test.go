package replay

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	_ "github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/segment"
	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/internal/usage"
)

func barrierDB(t *testing.T, name string) *sql.DB {
	t.Helper()
	db, err := sql.Open("mysql", testdb.Fresh(t, name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func claimOf(t *testing.T, runID string, index, count int, terms string) *segmentClaim {
	t.Helper()
	c, err := newSegmentClaim(runID, segment.Segment{Index: index, Count: count}, "host"+string(rune('0'+index)), []byte(terms))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

type barrierResult struct {
	at  time.Time
	err error
}

// meetAsync runs startBarrier for c in the background.
func meetAsync(db *sql.DB, c *segmentClaim, timeout time.Duration) <-chan barrierResult {
	out := make(chan barrierResult, 1)
	go func() {
		at, err := startBarrier(context.Background(), db, c, timeout)
		out <- barrierResult{at, err}
	}()
	return out
}

// waitClaimed waits until segment index of run has a row, so that a test
// knows the background claim was taken.
func waitClaimed(t *testing.T, db *sql.DB, runID string, index int) {
	t.Helper()
	for range 100 {
		var n int
		if err := db.QueryRow("SELECT COUNT(*) FROM "+BarrierTable+" WHERE run_id = ? AND segment = ?", runID, index).Scan(&n); err == nil && n == 1 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("segment %d of run %s never claimed", index, runID)
}

// timesOutAlone starts segment index of 2 of run r on termsA, with a
// short timeout, and checks that it waits for the other segment and
// gives up; what says which case it is.
func timesOutAlone(t *testing.T, db *sql.DB, index int, what string) {
	t.Helper()
	other := 3 - index
	_, err := startBarrier(context.Background(), db, claimOf(t, "r", index, 2, termsA), 300*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("segment %d of 2 never arrived", other)) {
		t.Fatalf("%s: %v, want it to wait for segment %d, and time out", what, err, other)
	}
}

// meet has segments 1 and 2 of run r meet on termsA, segment 1 waiting
// first; what says which case it is.
func meet(t *testing.T, db *sql.DB, what string) {
	t.Helper()
	first := meetAsync(db, claimOf(t, "r", 1, 2, termsA), time.Minute)
	if _, err := startBarrier(context.Background(), db, claimOf(t, "r", 2, 2, termsA), time.Minute); err != nil {
		t.Fatalf("%s: segment 2: %v", what, err)
	}
	if got := <-first; got.err != nil {
		t.Fatalf("%s: segment 1: %v", what, got.err)
	}
}

const termsA, termsB = `{"seed":1,"threads":4}`, `{"seed":2,"threads":8}`

// Segments on other terms than a waiting one are refused by name, and a
// segment on the same terms then meets it: both start at one instant.
func TestBarrierSegmentsAgreeOnTheirTerms(t *testing.T) {
	db := barrierDB(t, "replay_barrier_terms")
	first := meetAsync(db, claimOf(t, "r", 1, 2, termsA), time.Minute)
	waitClaimed(t, db, "r", 1)

	_, err := startBarrier(context.Background(), db, claimOf(t, "r", 2, 2, termsB), time.Minute)
	if !usage.Is(err) || !strings.Contains(err.Error(), "seed 2 (segment 1: 1)") || !strings.Contains(err.Error(), "threads 8 (segment 1: 4)") {
		t.Fatalf("segment on other terms: %v, want a usage error naming seed and threads", err)
	}
	second, err := startBarrier(context.Background(), db, claimOf(t, "r", 2, 2, termsA), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	got := <-first
	if got.err != nil {
		t.Fatal(got.err)
	}
	// Both read one start_at; what each returns is it in its own clock,
	// through an offset measured by a round trip, so on a loaded machine
	// they differ by that round trip: only a gross disagreement is wrong.
	var starts int
	if err := db.QueryRow("SELECT COUNT(DISTINCT start_at) FROM " + BarrierTable + " WHERE run_id = 'r' AND start_at IS NOT NULL").Scan(&starts); err != nil || starts != 1 {
		t.Errorf("the segments of run r hold %d start times (%v), want one", starts, err)
	}
	if d := got.at.Sub(second).Abs(); d > time.Second {
		t.Errorf("the segments start %s apart: %s and %s", d, got.at, second)
	}
}

// A segment is claimed once: a second client given a segment that a live
// client waits with is refused; so is any segment of a run that started.
func TestBarrierSegmentClaimedOnce(t *testing.T) {
	db := barrierDB(t, "replay_barrier_once")
	first := meetAsync(db, claimOf(t, "r", 1, 2, termsA), time.Minute)
	waitClaimed(t, db, "r", 1)
	_, err := startBarrier(context.Background(), db, claimOf(t, "r", 1, 2, termsA), time.Minute)
	if !usage.Is(err) || !strings.Contains(err.Error(), "already claimed") {
		t.Fatalf("segment 1 claimed twice: %v, want a usage error", err)
	}
	if _, err := startBarrier(context.Background(), db, claimOf(t, "r", 2, 2, termsA), time.Minute); err != nil {
		t.Fatal(err)
	}
	if got := <-first; got.err != nil {
		t.Fatal(got.err)
	}
	for i := 1; i <= 2; i++ {
		_, err = startBarrier(context.Background(), db, claimOf(t, "r", i, 2, termsA), time.Minute)
		if !usage.Is(err) || !strings.Contains(err.Error(), "started") {
			t.Errorf("segment %d after the start: %v, want a usage error", i, err)
		}
	}
}

// A barrier belongs to one attempt: a segment that failed at the barrier
// withdraws its claim, so a later segment waits for it rather than start
// alone, and the failed segment can be run again.
func TestBarrierFailedAttemptIsWithdrawn(t *testing.T) {
	db := barrierDB(t, "replay_barrier_attempt")
	timesOutAlone(t, db, 1, "segment 1 alone")
	timesOutAlone(t, db, 2, "segment 2 after segment 1 failed")
	meet(t, db, "segment 1 run again")
}

// The claim of a client gone without withdrawing it (killed) lapses: it
// does not count as arrived, and a new client of its segment takes it.
func TestBarrierClaimOfAGoneClientLapses(t *testing.T) {
	db := barrierDB(t, "replay_barrier_lapse")
	gone := claimOf(t, "r", 1, 2, termsB)
	if _, err := db.Exec(barrierDDL); err != nil {
		t.Fatal(err)
	}
	if err := gone.take(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	silent := (barrierStale + time.Second).Seconds()
	if _, err := db.Exec("UPDATE "+BarrierTable+" SET seen = seen - ? WHERE run_id = 'r'", silent); err != nil {
		t.Fatal(err)
	}
	timesOutAlone(t, db, 2, "segment 2 next to a lapsed claim")
	meet(t, db, "segment 1 over the lapsed claim")
}

func TestTermsDifferences(t *testing.T) {
	got := termsDifferences([]byte(`{"tags":["a"],"threads":8,"scenarios":["x@1"],"seed":1}`),
		[]byte(`{"tags":["b"],"threads":8,"scenarios":["x@2"],"seed":1}`), 3)
	if want := `the scenarios (their names or their files), tags ["a"] (segment 3: ["b"])`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
