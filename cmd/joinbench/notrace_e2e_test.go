//go:build e2e

package main

import (
	"database/sql"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/joinbench/joinbench/internal/server/sandbox"
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
