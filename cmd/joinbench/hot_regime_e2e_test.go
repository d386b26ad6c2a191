//go:build e2e

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/internal/throttle"
)

// hotRegimeArgs run hot-vs-uniform short on a tiny main1, with a flush
// method other than the server's default (MariaDB's is O_DIRECT), so
// that the lesson restarts its server, and a read cap.
func hotRegimeArgs(root, out string) []string {
	return []string{"experiment", "hot-vs-uniform", "--sandbox", "hvr", "--sandbox-dir", root, "--out", out,
		"--flush-method", "fsync", "--read-iops", "1500", "--pool-share", "0.5",
		"--table-size", "2000", "--threads", "1", "--window", "3s", "--warmup", "0s",
		"--repetitions", "1", "--write-percent", "0,50"}
}

// regimeState is what the test's sandbox runs with: its flush method
// and its buffer pool.
type regimeState struct {
	flush string
	pool  int64
}

func readRegime(t *testing.T, root string) regimeState {
	t.Helper()
	db := sandboxDB(t, root, "hvr")
	var r regimeState
	if err := db.QueryRow("SELECT @@innodb_flush_method, @@innodb_buffer_pool_size").Scan(&r.flush, &r.pool); err != nil {
		t.Fatal(err)
	}
	return r
}

// heldCap is the read cap in force on the sandbox's server: the content
// of the read IOPS control file of the blkio group it is in, "" when it
// is in none of joinbench's.
func heldCap(t *testing.T, root string) string {
	t.Helper()
	s, err := sandbox.Lookup(root, "hvr")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(s.PID), "cgroup"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 || !strings.Contains(","+parts[1]+",", ",blkio,") {
			continue
		}
		if !strings.HasPrefix(filepath.Base(parts[2]), throttle.GroupPrefix) {
			return ""
		}
		limit, err := os.ReadFile(filepath.Join("/sys/fs/cgroup/blkio", parts[2], "blkio.throttle.read_iops_device"))
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(limit))
	}
	return ""
}

// needRegime starts the test's sandbox, or skips where the lesson's read
// cap cannot be set (no cgroup v1 blkio writable here: the test reads its
// files).
func needRegime(t *testing.T) (root, dir string, before regimeState) {
	t.Helper()
	if _, err := os.Stat("/sys/fs/cgroup/blkio"); err != nil {
		testdb.Skipf(t, "no cgroup v1 blkio hierarchy to read the cap from: %v", err)
	}
	root, dir = startNamed(t, "hvr")
	if err := throttle.Check(throttle.IO, dir); err != nil {
		testdb.Skipf(t, "%v", err)
	}
	before = readRegime(t, root)
	if strings.EqualFold(before.flush, "fsync") {
		t.Skipf("the server runs with fsync already: the test needs a flush method to change")
	}
	return root, dir, before
}

// hot-vs-uniform's regime, checked as mechanisms while the lesson holds
// it and after: its server restarted with the flush method asked for and
// its reads capped (the cgroup file holding the cap), then, once the
// lesson is over, its own flush method and pool again, in no group of
// joinbench's, the ledger empty, and the page saying what it ran with.
func TestHotUniformRegimeHeldThenUndone(t *testing.T) {
	root, dir, before := needRegime(t)
	out := filepath.Join(t.TempDir(), "out")
	cmd, stderr := startRun(t, hotRegimeArgs(root, out)...)
	waitFor(t, cmd, stderr, "the lesson's first run", func() bool { return strings.Contains(stderr.String(), "run w0-uniform-1:") })
	held := readRegime(t, root)
	if !strings.EqualFold(held.flush, "fsync") {
		t.Errorf("while the lesson holds: innodb_flush_method %s, want fsync", held.flush)
	}
	if c := heldCap(t, root); !strings.HasSuffix(c, " 1500") {
		t.Errorf("while the lesson holds: read cap %q, want DEVICE 1500", c)
	}
	if len(ledgerFiles(dir)) < 3 {
		t.Errorf("while the lesson holds: ledger %v, want the restart, the pool and the cap noted", ledgerFiles(dir))
	}
	if code := waitExit(t, cmd, stderr); code != 0 {
		t.Fatalf("experiment: exit %d\n%s", code, stderr.String())
	}
	after := readRegime(t, root)
	if !strings.EqualFold(after.flush, before.flush) || after.pool != before.pool {
		t.Errorf("after the lesson: %+v, want %+v again", after, before)
	}
	if c := heldCap(t, root); c != "" {
		t.Errorf("after the lesson the server is still capped: %q", c)
	}
	checkNoThrottleLeft(t, root)
	if left := ledgerFiles(dir); len(left) > 0 {
		t.Errorf("ledger entries left: %v", left)
	}
	md, err := os.ReadFile(filepath.Join(out, "hot-vs-uniform.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"innodb_flush_method=fsync, restarted with it", "held at 1500 a second", "clustered index"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("page lacks %q:\n%s", want, md)
		}
	}
}

// A lesson killed (SIGKILL) while it holds its regime leaves its ledger
// to the next command on the sandbox, which lifts the cap, gives the
// server its own flush method again and its pool, and empties the ledger.
func TestHotUniformKilledIsUndoneByTheNextCommand(t *testing.T) {
	root, dir, before := needRegime(t)
	out := filepath.Join(t.TempDir(), "out")
	cmd, stderr := startRun(t, hotRegimeArgs(root, out)...)
	waitFor(t, cmd, stderr, "the lesson's first run", func() bool { return strings.Contains(stderr.String(), "run w0-uniform-1:") })
	if c := heldCap(t, root); c == "" {
		t.Fatalf("no cap held when the lesson is killed")
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if code, out := runCaptured(t, "sandbox", "repair", "--name", "hvr", "--sandbox-dir", root); code != 0 {
		t.Fatalf("sandbox repair: exit %d\n%s", code, out)
	}
	after := readRegime(t, root)
	if !strings.EqualFold(after.flush, before.flush) || after.pool != before.pool {
		t.Errorf("after the repair: %+v, want %+v again", after, before)
	}
	if c := heldCap(t, root); c != "" {
		t.Errorf("after the repair the server is still capped: %q", c)
	}
	checkNoThrottleLeft(t, root)
	if left := ledgerFiles(dir); len(left) > 0 {
		t.Errorf("ledger entries left: %v", left)
	}
}
