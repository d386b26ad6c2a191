package replay

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/joinbench/joinbench/internal/segment"
	"github.com/joinbench/joinbench/internal/sqltx"
	"github.com/joinbench/joinbench/internal/usage"
)

// BarrierTable is where the segments of a split run meet before they
// start: one row per (run, segment), the claim of the client running that
// segment, with the terms it runs on. It lives in the database under
// test, which every segment reaches already, so the barrier needs nothing
// else. Rows stay after the start: they record that the run started with
// those segments, so no client joins it later.
const BarrierTable = segment.RunTable

const barrierDDL = "CREATE TABLE IF NOT EXISTS " + BarrierTable + ` (
  run_id VARCHAR(190) NOT NULL,
  segment INT NOT NULL,
  segments INT NOT NULL,
  attempt CHAR(16) NOT NULL,
  client_host VARCHAR(255) NOT NULL,
  terms_digest CHAR(64) NOT NULL,
  terms MEDIUMTEXT NOT NULL,
  arrived DECIMAL(20,6) NOT NULL,
  seen DECIMAL(20,6) NOT NULL,
  start_at DECIMAL(20,6) NULL,
  PRIMARY KEY (run_id, segment)
) ENGINE=InnoDB`

// DefaultBarrierTimeout is how long a segment waits for the others.
const DefaultBarrierTimeout = 10 * time.Minute

// barrierLead is how long after the barrier opens the run starts: time
// for every segment to see it (one poll) and ready its workers.
const barrierLead = time.Second

// barrierPoll is how often a waiting segment looks at the table.
const barrierPoll = 100 * time.Millisecond

// A waiting segment refreshes its row every barrierHeartbeat. A row not
// refreshed for barrierStale is the claim of a client gone before the
// start (killed, crashed, cut off): it no longer counts as arrived, and a
// retry of its segment may take it over.
const (
	barrierHeartbeat = time.Second
	barrierStale     = 10 * time.Second
)

// segmentClaim is a client's claim of its segment of a run.
type segmentClaim struct {
	RunID string
	Seg   segment.Segment
	Host  string
	// Attempt tells this client's claim from another's of the same
	// segment (a second client given it, or a retry).
	Attempt string
	// Terms is what every segment of the run must agree on, as JSON (see
	// Session.segmentTerms).
	Terms []byte
}

func newSegmentClaim(runID string, seg segment.Segment, host string, terms []byte) (*segmentClaim, error) {
	var r [8]byte
	if _, err := rand.Read(r[:]); err != nil {
		return nil, err
	}
	return &segmentClaim{RunID: runID, Seg: seg, Host: host, Attempt: hex.EncodeToString(r[:]), Terms: terms}, nil
}

func (c *segmentClaim) digest() string {
	sum := sha256.Sum256(c.Terms)
	return hex.EncodeToString(sum[:])
}

// startBarrier claims this segment of the run and waits for the run's N
// segments. It returns the instant, on this client's clock, at which every
// segment starts: when the barrier opens plus barrierLead, read on the
// server's clock, so that clients whose clocks differ still start together
// (within half a round trip of each one's estimate of its offset to the
// server). A claim that cannot be taken (the segment is claimed by a live
// client, the run has started, the terms differ from another segment's) is
// a user error; after timeout it fails naming the segments that never
// arrived. A segment that fails here withdraws its claim, so that it can
// be run again.
func startBarrier(ctx context.Context, db *sql.DB, c *segmentClaim, timeout time.Duration) (time.Time, error) {
	if _, err := db.ExecContext(ctx, barrierDDL); err != nil {
		return time.Time{}, fmt.Errorf("start barrier: create %s: %w", BarrierTable, err)
	}
	offset, err := serverOffset(ctx, db)
	if err != nil {
		return time.Time{}, fmt.Errorf("start barrier: %w", err)
	}
	if err := c.take(ctx, db); err != nil {
		return time.Time{}, err
	}
	at, err := c.wait(ctx, db, timeout)
	if err != nil {
		c.withdraw(ctx, db)
		return time.Time{}, err
	}
	return at.Add(-offset), nil
}

