//go:build e2e

package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/joinbench/joinbench/internal/ledger"
	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/internal/throttle"
)

// Two crashes of the whole cluster close together: the second comes while
// the first is recovering. However it goes, a run never exits 0 with a
// node down, and after it the next command finds every node running.
func TestOverlappingCrashesNeverLeaveTheClusterDownSilently(t *testing.T) {
	needGalera(t)
	sbDir := t.TempDir()
	startCluster(t, "overlap", sbDir, "128M")
	if code, out := runCaptured(t, "-q", "prepare", "--sandbox", "overlap", "--sandbox-dir", sbDir, "--table-size", "200"); code != 0 {
		t.Fatalf("prepare: exit %d\n%s", code, out)
	}
	code, out, errOut := runCapturedAll(t, "run", "--sandbox", "overlap", "--sandbox-dir", sbDir, "--out", t.TempDir(),
		"-s", "point_update=1", "--table-size", "200", "--threads", "3", "--time", "6s",
		"--action", "3s@all: crash", "--action", "5s@all: crash")
	named, err := sandbox.Open(sbDir, "overlap")
	if err != nil {
		t.Fatal(err)
	}
	running := named.RunningServers()
	if code == 0 && running != 3 {
		t.Fatalf("exit 0 with %d of 3 nodes running\n%s%s", running, out, errOut)
	}
	if running != 3 && !strings.Contains(out+errOut, "down") {
		t.Errorf("%d of 3 nodes running and nothing says so: exit %d\n%s%s", running, code, out, errOut)
	}
	if strings.Contains(errOut, "still running after SIGKILL") {
		t.Errorf("a crash gave up on its kill: the recovery must follow\n%s", errOut)
	}
	// The next command brings back what is down.
	if code, _, errOut := runCapturedAll(t, "sandbox", "repair", "--name", "overlap", "--sandbox-dir", sbDir); code != 0 {
		t.Fatalf("repair: exit %d\n%s", code, errOut)
	}
	if code, out, _ := runCapturedAll(t, "sandbox", "status", "--name", "overlap", "--sandbox-dir", sbDir); code != 0 {
		t.Fatalf("status after repair: exit %d\n%s", code, out)
	}
}

// A slow-node lesson killed while it holds every node at
// innodb_flush_log_at_trx_commit=1 with node3 throttled: the next command
// on the sandbox sets every node back and lifts the limit.
func TestKilledLessonIsSetBack(t *testing.T) {
	needGalera(t)
	sbDir := t.TempDir()
	startCluster(t, "lesson", sbDir, "128M")
	named, err := sandbox.Open(sbDir, "lesson")
	if err != nil {
		t.Fatal(err)
	}
	flush := func() []string {
		var vals []string
		for _, s := range named.Servers {
			db, err := sql.Open("mysql", "root@unix("+s.Socket+")/")
			if err != nil {
				t.Fatal(err)
			}
			var v string
			if err := db.QueryRow("SELECT @@innodb_flush_log_at_trx_commit").Scan(&v); err != nil {
				t.Fatal(err)
			}
			db.Close()
			vals = append(vals, v)
		}
		return vals
	}
	before := strings.Join(flush(), ",")
	cmd, stderr := startRun(t, "-q", "experiment", "slow-node", "--sandbox", "lesson", "--sandbox-dir", sbDir, "--out", t.TempDir(),
		"--table-size", "500", "--window", "30s", "--warmup", "0s", "--repetitions", "1", "--percent", "50", "--node", "node3")
	waitFor(t, cmd, stderr, "the setting noted in the ledger", func() bool {
		files, _ := filepath.Glob(filepath.Join(sbDir, "lesson", "ledger", "*-global-*.json"))
		return len(files) == 3
	})
	waitFor(t, cmd, stderr, "the setting made", func() bool { return strings.Join(flush(), ",") != before })
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	code, _, errOut := runCapturedAll(t, "-q", "run", "--sandbox", "lesson", "--sandbox-dir", sbDir, "--out", t.TempDir(),
		"-s", "point_select=1", "--table-size", "500", "--threads", "1", "--time", "1s")
	if code != 0 || !strings.Contains(errOut, "set back to") {
		t.Fatalf("the next run: exit %d\n%s", code, errOut)
	}
	if after := strings.Join(flush(), ","); after != before {
		t.Fatalf("innodb_flush_log_at_trx_commit %s after the next command, %s before the lesson", after, before)
	}
	if left, _ := named.Leftovers(); len(left) != 0 {
		t.Fatalf("leftovers after the next command: %v", left)
	}
}

