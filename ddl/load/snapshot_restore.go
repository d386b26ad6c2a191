package load

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/joinbench/joinbench/internal/sqllex"
	"github.com/joinbench/joinbench/internal/usage"
)

// SnapshotMismatchError is a snapshot refused because it was taken of
// another dataset or on a server whose files differ from the target's.
type SnapshotMismatchError struct {
	Name   string
	Reason string
}

func (e *SnapshotMismatchError) Error() string {
	return fmt.Sprintf("snapshot %s does not fit: %s", e.Name, e.Reason)
}

// restoreSnapshot puts the tables of snap into the current database with
// transportable tablespaces: each table is created as it was exported,
// its empty tablespace discarded, the snapshot's files copied in (owned by
// the server's user) and verified against their checksums, imported and
// analysed (ANALYZE TABLE), as after a load.
// A snapshot whose key is not want is refused with the reason, and one
// missing a file or holding one of another size is refused as damaged,
// before anything is touched; a copy whose checksum differs is refused as
// damaged before its import. Tables run in parallel on opts.Threads
// sessions.
func restoreSnapshot(ctx context.Context, db *sql.DB, srv *snapshotServer, snap *Snapshot, want SnapshotKey, opts PrepareOptions) (*PrepareResult, error) {
	start := time.Now()
	if opts.Progress != nil {
		opts.Progress.Finish() // an import has no rows to count
	}
	if why := snap.Manifest.Key.Mismatch(want); why != "" {
		return nil, &SnapshotMismatchError{Name: snap.Name(), Reason: why}
	}
	if err := checkSnapshotFiles(snap); err != nil {
		return nil, usage.Wrap(err)
	}
	names := make([]string, len(snap.Manifest.Tables))
	for i, t := range snap.Manifest.Tables {
		names[i] = t.Name
	}
	existing, err := ExistingTables(ctx, db, names)
	if err != nil {
		return nil, err
	}
	if len(existing) > 0 && !opts.Recreate {
		return nil, usage.Errorf("table %s already exists in database %s (%d of the %d tables exist): use --recreate to drop and reload them, or joinbench cleanup",
			existing[0], srv.Database, len(existing), len(names))
	}
	// every statement runs in sessions like a load's: unlogged with
	// SkipBinlog, so that replicas get no DDL for files they lack
	main, err := loadSession(ctx, db, opts)
	if err != nil {
		return nil, err
	}
	defer main.Close()
	for _, t := range existing {
		if _, err := main.ExecContext(ctx, "DROP TABLE "+sqllex.QuoteIdent(t)); err != nil {
			return nil, fmt.Errorf("drop %s: %w", t, err)
		}
	}
	if len(existing) > 0 {
		opts.logf("dropped %d tables in %s", len(existing), time.Since(start).Round(time.Millisecond))
	}

	res := &PrepareResult{Method: opts.Method, Restored: snap.Name()}
	jobs := make(chan int)
	errs := make([]error, len(snap.Manifest.Tables))
	stats := make([]TableStats, len(snap.Manifest.Tables))
	var wg sync.WaitGroup
	for range min(opts.Threads, len(names)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := loadSession(ctx, db, opts)
			if conn != nil {
				defer conn.Close()
			}
			for i := range jobs {
				if err != nil {
					errs[i], err = err, errSessionFailed // said once
					continue
				}
				if err == errSessionFailed {
					continue
				}
				stats[i], errs[i] = restoreTable(ctx, conn, srv, snap, snap.Manifest.Tables[i], opts)
			}
		}()
	}
	for i := range names {
		if ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		if damaged := (*SnapshotDamagedError)(nil); errors.As(err, &damaged) {
			return nil, usage.Wrap(damaged)
		}
		return nil, fmt.Errorf("%w (the tables are left as they are: prepare again with --recreate, or joinbench cleanup)", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res.Tables = stats
	res.Rows = opts.Gen.TableSize * int64(len(names))
	res.Duration = time.Since(start)
	return res, nil
}

// errSessionFailed marks a session that could not be opened, once its
// error has been reported.
var errSessionFailed = errors.New("session failed")

// restoreTable imports one table of snap and analyses it. It is analysed
// as soon as it is in, while the other sessions import: ANALYZE TABLE
// waits on random reads of a few pages per index, which overlap the
// imports' writes.
func restoreTable(ctx context.Context, conn *sql.Conn, srv *snapshotServer, snap *Snapshot, t SnapshotTable, opts PrepareOptions) (TableStats, error) {
	t0 := time.Now()
	if err := importTable(ctx, conn, srv, snap, t); err != nil {
		return TableStats{}, err
	}
	st := TableStats{Name: t.Name, Rows: opts.Gen.TableSize, Load: time.Since(t0)}
	analysed := ""
	if !opts.NoAnalyze {
		t1 := time.Now()
		if err := drain(conn.QueryContext(ctx, "ANALYZE TABLE "+sqllex.QuoteIdent(t.Name))); err != nil {
			return TableStats{}, fmt.Errorf("analyze %s: %w", t.Name, err)
		}
		analysed = fmt.Sprintf(", analysed in %s", time.Since(t1).Round(time.Millisecond))
	}
	opts.logf("imported %s (%s) in %s%s", t.Name, humanBytes(t.bytes()), st.Load.Round(time.Millisecond), analysed)
	return st, nil
}

// importTable creates one table of the snapshot and imports its files.
func importTable(ctx context.Context, db *sql.Conn, srv *snapshotServer, snap *Snapshot, t SnapshotTable) (err error) {
	q := sqllex.QuoteIdent(t.Name)
	if _, err := db.ExecContext(ctx, t.Create); err != nil {
		return fmt.Errorf("restore %s: create: %w", t.Name, err)
	}
	if _, err := db.ExecContext(ctx, "ALTER TABLE "+q+" DISCARD TABLESPACE"); err != nil {
		return fmt.Errorf("restore %s: discard its tablespace: %w", t.Name, err)
	}
	var copied []string
	defer func() {
		// the server keeps the .cfg after the import; the files of a
		// failed import belong to no table, and DROP TABLE would leave them
		for _, p := range copied {
			if strings.HasSuffix(p, ".cfg") || err != nil {
				os.Remove(p)
			}
		}
	}()
	for _, f := range t.Files {
		dst := srv.filePath(t.Name, f.Ext)
		if err := copyFile(filepath.Join(snap.Dir, t.Name+f.Ext), dst, f.Size, false); err != nil {
			return fmt.Errorf("restore %s: %w", t.Name, err)
		}
		copied = append(copied, dst)
		if err := verifyCopy(snap, t, f, dst); err != nil {
			return err
		}
		if err := giveToOwnerOf(dst, srv.Dir); err != nil {
			return fmt.Errorf("restore %s: %w", t.Name, err)
		}
	}
	if _, err := db.ExecContext(ctx, "ALTER TABLE "+q+" IMPORT TABLESPACE"); err != nil {
		return fmt.Errorf("restore %s: import its tablespace: %w", t.Name, err)
	}
	return nil
}

func (t SnapshotTable) bytes() int64 {
	var n int64
	for _, f := range t.Files {
		n += f.Size
	}
	return n
}
