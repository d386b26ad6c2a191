package load

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/joinbench/joinbench/internal/sqllex"
	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/internal/usage"
)

// logLines collects what Prepare logs.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) log(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, s)
}

func (l *logLines) text() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// snapshotDB is a fresh database on the test server, skipping the test
// when the server's data directory is not on this machine.
func snapshotDB(t *testing.T, name string) *sql.DB {
	t.Helper()
	db := openDSN(t, testdb.Fresh(t, name))
	if _, err := inspectSnapshotServer(context.Background(), db); err != nil {
		if usage.Is(err) {
			testdb.Skipf(t, "the test server cannot take snapshots here: %v", err)
		}
		t.Fatal(err)
	}
	return db
}

// savedSnapshot prepares a dataset of one table of size rows in a fresh
// database, as the first prepare with --snapshot does, and returns the
// database, the options (logging to logs) and the snapshot it saved.
func savedSnapshot(t *testing.T, name string, size int64) (*sql.DB, PrepareOptions, *Snapshot, *logLines) {
	t.Helper()
	db := snapshotDB(t, name)
	logs := &logLines{}
	o := baseOpts()
	o.Schema.Tables = 1
	o.Gen.TableSize = size
	o.Snapshots = &SnapshotStore{Dir: t.TempDir()}
	o.Log = logs.log
	res, err := Prepare(context.Background(), db, o)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := readSnapshot(filepath.Join(o.Snapshots.Dir, res.Saved))
	if err != nil {
		t.Fatal(err)
	}
	return db, o, snap, logs
}