// claimRow is a row of BarrierTable, with its ages on the server's clock.
type claimRow struct {
	segment, segments int
	attempt, host     string
	digest            string
	terms             []byte
	startAt           sql.NullString
	waited, silent    float64 // seconds since arrived, since seen
}

func (r claimRow) live() bool { return r.startAt.Valid || r.silent < barrierStale.Seconds() }

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// claimRows reads the rows of run runID; lock takes them FOR UPDATE. Their
// terms are read only withTerms: waiting segments poll the rows ten times
// a second, and need only the digests.
func claimRows(ctx context.Context, q querier, runID string, lock, withTerms bool) ([]claimRow, error) {
	terms := "''"
	if withTerms {
		terms = "terms"
	}
	query := "SELECT segment, segments, attempt, client_host, terms_digest, " + terms + ", CAST(start_at AS CHAR)," +
		" UNIX_TIMESTAMP(NOW(6)) - arrived, UNIX_TIMESTAMP(NOW(6)) - seen FROM " + BarrierTable + " WHERE run_id = ? ORDER BY segment"
	if lock {
		query += " FOR UPDATE"
	}
	rows, err := q.QueryContext(ctx, query, runID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []claimRow
	for rows.Next() {
		var r claimRow
		if err := rows.Scan(&r.segment, &r.segments, &r.attempt, &r.host, &r.digest, &r.terms, &r.startAt, &r.waited, &r.silent); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// take records this client's claim, unless the run has started, is split
// another way, has this segment claimed by another live client, or has a
// live segment on other terms.
func (c *segmentClaim) take(ctx context.Context, db *sql.DB) error {
	err := sqltx.Retry(ctx, db, func(tx *sql.Tx) error {
		rows, err := claimRows(ctx, tx, c.RunID, true, true)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if err := c.refuse(r); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, "REPLACE INTO "+BarrierTable+" (run_id, segment, segments, attempt, client_host, terms_digest, terms, arrived, seen)"+
			" VALUES (?, ?, ?, ?, ?, ?, ?, UNIX_TIMESTAMP(NOW(6)), UNIX_TIMESTAMP(NOW(6)))",
			c.RunID, c.Seg.Index, c.Seg.Count, c.Attempt, c.Host, c.digest(), c.Terms)
		return err
	})
	if err != nil && !usage.Is(err) {
		return fmt.Errorf("start barrier: claim segment %s: %w", c.Seg, err)
	}
	return err
}

// refuse says why the claim cannot be taken next to row r; nil when it
// can.
func (c *segmentClaim) refuse(r claimRow) error {
	switch {
	case r.startAt.Valid:
		at, _ := unixTime(r.startAt.String)
		return usage.Errorf("run %s started at %s with its segments (segment %d/%d on %s): a segment joins its run before the start; give a new --run-id to run again",
			c.RunID, at.UTC().Format(time.RFC3339), r.segment, r.segments, r.host)
	case r.segments != c.Seg.Count:
		return usage.Errorf("run %s is split in %d segments (segment %d on %s), not %d: give every segment the same --segment I/N",
			c.RunID, r.segments, r.segment, r.host, c.Seg.Count)
	case !r.live():
		return nil // its client is gone: the claim lapsed
	case r.segment == c.Seg.Index:
		return usage.Errorf("segment %s of run %s is already claimed by a client on %s, waiting for the others for %.0fs: a segment runs once (the claim of a client that is gone lapses %s after its last sign of life)",
			c.Seg, c.RunID, r.host, r.waited, barrierStale)
	case r.digest != c.digest():
		return usage.Errorf("segment %s of run %s does not run on the terms of segment %d (on %s): %s; give every segment the same options",
			c.Seg, c.RunID, r.segment, r.host, termsDifferences(c.Terms, r.terms, r.segment))
	}
	return nil
}

// wait polls the run's rows until the barrier opens: the agreed start on
// the server's clock. Meanwhile it keeps this claim alive, and fails when
// another client took the claim over.
func (c *segmentClaim) wait(ctx context.Context, db *sql.DB, timeout time.Duration) (time.Time, error) {
	deadline := time.Now().Add(timeout)
	beat := time.Now()
	for {
		rows, err := claimRows(ctx, db, c.RunID, false, false)
		if err != nil {
			return time.Time{}, fmt.Errorf("start barrier: %w", err)
		}
		own, arrived := c.arrived(rows)
		switch {
		case own == nil || own.attempt != c.Attempt:
			return time.Time{}, fmt.Errorf("start barrier: the claim of segment %s of run %s was taken over by another client after this one gave no sign of life for %s", c.Seg, c.RunID, barrierStale)
		case own.startAt.Valid:
			return unixTime(own.startAt.String)
		case len(arrived) == c.Seg.Count:
			at, err := c.open(ctx, db)
			if err != nil || !at.IsZero() {
				return at, err
			}
		case time.Now().After(deadline):
			var missing []string
			for i := 1; i <= c.Seg.Count; i++ {
				if !arrived[i] {
					missing = append(missing, strconv.Itoa(i))
				}
			}
			return time.Time{}, fmt.Errorf("start barrier of run %s: segment %s of %d never arrived within %s (each segment records itself in table %s of the database under test)",
				c.RunID, strings.Join(missing, ", "), c.Seg.Count, timeout, BarrierTable)
		}
		if time.Since(beat) >= barrierHeartbeat {
			beat = time.Now()
			if _, err := db.ExecContext(ctx, "UPDATE "+BarrierTable+" SET seen = UNIX_TIMESTAMP(NOW(6)) WHERE run_id = ? AND segment = ? AND attempt = ?",
				c.RunID, c.Seg.Index, c.Attempt); err != nil {
				return time.Time{}, fmt.Errorf("start barrier: %w", err)
			}
		}
		select {
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		case <-time.After(barrierPoll):
		}
	}
}

// arrived finds this segment's row among rows and the segments whose live
// claims are on this claim's terms.
func (c *segmentClaim) arrived(rows []claimRow) (own *claimRow, arrived map[int]bool) {
	arrived = map[int]bool{}
	for i, r := range rows {
		if r.segment == c.Seg.Index {
			own = &rows[i]
		}
		if r.live() && r.digest == c.digest() {
			arrived[r.segment] = true
		}
	}
	return own, arrived
}

// open starts the run, once: in one transaction, if every segment's claim
// is still there and live, every row gets the same start, barrierLead from
// now on the server's clock. It returns the start (zero when the barrier
// is not complete after all).
func (c *segmentClaim) open(ctx context.Context, db *sql.DB) (time.Time, error) {
	var at time.Time
	err := sqltx.Retry(ctx, db, func(tx *sql.Tx) error {
		at = time.Time{}
		rows, err := claimRows(ctx, tx, c.RunID, true, false)
		if err != nil {
			return err
		}
		own, arrived := c.arrived(rows)
		if own == nil || own.attempt != c.Attempt || len(arrived) != c.Seg.Count {
			return nil
		}
		if !own.startAt.Valid {
			lead := strconv.FormatFloat(barrierLead.Seconds(), 'f', 6, 64)
			if _, err := tx.ExecContext(ctx, "UPDATE "+BarrierTable+" SET start_at = UNIX_TIMESTAMP(NOW(6)) + "+lead+" WHERE run_id = ?", c.RunID); err != nil {
				return err
			}
			var s string
			if err := tx.QueryRowContext(ctx, "SELECT CAST(start_at AS CHAR) FROM "+BarrierTable+" WHERE run_id = ? AND segment = ?", c.RunID, c.Seg.Index).Scan(&s); err != nil {
				return err
			}
			own.startAt = sql.NullString{String: s, Valid: true}
		}
		at, err = unixTime(own.startAt.String)
		return err
	})
	if err != nil {
		return time.Time{}, fmt.Errorf("start barrier: open: %w", err)
	}
	return at, nil
}

// withdraw removes this client's claim, unless the run started with it,
// so that the segment can be run again and the others do not count it.
func (c *segmentClaim) withdraw(ctx context.Context, db *sql.DB) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	_, _ = db.ExecContext(ctx, "DELETE FROM "+BarrierTable+" WHERE run_id = ? AND segment = ? AND attempt = ? AND start_at IS NULL",
		c.RunID, c.Seg.Index, c.Attempt)
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
