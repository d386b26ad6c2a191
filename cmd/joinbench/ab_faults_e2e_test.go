//go:build e2e

package main

import (
	"database/sql"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/internal/testserver"
)

// TestABFailedCandidate: ab never passes a candidate whose server stops
// answering (SIGSTOP) or dies (SIGKILL) in the middle of the experiment:
// in lockstep the comparison fails in one line naming the candidate, and
// with rounds a server that answered a round and then cannot be reached
// is a failure (exit 1), not a usage error. Each server is the test's
// own: they are stopped and killed.
func TestABFailedCandidate(t *testing.T) {
	base := prepareOn(t, testdb.FreshOn(t, testserver.Own(t), "ab_base"))
	stopped := prepareOn(t, testdb.FreshOn(t, testserver.Own(t), "ab_stopped"))
	killed := prepareOn(t, testdb.FreshOn(t, testserver.Own(t), "ab_killed"))
	load := []string{"-s", "simple_inner_pk", "-s", "simple_left_pk", "--table-size", "200", "--threads", "2",
		"--warmup", "200ms", "--explain", "off", "--out", t.TempDir()}

	lockstep := func(cand, id string, fault func()) (int, string) {
		t.Helper()
		cmd, stderr := startRun(t, append([]string{"ab", "--base", base, "--candidate", cand, "--time", "1s", "--rounds", "4", "--run-id", id}, load...)...)
		waitFor(t, cmd, stderr, "the first slice", func() bool { return strings.Contains(stderr.String(), "slice 1/4 done") })
		fault()
		return waitExitWithin(t, cmd, stderr), stderr.String()
	}

	db := openDB(t, stopped)
	var cont func()
	code, stderr := lockstep(stopped, "stop", func() { cont, _ = testdb.StopServer(t, db, stopLimit) })
	cont()
	if code != 1 || !strings.Contains(stderr, "the candidate failed: ") || !strings.Contains(stderr, "neither side completed a statement in slice") {
		t.Errorf("lockstep, candidate stopped: exit %d\n%s", code, stderr)
	}

	code, stderr = lockstep(killed, "kill", func() { killServer(t, openDB(t, killed)) })
	if code != 1 || !strings.Contains(stderr, "the candidate failed: it completed no statement in slice") {
		t.Errorf("lockstep, candidate killed: exit %d\n%s", code, stderr)
	}

	// With rounds, the candidate stops answering after its first round.
	cmd, out := startRun(t, append([]string{"ab", "--base", base, "--candidate", stopped, "--time", "1s", "--rounds", "2",
		"--interleave", "rounds", "--run-id", "rounds"}, load...)...)
	waitFor(t, cmd, out, "the candidate's first round", func() bool { return strings.Contains(out.String(), "round 1/2 candidate") })
	cont, _ = testdb.StopServer(t, db, stopLimit)
	code = waitExitWithin(t, cmd, out)
	cont()
	if code != 1 || !strings.Contains(out.String(), "candidate") {
		t.Errorf("rounds, candidate stopped: exit %d\n%s", code, out)
	}
}

// killServer kills the server of db with SIGKILL, as a crash.
func killServer(t *testing.T, db *sql.DB) {
	t.Helper()
	var pidFile string
	if err := db.QueryRow("SELECT @@pid_file").Scan(&pidFile); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
}
