package load

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
	"golang.org/x/sync/errgroup"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/segment"
	"github.com/joinbench/joinbench/internal/sqllex"
	"github.com/joinbench/joinbench/internal/sqltx"
	"github.com/joinbench/joinbench/internal/usage"
)

// SegmentsTable is the small table through which the segments of a split
// prepare find out, in the database they load, which of them finishes
// the prepare. Row 0 stands for the prepare as a whole: its dataset is
// the one the first segment loads, which every other segment must load
// too, and its finished is set once the secondary indexes and ANALYZE are
// done. Cleanup drops it.
const SegmentsTable = segment.PrepareTable

const segmentsDDL = "CREATE TABLE IF NOT EXISTS " + SegmentsTable + ` (
  segment INT NOT NULL PRIMARY KEY,
  segments INT NOT NULL,
  client_host VARCHAR(255) NOT NULL DEFAULT '',
  dataset TEXT NULL,
  started DATETIME(6) NULL,
  loaded DATETIME(6) NULL,
  finished DATETIME(6) NULL
) ENGINE=InnoDB`

// prepareSegment is Prepare of one segment of a split prepare. Every
// segment, in any order and at any time:
//   - creates the tables that do not exist yet (CREATE TABLE IF NOT
//     EXISTS, primary key only unless IndexesDuringLoad: the same DDL from
//     every segment, so whichever runs first creates them);
//   - records its arrival in SegmentsTable;
//   - replaces its own share of every table's rows (segment.Range of
//     1..TableSize: it deletes what a previous attempt of the same segment
//     left, then loads), so that a segment run again, as a Job retries a
//     failed pod, simply redoes its share;
//   - records that its rows are in, in a transaction serialised on row 0,
//     and counts the segments whose rows are in: the one that counts all
//     of them is the last, and it adds the secondary indexes of every
//     table lacking them and runs ANALYZE, then marks row 0 finished.
//
// The rows are those of one process (rows depend on seed, table and id
// only), so a split prepare gives the same CHECKSUM TABLE.
func prepareSegment(ctx context.Context, db *sql.DB, opts PrepareOptions) (*PrepareResult, error) {
	start := time.Now()
	seg := opts.Segment
	rep, method, err := inspectAndChoose(ctx, db, opts)
	if err != nil {
		return nil, err
	}
	tabs, err := ddl.BuiltinTables(opts.Schema)
	if err != nil {
		return nil, usage.Wrap(err)
	}
	if err := arriveSegment(ctx, db, opts); err != nil {
		return nil, err
	}
	from, to := seg.Range(1, opts.Gen.TableSize)
	p := &loadPlan{method: method, chunkSize: int64(opts.ChunkSize)}
	for i, t := range tabs {
		n := i + 1
		if t.Kind == ddl.LevelTable {
			n = i - opts.Schema.Tables + 1
		}
		create := t.CreateBare
		if opts.IndexesDuringLoad {
			create = t.Create
		}
		q := sqllex.QuoteIdent(t.Name)
		tp := tablePlan{BuiltinTable: t, n: n, first: from, from: from, to: to,
			create: strings.Replace(create, "CREATE TABLE ", "CREATE TABLE IF NOT EXISTS ", 1)}
		if from <= to {
			tp.clear = "DELETE FROM " + q + " WHERE id BETWEEN " + strconv.FormatInt(from, 10) + " AND " + strconv.FormatInt(to, 10)
		}
		p.tables = append(p.tables, tp)
	}
	opts.logf("segment %s: rows %d..%d of every table", seg, from, to)
	if err := createSegmentTables(ctx, db, opts, p); err != nil {
		return nil, err
	}
	if from <= to {
		p.ranges = splitRanges(p.tables, opts.Threads, opts.ChunkSize)
	}
	st := newTally(p)
	err = loadRows(ctx, db, opts, p, rep.Info.MaxPacket, st)
	if opts.Progress != nil {
		opts.Progress.Finish()
	}
	if err != nil {
		var ie *InterruptedError
		if errors.As(err, &ie) {
			return nil, usage.Errorf("segment %s interrupted in %s at row %d: run the same segment again; it replaces its own rows", seg, ie.Table, ie.Row)
		}
		return nil, fmt.Errorf("segment %s: %w (run the same segment again: it replaces its own rows)", seg, err)
	}
	last, err := segmentLoaded(ctx, db, opts)
	if err != nil {
		return nil, err
	}
	res := &PrepareResult{Method: method, Tables: st.tables}
	if last {
		opts.logf("segment %s is the last to finish loading: adding the secondary indexes and analysing", seg)
		if err := finishSegments(ctx, db, opts, tabs, st); err != nil {
			return nil, err
		}
	} else {
		opts.logf("segment %s loaded; the last segment to finish adds the indexes", seg)
	}
	for _, s := range st.tables {
		res.Rows += s.Rows
	}
	res.Finished = last
	res.Duration = time.Since(start)
	return res, nil
}

// createSegmentTables creates the tables missing and deletes this
// segment's rows left by a previous attempt.
func createSegmentTables(ctx context.Context, db *sql.DB, opts PrepareOptions, p *loadPlan) error {
	for _, t := range p.tables {
		if _, err := db.ExecContext(ctx, t.create); err != nil {
			return createError(t.Name, opts.Schema, err)
		}
		if t.clear != "" {
			if _, err := db.ExecContext(ctx, t.clear); err != nil {
				return fmt.Errorf("clear the rows of segment %s in %s: %w", opts.Segment, t.Name, err)
			}
		}
	}
	return nil
}

