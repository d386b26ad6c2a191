package main

import (
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/joinbench/joinbench/analysis/compare"
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

// A stopped server is continued after stopLimit in any case; ab is given
// abWait to end before: with a server stopped at any point of a round's
// set-up, each of the run's bounded questions may wait its bound.
const (
	stopLimit = 5 * time.Minute
	abWait    = 4 * time.Minute
)

// waitExitWithin is waitExit with abWait for ab to end.
func waitExitWithin(t *testing.T, cmd *exec.Cmd, stderr *syncBuffer) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatalf("wait: %v\n%s", err, stderr)
		}
		return 0
	case <-time.After(abWait):
		cmd.Process.Kill()
		t.Fatalf("ab did not end within %s\n%s", abWait, stderr)
	}
	return -1
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

// TestABInterrupted: ab in lockstep interrupted by Ctrl-C exits 130 and
// keeps its runs, which compare then reads as the slices they began,
// saying they were interrupted (not as one round of pooled executions).
func TestABInterrupted(t *testing.T) {
	dsn := preparedDSN(t, "ab_interrupted")
	out := t.TempDir()
	cmd, stderr := startRun(t, "ab", "--base", dsn, "--candidate", dsn, "-s", "simple_inner_pk", "--table-size", "200", "--threads", "2",
		"--warmup", "200ms", "--time", "1s", "--rounds", "8", "--explain", "off", "--out", out, "--run-id", "cut")
	waitFor(t, cmd, stderr, "the second slice", func() bool { return strings.Contains(stderr.String(), "slice 2/8 done") })
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if code := waitExit(t, cmd, stderr); code != exitInterrupted {
		t.Fatalf("exit %d, want %d\n%s", code, exitInterrupted, stderr)
	}
	base, cand := filepath.Join(out, "ab=cut", "side=base"), filepath.Join(out, "ab=cut", "side=candidate")
	code, stdout, errOut := runCapturedAll(t, "compare", base, cand, "--format", "json", "--threshold", "1000%")
	var c compare.Comparison
	if err := json.Unmarshal([]byte(stdout), &c); err != nil {
		t.Fatalf("compare: exit %d, %v\n%s", code, err, errOut)
	}
	// The sides take turns statement by statement: the interrupt may come
	// after the base's first statement of a slice and before the
	// candidate's, so that slice was begun on one side only.
	if nb, nc := c.Base.Rounds, c.Candidate.Rounds; nb < 2 || nb >= 8 || nc < nb-1 || nc > nb+1 {
		t.Errorf("rounds %d/%d: want the slices begun, one apart at most", nb, nc)
	}
	if w := strings.Join(c.Warnings, "\n"); !strings.Contains(w, "the run was interrupted") {
		t.Errorf("warnings %q", c.Warnings)
	}
}
