package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/results"
)

// mainArgsEnv makes the test binary behave as joinbench itself, so a test
// can run the real command in a child process and signal it.
const mainArgsEnv = "JOINBENCH_TEST_MAIN_ARGS"

func TestMain(m *testing.M) {
	if args := os.Getenv(mainArgsEnv); args != "" {
		os.Exit(run(strings.Split(args, "\x1f")))
	}
	os.Exit(m.Run())
}

// TestRunSIGTERMKeepsResults stops a running replay with SIGTERM, as a
// scheduler or a user would: the process ends cleanly with exit status 130,
// run.json says the run was interrupted, and what was recorded is in
// readable Parquet, made of the journal as the run stopped.
func TestRunSIGTERMKeepsResults(t *testing.T) {
	dsn := testdb.Fresh(t, "cmd_sigterm")
	if code, _ := runCaptured(t, "-q", "prepare", "--dsn", dsn, "--table-size", "200"); code != 0 {
		t.Fatalf("prepare: exit %d", code)
	}
	out := t.TempDir()
	args := []string{"-q", "run", "--dsn", dsn, "--out", out, "--run-id", "sig", "-s", "simple_inner_pk=1",
		"--table-size", "200", "--threads", "2", "--time", "5m"}
	cmd, stderr := startRun(t, args...)
	dir := filepath.Join(out, "run=sig")
	waitFor(t, cmd, stderr, "executions recorded", recorded(dir))
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := waitExit(t, cmd, stderr); code != exitInterrupted {
		t.Fatalf("after SIGTERM: exit %d, want %d\n%s", code, exitInterrupted, stderr.String())
	}

	warn := func(err error) { t.Errorf("reading results: %v", err) }
	info := results.ReadRunInfo(dir, warn)
	if info == nil || !info.Interrupted || info.Executions == 0 {
		t.Fatalf("run.json: %+v, want an interrupted run with executions", info)
	}
	// A statement in flight when the signal came is cut: its row is in
	// the files, marked, and run.json counts it apart from the executions.
	var rows, cut int64
	files, err := results.ScanExecutions(dir, warn, func(e *results.Execution) error {
		if e.CutAtEnd {
			cut++
		} else {
			rows++
		}
		return nil
	})
	if err != nil || files == 0 || rows != info.Executions || cut != info.CutAtEnd {
		t.Errorf("executions files: %d, rows %d and %d cut, err %v; run.json counts %d and %d cut",
			files, rows, cut, err, info.Executions, info.CutAtEnd)
	}
	for _, pattern := range []string{"*.tmp", results.JournalGlob} {
		if matches, _ := filepath.Glob(filepath.Join(dir, pattern)); len(matches) > 0 {
			t.Errorf("unfinished files left after a clean stop: %v", matches)
		}
	}
}

// waitFor polls cond until it holds; the child is killed and the test
// failed when it does not within a minute.
func waitFor(t *testing.T, cmd *exec.Cmd, stderr fmt.Stringer, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no %s within a minute\n%s", what, stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitExit waits for the child to end, a minute at most, and returns its
// exit status.
func waitExit(t *testing.T, cmd *exec.Cmd, stderr fmt.Stringer) int {
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
			t.Fatalf("wait: %v\n%s", err, stderr.String())
		}
		return 0
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		t.Fatalf("the run did not end within a minute\n%s", stderr.String())
	}
	return -1
}