// arriveSegment creates SegmentsTable if needed and records this segment
// as started (rows not loaded), and the prepare as not finished. A table
// that records another number of segments, or another dataset (DatasetKey:
// the seed, the table size...), is a user error naming the differences:
// the database holds a prepare split another way, and rows of the two
// would mix.
func arriveSegment(ctx context.Context, db *sql.DB, opts PrepareOptions) error {
	seg := opts.Segment
	if _, err := db.ExecContext(ctx, segmentsDDL); err != nil {
		return fmt.Errorf("create %s: %w", SegmentsTable, err)
	}
	var other sql.NullInt64
	if err := db.QueryRowContext(ctx, "SELECT MAX(segments) FROM "+SegmentsTable+" WHERE segments <> ?", seg.Count).Scan(&other); err != nil {
		return fmt.Errorf("read %s: %w", SegmentsTable, err)
	}
	if other.Valid {
		return usage.Errorf("table %s records a prepare split in %d segments, not %d: run joinbench cleanup first (or use the same number of segments)",
			SegmentsTable, other.Int64, seg.Count)
	}
	want, err := newDatasetKey(opts)
	if err != nil {
		return err
	}
	wantJSON, err := json.Marshal(want)
	if err != nil {
		return err
	}
	host, _ := os.Hostname()
	err = sqltx.Retry(ctx, db, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "INSERT INTO "+SegmentsTable+" (segment, segments, dataset, started) VALUES (0, ?, ?, NOW(6)) ON DUPLICATE KEY UPDATE finished = NULL", seg.Count, wantJSON); err != nil {
			return err
		}
		var have []byte
		if err := tx.QueryRowContext(ctx, "SELECT dataset FROM "+SegmentsTable+" WHERE segment = 0").Scan(&have); err != nil {
			return err
		}
		if err := sameDataset(have, want, seg); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, "REPLACE INTO "+SegmentsTable+" (segment, segments, client_host, started) VALUES (?, ?, ?, NOW(6))", seg.Index, seg.Count, host)
		return err
	})
	var me *mysql.MySQLError
	if errors.As(err, &me) && me.Number == 1054 { // ER_BAD_FIELD_ERROR: no dataset column
		return usage.Errorf("table %s was made by an older joinbench, which recorded no dataset to check this segment against: run joinbench cleanup first", SegmentsTable)
	}
	return err
}

// sameDataset is nil when have, the dataset row 0 records (JSON), is
// want, and else a user error naming the differences.
func sameDataset(have []byte, want DatasetKey, seg segment.Segment) error {
	var h DatasetKey
	if err := json.Unmarshal(have, &h); err != nil {
		return fmt.Errorf("read %s: the dataset of row 0: %w", SegmentsTable, err)
	}
	if why := h.differences(want, "this segment's"); len(why) > 0 {
		return usage.Errorf("segment %s loads another dataset than the prepare recorded in table %s: its %s; give every segment the same options, or run joinbench cleanup first",
			seg, SegmentsTable, strings.Join(why, "; its "))
	}
	return nil
}

// segmentLoaded records this segment's rows as loaded and reports whether
// it is the last: every segment's rows are in. The transaction first
// writes row 0, so that two segments finishing at once are serialised (on
// one server by its lock; on a Galera cluster by certification, the loser
// retrying): exactly one counts them all.
func segmentLoaded(ctx context.Context, db *sql.DB, opts PrepareOptions) (last bool, err error) {
	seg := opts.Segment
	err = sqltx.Retry(ctx, db, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "UPDATE "+SegmentsTable+" SET loaded = NOW(6) WHERE segment = 0"); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE "+SegmentsTable+" SET loaded = NOW(6) WHERE segment = ?", seg.Index); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+SegmentsTable+" WHERE segment > 0 AND loaded IS NOT NULL").Scan(&n); err != nil {
			return err
		}
		last = n == seg.Count
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("record segment %s in %s: %w", seg, SegmentsTable, err)
	}
	return last, nil
}

// finishSegments is the once-only end of a split prepare, run by the last
// segment: the secondary indexes of every table lacking them (up to
// Threads at once), ANALYZE, and row 0 marked finished. A segment run
// again after the finish finds the indexes there and adds none.
func finishSegments(ctx context.Context, db *sql.DB, opts PrepareOptions, tabs []ddl.BuiltinTable, st *tally) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(opts.Threads)
	for _, t := range tabs {
		if t.AddIndexes == "" {
			continue
		}
		g.Go(func() error {
			bare, err := lacksIndexes(gctx, db, t.Name)
			if err != nil || !bare {
				return err
			}
			opts.logf("adding the secondary indexes of %s", t.Name)
			start := time.Now()
			if _, err := db.ExecContext(gctx, t.AddIndexes); err != nil {
				return fmt.Errorf("add indexes to %s: %w", t.Name, err)
			}
			st.indexed(t.Name, time.Since(start))
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return fmt.Errorf("segment %s finishing the prepare: %w (run the same segment again to finish it)", opts.Segment, err)
	}
	p := &loadPlan{}
	if !opts.NoAnalyze {
		p.analyze = opts.Schema.TableNames()
	}
	if err := analyze(ctx, db, opts, p); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, "UPDATE "+SegmentsTable+" SET finished = NOW(6) WHERE segment = 0"); err != nil {
		return fmt.Errorf("record the prepare finished in %s: %w", SegmentsTable, err)
	}
	return nil
}
