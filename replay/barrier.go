package replay

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/joinbench/joinbench/internal/segment"
)

// BarrierTable is where the segments of a split run meet before they
// start: one row per (run, segment), written by the segment when it is
// ready. It lives in the database under test, which every segment reaches
// already, so the barrier needs nothing else.
const BarrierTable = "joinbench_run_barrier"

const barrierDDL = "CREATE TABLE IF NOT EXISTS " + BarrierTable + ` (
  run_id VARCHAR(190) NOT NULL,
  segment INT NOT NULL,
  segments INT NOT NULL,
  client_host VARCHAR(255) NOT NULL,
  arrived DECIMAL(20,6) NOT NULL,
  PRIMARY KEY (run_id, segment)
) ENGINE=InnoDB`

// DefaultBarrierTimeout is how long a segment waits for the others.
const DefaultBarrierTimeout = 10 * time.Minute

// barrierLead is how long after the last arrival the run starts: time for
// every segment to see it (one poll) and ready its workers.
const barrierLead = time.Second

// barrierPoll is how often a waiting segment looks at the table.
const barrierPoll = 100 * time.Millisecond

// startBarrier records this segment's arrival and waits for the run's N
// segments. It returns the instant, on this client's clock, at which every
// segment starts: the last arrival plus barrierLead, read on the server's
// clock, so that clients whose clocks differ still start together (within
// half a round trip of each one's estimate of its offset to the server).
// After timeout it fails naming the segments that never arrived.
func startBarrier(ctx context.Context, db *sql.DB, runID string, seg segment.Segment, host string, timeout time.Duration) (time.Time, error) {
	if _, err := db.ExecContext(ctx, barrierDDL); err != nil {
		return time.Time{}, fmt.Errorf("start barrier: create %s: %w", BarrierTable, err)
	}
	offset, err := serverOffset(ctx, db)
	if err != nil {
		return time.Time{}, fmt.Errorf("start barrier: %w", err)
	}
	if _, err := db.ExecContext(ctx, "REPLACE INTO "+BarrierTable+" (run_id, segment, segments, client_host, arrived) VALUES (?, ?, ?, ?, UNIX_TIMESTAMP(NOW(6)))",
		runID, seg.Index, seg.Count, host); err != nil {
		return time.Time{}, fmt.Errorf("start barrier: record segment %s: %w", seg, err)
	}
	deadline := time.Now().Add(timeout)
	for {
		arrived, last, err := arrivals(ctx, db, runID, seg.Count)
		if err != nil {
			return time.Time{}, fmt.Errorf("start barrier: %w", err)
		}
		if len(arrived) == seg.Count {
			return last.Add(barrierLead).Add(-offset), nil
		}
		if time.Now().After(deadline) {
			var missing []string
			for i := 1; i <= seg.Count; i++ {
				if !arrived[i] {
					missing = append(missing, strconv.Itoa(i))
				}
			}
			return time.Time{}, fmt.Errorf("start barrier of run %s: segment %s of %d never arrived within %s (each segment records itself in table %s of the database under test)",
				runID, strings.Join(missing, ", "), seg.Count, timeout, BarrierTable)
		}
		select {
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		case <-time.After(barrierPoll):
		}
	}
}

// arrivals reads which of the run's segments arrived, and the latest
// arrival on the server's clock.
func arrivals(ctx context.Context, db *sql.DB, runID string, count int) (map[int]bool, time.Time, error) {
	rows, err := db.QueryContext(ctx, "SELECT segment, CAST(arrived AS CHAR) FROM "+BarrierTable+" WHERE run_id = ? AND segments = ?", runID, count)
	if err != nil {
		return nil, time.Time{}, err
	}
	defer rows.Close()
	arrived := map[int]bool{}
	var last time.Time
	for rows.Next() {
		var i int
		var at string
		if err := rows.Scan(&i, &at); err != nil {
			return nil, time.Time{}, err
		}
		t, err := unixTime(at)
		if err != nil {
			return nil, time.Time{}, err
		}
		arrived[i] = true
		if t.After(last) {
			last = t
		}
	}
	return arrived, last, rows.Err()
}

// serverOffset estimates the server's clock minus this client's, from the
// middle of the round trip of one query.
func serverOffset(ctx context.Context, db *sql.DB) (time.Duration, error) {
	best := time.Duration(math.MaxInt64)
	var offset time.Duration
	for range 3 { // the fastest of a few round trips estimates best
		var at string
		t0 := time.Now()
		if err := db.QueryRowContext(ctx, "SELECT CAST(UNIX_TIMESTAMP(NOW(6)) AS CHAR)").Scan(&at); err != nil {
			return 0, fmt.Errorf("read the server's clock: %w", err)
		}
		t1 := time.Now()
		srv, err := unixTime(at)
		if err != nil {
			return 0, err
		}
		if rtt := t1.Sub(t0); rtt < best {
			best = rtt
			offset = srv.Sub(t0.Add(rtt / 2))
		}
	}
	return offset, nil
}

// unixTime reads seconds since the epoch with a fraction, "1700000000.123456".
func unixTime(s string) (time.Time, error) {
	sec, frac, _ := strings.Cut(strings.TrimSpace(s), ".")
	n, err := strconv.ParseInt(sec, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("server time %q: %w", s, err)
	}
	ns := int64(0)
	if frac != "" {
		frac = (frac + "000000000")[:9]
		if ns, err = strconv.ParseInt(frac, 10, 64); err != nil {
			return time.Time{}, fmt.Errorf("server time %q: %w", s, err)
		}
	}
	return time.Unix(n, ns), nil
}

// waitUntil sleeps until t unless ctx ends first, and logs when t had
// already passed (the run then starts late by that much).
func waitUntil(ctx context.Context, t time.Time, log *lockedWriter) {
	d := time.Until(t)
	if d < 0 {
		log.Printf("warning: started %s after the agreed start of the segments", (-d).Round(time.Millisecond))
		return
	}
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
