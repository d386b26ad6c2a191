package load

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/go-sql-driver/mysql"
)

// Prepare creates the built-in tables and loads them with generated rows,
// then runs ANALYZE TABLE. db must select the target database.
//
// The stages run in order, each in its own function: check the options,
// inspect the server, plan, create, load (which adds each table's deferred
// indexes once its rows are in), index (tables an interrupted load left
// without their indexes) and analyse.
//
// What it loaded is recorded in DatasetTable once every table is complete
// (by the last segment of a split prepare), and forgotten before a table
// changes: once planned, or at the start of a prepare from a snapshot or
// of a segment.
func Prepare(ctx context.Context, db *sql.DB, opts PrepareOptions) (*PrepareResult, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	if opts.Segment.Split() || opts.Snapshots != nil {
		if err := forgetDataset(ctx, db); err != nil {
			return nil, err
		}
	}
	res, err := prepare(ctx, db, opts)
	if err == nil && (!opts.Segment.Split() || res.Finished) {
		err = recordDataset(ctx, db, opts)
		if err != nil && res.Restored != "" && isCorruption(err) {
			// Counting the rows reads every restored table: one the server
			// finds corrupt came from a snapshot whose checksums were
			// rewritten with its files, which only the server can tell.
			err = &SnapshotDamagedError{Name: res.Restored, Reason: fmt.Sprintf("the server finds a restored table corrupt: %v", err)}
		}
	}
	return res, err
}

// isCorruption reports whether err is the server saying a table or index
// is corrupt (ER_INDEX_CORRUPT, ER_NOT_KEYFILE, ER_CRASHED_ON_USAGE,
// ER_TABLE_CORRUPT).
func isCorruption(err error) bool {
	var me *mysql.MySQLError
	if !errors.As(err, &me) {
		return false
	}
	switch me.Number {
	case 1712, 1034, 1194, 1877:
		return true
	}
	return false
}

// prepare is Prepare once the options are checked.
func prepare(ctx context.Context, db *sql.DB, opts PrepareOptions) (*PrepareResult, error) {
	if opts.Segment.Split() {
		return prepareSegment(ctx, db, opts)
	}
	if opts.Snapshots != nil {
		return prepareWithSnapshot(ctx, db, opts)
	}
	start := time.Now()
	rep, method, err := inspectAndChoose(ctx, db, opts)
	if err != nil {
		return nil, err
	}
	p, err := plan(opts, method, rep)
	if err != nil {
		return nil, err
	}
	if err := forgetDataset(ctx, db); err != nil {
		return nil, err
	}
	if err := create(ctx, db, opts, p); err != nil {
		return nil, err
	}
	st := newTally(p)
	err = loadRows(ctx, db, opts, p, rep.Info.MaxPacket, st)
	if err == nil {
		err = addMissingIndexes(ctx, db, opts, p, st)
	}
	if opts.Progress != nil {
		opts.Progress.Finish()
	}
	if err != nil {
		return nil, err
	}
	if err := analyze(ctx, db, opts, p); err != nil {
		return nil, err
	}
	res := &PrepareResult{Method: method, Tables: st.tables}
	for _, s := range st.tables {
		res.Rows += s.Rows
	}
	res.Duration = time.Since(start)
	return res, nil
}