func dropAll(t *testing.T, db *sql.DB, names []string) {
	t.Helper()
	for _, n := range names {
		if _, err := db.Exec("DROP TABLE IF EXISTS " + sqllex.QuoteIdent(n)); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSnapshotSaveDropRestoreSameChecksums(t *testing.T) {
	ctx := context.Background()
	db := snapshotDB(t, "ddl_snapshot")
	var logs logLines
	o := baseOpts()
	o.Threads = 2
	o.Snapshots = &SnapshotStore{Dir: t.TempDir()}
	o.Log = logs.log
	names := o.Schema.TableNames()

	res, err := Prepare(ctx, db, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Restored != "" || res.Saved == "" {
		t.Fatalf("first prepare: restored %q, saved %q; log:\n%s", res.Restored, res.Saved, logs.text())
	}
	want := checksums(t, db, names)
	list, err := o.Snapshots.List()
	if err != nil || len(list) != 1 || list[0].Name() != res.Saved {
		t.Fatalf("list: %v %v", list, err)
	}
	for _, tab := range list[0].Manifest.Tables {
		if len(tab.Files) != 2 || tab.Files[0].Size == 0 || !strings.HasPrefix(tab.Create, "CREATE TABLE") {
			t.Errorf("manifest of %s: %+v", tab.Name, tab)
		}
	}

	dropAll(t, db, names)
	res, err = Prepare(ctx, db, o)
	if err != nil {
		t.Fatalf("restore: %v\n%s", err, logs.text())
	}
	if res.Restored != list[0].Name() || res.Saved != "" || res.Rows != int64(len(names))*testSize {
		t.Fatalf("second prepare: restored %q, saved %q, %d rows", res.Restored, res.Saved, res.Rows)
	}
	if got := checksums(t, db, names); !equalSums(got, want) {
		t.Errorf("restored checksums %v, fresh load %v", got, want)
	}
	for _, n := range names {
		if c := count(t, db, n); c != testSize {
			t.Errorf("%s has %d rows after the restore", n, c)
		}
	}
	// the export's metadata files are not left in the data directory
	srv, err := inspectSnapshotServer(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if cfgs, _ := filepath.Glob(filepath.Join(srv.Dir, "*.cfg")); len(cfgs) != 0 {
		t.Errorf("left in the data directory: %v", cfgs)
	}
	// the statistics describe the restored rows
	var statRows int64
	if err := db.QueryRow("SELECT n_rows FROM mysql.innodb_table_stats WHERE database_name = DATABASE() AND table_name = ?", names[0]).Scan(&statRows); err != nil {
		t.Fatal(err)
	}
	if statRows < testSize/2 || statRows > 2*testSize {
		t.Errorf("statistics of %s say %d rows", names[0], statRows)
	}

	// existing tables are an error without --recreate, as for a load
	_, err = Prepare(ctx, db, o)
	if !usage.Is(err) || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("restore over existing tables: %v", err)
	}
	// over existing tables with --recreate, in unlogged sessions
	o.Recreate, o.SkipBinlog = true, true
	if res, err = Prepare(ctx, db, o); err != nil || res.Restored == "" {
		t.Fatalf("restore with recreate: %v", err)
	}
	if got := checksums(t, db, names); !equalSums(got, want) {
		t.Errorf("checksums after restoring over the tables %v, fresh load %v", got, want)
	}
}

func equalSums(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestSnapshotOfAnotherServerRefusedAndLoadedAfresh(t *testing.T) {
	ctx := context.Background()
	db, o, saved, logs := savedSnapshot(t, "ddl_snapshot_mismatch", 300)
	want := checksums(t, db, o.Schema.TableNames())

	// pretend the snapshot was taken on another server version
	man := saved.Manifest
	realKey := man.Key
	man.Key.Server.Version = "8.0.99-other"
	writeManifest(t, saved.Dir, man)
	snapDir := filepath.Join(o.Snapshots.Dir, man.Key.Name())
	if err := os.Rename(saved.Dir, snapDir); err != nil {
		t.Fatal(err)
	}

	// restoring it directly is refused, naming the difference
	srv, err := inspectSnapshotServer(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := readSnapshot(snapDir)
	if err != nil {
		t.Fatal(err)
	}
	o.Recreate = true
	_, err = restoreSnapshot(ctx, db, srv, snap, realKey, o)
	var mm *SnapshotMismatchError
	if !errors.As(err, &mm) || !strings.Contains(mm.Reason, "its server version 8.0.99-other, the target's is "+realKey.Server.Version) {
		t.Fatalf("mismatched restore: %v", err)
	}

	// prepare says why it does not use it, loads afresh and saves a
	// snapshot for this server next to it
	res, err := Prepare(ctx, db, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Restored != "" || res.Saved == "" || res.Saved == snap.Name() {
		t.Fatalf("restored %q, saved %q", res.Restored, res.Saved)
	}
	if !strings.Contains(logs.text(), "snapshot "+snap.Name()+" does not fit this server: its server version 8.0.99-other") {
		t.Errorf("the refusal is not logged:\n%s", logs.text())
	}
	if got := checksums(t, db, o.Schema.TableNames()); !equalSums(got, want) {
		t.Errorf("checksums %v, want %v", got, want)
	}
	if list, _ := o.Snapshots.List(); len(list) != 2 {
		t.Errorf("%d snapshots, want the refused one and the new one", len(list))
	}
}

func TestSnapshotRemove(t *testing.T) {
	st := SnapshotStore{Dir: t.TempDir()}
	dir := filepath.Join(st.Dir, "main1-10-seed1-uniform-0123456789abcdef")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, manifestFile), []byte(`{"key":{"format":1}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	// a folder being written (no manifest) is not a snapshot
	if err := os.MkdirAll(filepath.Join(st.Dir, "half-written"), 0o755); err != nil {
		t.Fatal(err)
	}
	list, err := st.List()
	if err != nil || len(list) != 1 {
		t.Fatalf("list: %d %v", len(list), err)
	}
	for _, bad := range []string{"", "..", "../x", ".hidden", "half-written"} {
		if err := st.Remove(bad); !usage.Is(err) {
			t.Errorf("remove %q: %v", bad, err)
		}
	}
	if err := st.Remove(list[0].Name()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("still there: %v", err)
	}
}

func TestSnapshotOptionsRefused(t *testing.T) {
	for name, mod := range map[string]func(*PrepareOptions){
		"engine":     func(o *PrepareOptions) { o.Schema.Engine = "Aria" },
		"from table": func(o *PrepareOptions) { o.FromTable = "level1" },
	} {
		o := baseOpts()
		o.Snapshots = &SnapshotStore{Dir: t.TempDir()}
		mod(&o)
		if err := o.check(); !usage.Is(err) || !strings.Contains(err.Error(), "--snapshot") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestSnapshotDataDirMustBeHere(t *testing.T) {
	dir := t.TempDir()
	err := checkLocalDir(dir, filepath.Join(dir, "nosuchdb"))
	if !usage.Is(err) || !strings.Contains(err.Error(), "must run on this machine") {
		t.Errorf("missing folder: %v", err)
	}
	if err := checkLocalDir(dir, dir); err != nil {
		t.Errorf("a writable folder: %v", err)
	}
}

func TestSnapshotFilesGivenToTheServersUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to give a file away")
	}
	dir := t.TempDir()
	const nobody = 65534
	if err := os.Chown(dir, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(dir, "t.ibd")
	if err := os.WriteFile(f, []byte("x"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := giveToOwnerOf(f, dir); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(f)
	if err != nil {
		t.Fatal(err)
	}
	if st := fi.Sys().(*syscall.Stat_t); st.Uid != nobody || st.Gid != nobody {
		t.Errorf("owned by %d:%d, want the folder's owner %d:%d", st.Uid, st.Gid, nobody, nobody)
	}
}

func TestSnapshotCopyIsWholeOrFails(t *testing.T) {
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "src"), filepath.Join(dir, "dst")
	if err := os.WriteFile(src, make([]byte, 100_000), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := copyFile(src, dst, 100_000, true); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(dst); err != nil || fi.Size() != 100_000 {
		t.Fatalf("copy: %v %v", fi, err)
	}
	// a file that is not the size it had when the copy was decided is
	// being written: no copy is left
	if err := copyFile(src, dst, 99_000, false); err == nil || !strings.Contains(err.Error(), "changed during the copy") {
		t.Errorf("torn copy: %v", err)
	}
	if _, err := os.Stat(dst); !os.IsNotExist(err) {
		t.Errorf("a torn copy was left: %v", err)
	}
}

func TestSnapshotNotRestoredThroughTheBinaryLog(t *testing.T) {
	logged := &snapshotServer{binlog: true}
	if why := logged.cannotRestore(PrepareOptions{}); !strings.Contains(why, "--skip-binlog") {
		t.Errorf("binlogging server: %q", why)
	}
	if why := logged.cannotRestore(PrepareOptions{SkipBinlog: true}); why != "" {
		t.Errorf("binlogging server with --skip-binlog: %q", why)
	}
	if why := (&snapshotServer{}).cannotRestore(PrepareOptions{}); why != "" {
		t.Errorf("no binary log: %q", why)
	}
}

// A fresh load under --snapshot that is interrupted advises what
// --snapshot accepts: resuming without it (which saves no snapshot) or
// loading afresh with --recreate (which saves one). Both work as advised.
func TestSnapshotInterruptedLoadAdvice(t *testing.T) {
	ctx := context.Background()
	db := snapshotDB(t, "ddl_snapshot_resume")
	o := baseOpts()
	o.Threads, o.ChunkSize = 2, 200
	o.Snapshots = &SnapshotStore{Dir: t.TempDir()}
	names := o.Schema.TableNames()

	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	o.Progress = &cancelAfter{n: 2*testSize + 400, cancel: cancel}
	_, err := Prepare(cctx, db, o)
	var ie *InterruptedError
	if !errors.As(err, &ie) || !usage.Is(err) {
		t.Fatalf("interrupted prepare: %v, want an InterruptedError", err)
	}
	msg := err.Error()
	for _, s := range []string{"without --snapshot, plus --from-table " + ie.Table, "--recreate"} {
		if !strings.Contains(msg, s) {
			t.Errorf("advice %q lacks %q", msg, s)
		}
	}
	o.Progress = nil

	// As advised, with --snapshot: refused, and the refusal says why.
	resumed := o
	resumed.FromTable, resumed.FromRow = ie.Table, ie.Row
	if _, err := Prepare(ctx, db, resumed); !usage.Is(err) || !strings.Contains(err.Error(), "resume without --snapshot") {
		t.Errorf("--snapshot --from-table: %v", err)
	}
	// Without it: resumed, every row in, no snapshot saved.
	resumed.Snapshots = nil
	res, err := Prepare(ctx, db, resumed)
	if err != nil {
		t.Fatalf("resume without --snapshot: %v", err)
	}
	if res.Saved != "" {
		t.Errorf("a resumed load saved snapshot %s", res.Saved)
	}
	for _, n := range names {
		if c := count(t, db, n); c != testSize {
			t.Errorf("%s after resume: %d rows", n, c)
		}
	}
	if list, err := o.Snapshots.List(); err != nil || len(list) != 0 {
		t.Errorf("snapshots after a resumed load: %v %v", list, err)
	}
	want := checksums(t, db, names)

	// Or afresh, with --recreate: loaded again and saved.
	afresh := o
	afresh.Recreate = true
	res, err = Prepare(ctx, db, afresh)
	if err != nil || res.Saved == "" {
		t.Fatalf("--snapshot --recreate: saved %q, %v", res.Saved, err)
	}
	if got := checksums(t, db, names); !equalSums(got, want) {
		t.Errorf("checksums loaded afresh %v, resumed %v", got, want)
	}
}

// The advice of a load that failed with rows left behind follows
// --snapshot too.
func TestInterruptedAdviceUnderSnapshot(t *testing.T) {
	point := &InterruptedError{Table: "main2", Row: 401}
	fe := &failedError{err: errors.New("connection lost"), point: point}
	if got := adviseWithoutSnapshot(fe).Error(); !strings.HasPrefix(got, "connection lost (load interrupted; resume with the same options but without --snapshot, plus --from-table main2 --from-row 401") {
		t.Errorf("failed load: %q", got)
	}
	plain := &InterruptedError{Table: "level1", Row: 1}
	if got := usage.Wrap(plain).Error(); got != "load interrupted; resume with the same options plus --from-table level1 --from-row 1" {
		t.Errorf("without --snapshot: %q", got)
	}
}
