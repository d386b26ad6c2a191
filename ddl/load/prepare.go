package load

import (
	"context"
	"database/sql"
	"time"
)

// Prepare creates the built-in tables and loads them with generated rows,
// then runs ANALYZE TABLE. db must select the target database.
//
// The stages run in order, each in its own function: check the options,
// inspect the server, plan, create, load (which adds each table's deferred
// indexes once its rows are in), index (tables an interrupted load left
// without their indexes) and analyse.
func Prepare(ctx context.Context, db *sql.DB, opts PrepareOptions) (*PrepareResult, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
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
