package load

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// prepareWithSnapshot is Prepare with a snapshot store: the dataset is
// restored from its snapshot when the store has one that fits this
// server; otherwise it is loaded as usual and a snapshot of it is saved,
// after saying why any snapshot of the same dataset from another server
// was refused. The server's data directory must be reachable from here
// (inspectSnapshotServer says why not).
func prepareWithSnapshot(ctx context.Context, db *sql.DB, opts PrepareOptions) (*PrepareResult, error) {
	store := *opts.Snapshots
	srv, err := inspectSnapshotServer(ctx, db)
	if err != nil {
		return nil, err
	}
	key, err := NewSnapshotKey(opts, srv.Key)
	if err != nil {
		return nil, err
	}
	snap, refused, err := store.Lookup(key)
	if err != nil {
		return nil, err
	}
	if why := srv.cannotRestore(opts); snap != nil && why != "" {
		opts.logf("snapshot %s not restored: %s. Loading afresh", snap.Name(), why)
		fresh := opts
		fresh.Snapshots = nil
		res, err := Prepare(ctx, db, fresh)
		return res, adviseWithoutSnapshot(err)
	}
	if snap != nil {
		opts.logf("restoring snapshot %s (%s) from %s", snap.Name(), humanBytes(snap.Bytes()), store.Dir)
		return restoreSnapshot(ctx, db, srv, snap, key, opts)
	}
	for _, why := range refused {
		opts.logf("%s", why)
	}
	opts.logf("no snapshot of this dataset for this server in %s: loading it, then saving one", store.Dir)
	fresh := opts
	fresh.Snapshots = nil
	res, err := Prepare(ctx, db, fresh)
	if err != nil {
		return nil, adviseWithoutSnapshot(err)
	}
	t0 := time.Now()
	saved, err := store.save(ctx, db, srv, key, opts.Schema.TableNames())
	if err != nil {
		return nil, fmt.Errorf("the tables are loaded, but saving their snapshot failed: %w", err)
	}
	res.Saved = saved.Name()
	opts.logf("saved snapshot %s (%s) in %s", saved.Name(), humanBytes(saved.Bytes()), time.Since(t0).Round(time.Millisecond))
	return res, nil
}

// adviseWithoutSnapshot makes the advice of an interrupted load under
// --snapshot one that --snapshot accepts (see InterruptedError.Snapshot).
func adviseWithoutSnapshot(err error) error {
	if ie := (*InterruptedError)(nil); errors.As(err, &ie) {
		ie.Snapshot = true
	}
	if fe := (*failedError)(nil); errors.As(err, &fe) {
		fe.point.Snapshot = true
	}
	return err
}

// humanBytes prints a size in MiB or GiB.
func humanBytes(n int64) string {
	if n >= 1<<30 {
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
