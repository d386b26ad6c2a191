package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/replay/results"
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
// scheduler or a user would: the process ends cleanly, run.json says the run
// was interrupted, and what was recorded is in readable Parquet.
func TestRunSIGTERMKeepsResults(t *testing.T) {
	dsn := testdb.Fresh(t, "cmd_sigterm")
	if code, _ := runCaptured(t, "-q", "prepare", "--dsn", dsn, "--table-size", "200"); code != 0 {
		t.Fatalf("prepare: exit %d", code)
	}
	out := t.TempDir()
	args := []string{"-q", "run", "--dsn", dsn, "--out", out, "--run-id", "sig", "-s", "simple_inner_pk=1",
		"--table-size", "200", "--threads", "2", "--time", "5m"}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), mainArgsEnv+"="+strings.Join(args, "\x1f"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(out, "run=sig")
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(dir, results.RunFile)); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the run did not start within a minute\n%s", stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(time.Second) // let it record something
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("after SIGTERM: %v\n%s", err, stderr.String())
		}
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("the run did not stop within a minute of SIGTERM\n%s", stderr.String())
	}

	warn := func(err error) { t.Errorf("reading results: %v", err) }
	info := results.ReadRunInfo(dir, warn)
	if info == nil || !info.Interrupted || info.Executions == 0 {
		t.Fatalf("run.json: %+v, want an interrupted run with executions", info)
	}
	var rows int64
	files, err := results.ScanExecutions(dir, warn, func(e *results.Execution) error {
		rows++
		return nil
	})
	if err != nil || files == 0 || rows != info.Executions {
		t.Errorf("executions files: %d, rows %d, err %v; run.json counts %d", files, rows, err, info.Executions)
	}
	if matches, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(matches) > 0 {
		t.Errorf("unfinished files left after a clean stop: %v", matches)
	}
}