// A run killed while it slows the server (a cgroup limit) and has
// resized its buffer pool leaves both noted in the sandbox's ledger:
// status names them and exits 1, and repair lifts the limit (the group
// is gone) and sets the pool back.
func TestKilledRunIsUndoneByRepair(t *testing.T) {
	root, dir := startNamed(t, "killed")
	s, err := sandbox.Lookup(root, "killed")
	if err != nil {
		t.Fatal(err)
	}
	if err := throttle.Check(throttle.CPU, s.DataDir); err != nil {
		testdb.Skipf(t, "cannot limit a process here: %v", err)
	}
	db := sandboxDB(t, root, "killed")
	var poolBefore int64
	if err := db.QueryRow("SELECT @@innodb_buffer_pool_size").Scan(&poolBefore); err != nil {
		t.Fatal(err)
	}
	if code, out := runCaptured(t, "-q", "prepare", "--sandbox", "killed", "--sandbox-dir", root, "--table-size", "200"); code != 0 {
		t.Fatalf("prepare: exit %d\n%s", code, out)
	}
	cmd, stderr := startRun(t, "-q", "run", "--sandbox", "killed", "--sandbox-dir", root, "--out", t.TempDir(),
		"-s", "point_update=1", "--table-size", "200", "--threads", "1", "--time", "5m", "--buffer-pool-size", "32M",
		"--action", "0s@killed: slow 50% cpu for 5m")
	waitFor(t, cmd, stderr, "a cgroup noted in the ledger", func() bool {
		for _, f := range ledgerFiles(dir) {
			if strings.Contains(f, "-cgroup-") {
				return true
			}
		}
		return false
	})
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	groups, _ := filepath.Glob("/sys/fs/cgroup/*/*" + throttle.GroupPrefix + "*")
	groups2, _ := filepath.Glob("/sys/fs/cgroup/*" + throttle.GroupPrefix + "*")
	if len(groups)+len(groups2) == 0 {
		t.Fatalf("no %s* cgroup after the kill: the test killed too early to see a leftover", throttle.GroupPrefix)
	}
	code, out, errOut := runCapturedAll(t, "sandbox", "status", "--name", "killed", "--sandbox-dir", root)
	if code != 1 || !strings.Contains(out, "left by a joinbench that was killed") || !strings.Contains(out, "cgroup") {
		t.Fatalf("status after the kill: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCapturedAll(t, "sandbox", "repair", "--name", "killed", "--sandbox-dir", root)
	if code != 0 || !strings.Contains(errOut, "limit lifted") {
		t.Fatalf("repair: exit %d\n%s%s", code, out, errOut)
	}
	if f := ledgerFiles(dir); len(f) != 0 {
		t.Errorf("ledger after repair: %v", f)
	}
	b, _ := os.ReadFile("/proc/" + itoa(s.PID) + "/cgroup")
	if strings.Contains(string(b), throttle.GroupPrefix) {
		t.Errorf("the server is still in a group of joinbench's:\n%s", b)
	}
	var pool int64
	if err := db.QueryRow("SELECT @@innodb_buffer_pool_size").Scan(&pool); err != nil || pool != poolBefore {
		t.Errorf("buffer pool %d after repair, want %d (%v)", pool, poolBefore, err)
	}
	if code, out, errOut := runCapturedAll(t, "sandbox", "status", "--name", "killed", "--sandbox-dir", root); code != 0 {
		t.Errorf("status after repair: exit %d\n%s%s", code, out, errOut)
	}
}

// A server on the sandbox's data that its state does not name (a restart
// or restore killed before it saved the new pid) is named and stopped by
// the next start, never joined by a second server on the same data.
func TestOrphanServerIsStoppedNotJoined(t *testing.T) {
	root, dir := startNamed(t, "orphan")
	state := filepath.Join(dir, "sandbox.json")
	b, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	orphan := int(st["pid"].(float64))
	st["pid"] = 0 // as a killed restart leaves it: the new pid unsaved
	b, _ = json.Marshal(st)
	if err := os.WriteFile(state, b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCapturedAll(t, "sandbox", "status", "--name", "orphan", "--sandbox-dir", root)
	if code != 1 || !strings.Contains(out, "orphan server, pid "+itoa(orphan)) {
		t.Fatalf("status with an orphan: exit %d\n%s", code, out)
	}
	code, _, errOut := runCapturedAll(t, "sandbox", "start", "--name", "orphan", "--sandbox-dir", root)
	if code != 0 || !strings.Contains(errOut, "orphan server (pid "+itoa(orphan)+")") {
		t.Fatalf("start: exit %d\n%s", code, errOut)
	}
	s, err := sandbox.Lookup(root, "orphan")
	if err != nil {
		t.Fatal(err)
	}
	if !s.Running() || s.PID == orphan || len(s.Orphans()) != 0 {
		t.Fatalf("after start: pid %d running %v, orphans %v (the orphan was %d)", s.PID, s.Running(), s.Orphans(), orphan)
	}
	if syscall.Kill(orphan, 0) == nil && processOn(orphan, s.DataDir) {
		t.Fatalf("the orphan %d still runs on %s", orphan, s.DataDir)
	}
}

func processOn(pid int, dataDir string) bool {
	b, err := os.ReadFile("/proc/" + itoa(pid) + "/cmdline")
	return err == nil && strings.Contains(string(b), "--datadir="+dataDir)
}

// A lesson's flags are checked before its tables are loaded: a mistake
// exits 2 quoting the flag and leaves the server untouched.
func TestLessonFlagsCheckedBeforeTouching(t *testing.T) {
	root, _ := startNamed(t, "lesson")
	db := sandboxDB(t, root, "lesson")
	for _, args := range [][]string{
		{"hot-vs-uniform", "--repetitions", "0"},
		{"hot-vs-uniform", "--write-percent", "150"},
		{"slow-node", "--percent", "150"},
	} {
		code, out, errOut := runCapturedAll(t, append([]string{"experiment", "--sandbox", "lesson", "--sandbox-dir", root,
			"--table-size", "300", "--window", "1s", "--warmup", "0s", "--out", t.TempDir()}, args...)...)
		if code != 2 || !strings.Contains(errOut, args[1]) || strings.Contains(errOut, "@") {
			t.Errorf("experiment %v: exit %d, want 2 quoting %s\n%s%s", args, code, args[1], out, errOut)
		}
		var n int
		if err := db.QueryRow("SELECT COUNT(*) FROM information_schema.tables WHERE table_name = 'main1'").Scan(&n); err != nil || n != 0 {
			t.Fatalf("experiment %v touched the server: main1 exists (%d, %v)", args, n, err)
		}
	}
}

// A pt-online-schema-change a killed joinbench left on a sandbox (its
// triggers and copy, which the server keeps on disk) is dropped by
// sandbox stop before the server stops: a kept sandbox started again has
// none of them.
func TestSandboxStopRepairsFirst(t *testing.T) {
	root, dir := startNamed(t, "stopper")
	db := sandboxDB(t, root, "stopper")
	stmts := []string{"CREATE TABLE joinbench.big (id INT PRIMARY KEY)", "CREATE TABLE joinbench._big_new (id INT PRIMARY KEY)"}
	for _, op := range []string{"ins", "upd", "del"} {
		event := map[string]string{"ins": "INSERT", "upd": "UPDATE", "del": "DELETE"}[op]
		stmts = append(stmts, "CREATE TRIGGER joinbench.pt_osc_joinbench_big_"+op+" AFTER "+event+" ON joinbench.big FOR EACH ROW SET @x = 1")
	}
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	gone := ledger.Self()
	gone.Start++ // this pid at another start time: a dead joinbench's
	if _, err := sandbox.LedgerOf(dir).Add(ledger.Entry{Kind: sandbox.ChangeOnlineSchemaChange, What: "pt-online-schema-change on joinbench.big",
		Undo: map[string]string{"database": "joinbench", "table": "big"}, Owner: gone}); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCapturedAll(t, "sandbox", "stop", "--name", "stopper", "--sandbox-dir", root, "--keep")
	if code != 0 || !strings.Contains(errOut, "triggers and copy dropped") {
		t.Fatalf("stop: exit %d\n%s%s", code, out, errOut)
	}
	if f := ledgerFiles(dir); len(f) != 0 {
		t.Errorf("ledger after stop: %v", f)
	}
	if code, out := runCaptured(t, "sandbox", "start", "--name", "stopper", "--sandbox-dir", root, "-q"); code != 0 {
		t.Fatalf("start again: exit %d\n%s", code, out)
	}
	db = sandboxDB(t, root, "stopper")
	var n int
	if err := db.QueryRow(`SELECT (SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = 'joinbench')
		+ (SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'joinbench' AND TABLE_NAME = '_big_new')`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d triggers and copies after stop and start (%v)", n, err)
	}
}

// startNamed starts a single-server named sandbox of the test's own,
// stopped and removed when the test ends, and returns its folder.
func startNamed(t *testing.T, name string) (root, dir string) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a sandbox server; skipped with -short")
	}
	if _, err := sandbox.FindBinary(context.Background(), ""); err != nil {
		testdb.Skipf(t, "%v", err)
	}
	root = t.TempDir()
	code, out := runCaptured(t, "sandbox", "start", "--name", name, "--sandbox-dir", root, "--buffer-pool-size", "64M", "-q")
	t.Cleanup(func() { runCaptured(t, "sandbox", "stop", "--name", name, "--sandbox-dir", root, "-q") })
	if code != 0 {
		t.Fatalf("sandbox start: exit %d\n%s", code, out)
	}
	return root, filepath.Join(root, name)
}

// sandboxDB opens the named sandbox's server over its socket.
func sandboxDB(t *testing.T, root, name string) *sql.DB {
	t.Helper()
	s, err := sandbox.Lookup(root, name)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("mysql", "root@unix("+s.Socket+")/")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func ledgerFiles(dir string) []string {
	files, _ := filepath.Glob(filepath.Join(dir, "ledger", "*.json"))
	return files
}
