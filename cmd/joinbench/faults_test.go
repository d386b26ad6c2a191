package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/results"
)

// startRun starts joinbench with args in a child process (see TestMain)
// and returns it with its stderr.
func startRun(t *testing.T, args ...string) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), mainArgsEnv+"="+strings.Join(args, "\x1f"))
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return cmd, stderr
}

// syncBuffer is a child's output, read while it writes.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// preparedDSN is a fresh database with the built-in tables, small.
func preparedDSN(t *testing.T, name string) string {
	t.Helper()
	return prepareOn(t, testdb.Fresh(t, name))
}

// prepareOn prepares the small dataset in the database of dsn.
func prepareOn(t *testing.T, dsn string) string {
	t.Helper()
	if code, _ := runCaptured(t, "-q", "prepare", "--dsn", dsn, "--table-size", "200"); code != 0 {
		t.Fatalf("prepare: exit %d", code)
	}
	return dsn
}

// finishedFiles waits for n finished executions files in dir.
func finishedFiles(n int, dir string) func() bool {
	return func() bool {
		files, _ := results.ExecutionFiles(dir)
		return len(files) >= n
	}
}

// recorded waits for executions in dir: a journal holding a frame, or a
// finished executions file (--live-results).
func recorded(dir string) func() bool {
	return func() bool {
		files, _ := filepath.Glob(filepath.Join(dir, results.JournalGlob))
		for _, f := range files {
			if st, err := os.Stat(f); err == nil && st.Size() > 64 {
				return true
			}
		}
		return finishedFiles(1, dir)()
	}
}

// journalFor waits for a journal in dir that has grown for a few seconds.
func journalFor(dir string) func() bool {
	var first time.Time
	return func() bool {
		files, _ := filepath.Glob(filepath.Join(dir, results.JournalGlob))
		if len(files) == 0 {
			return false
		}
		if first.IsZero() {
			first = time.Now()
		}
		return time.Since(first) > 3*time.Second
	}
}

// TestRunSIGKILLKeepsResults kills a running replay with SIGKILL, as the
// OOM killer or a lost machine would: the executions up to a moment
// before the kill are readable, and report says the run never ended. The
// journal of a killed run is made Parquet by report; with --live-results
// every executions file is readable as it was left.
func TestRunSIGKILLKeepsResults(t *testing.T) {
	dsn := preparedDSN(t, "cmd_sigkill")
	for _, mode := range []string{"journal", "live"} {
		t.Run(mode, func(t *testing.T) { sigkillKeepsResults(t, dsn, mode) })
	}
}

func sigkillKeepsResults(t *testing.T, dsn, mode string) {
	out := t.TempDir()
	args := []string{"-q", "run", "--dsn", dsn, "--out", out, "--run-id", "kill", "-s", "simple_inner_pk=1",
		"--table-size", "200", "--threads", "2", "--time", "5m"}
	dir := filepath.Join(out, "run=kill")
	ready, what := journalFor(dir), "a journal for 3 s"
	if mode == "live" {
		args = append(args, "--live-results")
		ready, what = finishedFiles(3, dir), "3 finished executions files"
	}
	cmd, stderr := startRun(t, args...)
	waitFor(t, cmd, stderr, what, ready)
	killed := time.Now()
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	if mode == "journal" {
		if files, _ := results.ExecutionFiles(dir); len(files) != 0 {
			t.Errorf("executions files before report: %v", files)
		}
		code, _, stderr := runCapturedAll(t, "report", dir)
		if code != 0 || !strings.Contains(stderr, "the 1 journal(s) it left are now Parquet files") {
			t.Errorf("report of the killed run: exit %d, no word of the journal\n%s", code, stderr)
		}
		if j, _ := filepath.Glob(filepath.Join(dir, results.JournalGlob)); len(j) != 0 {
			t.Errorf("journals left after report: %v", j)
		}
	}
	var warnings []string
	info := results.ReadRunInfo(dir, func(err error) { warnings = append(warnings, err.Error()) })
	if info == nil || len(warnings) != 1 || !strings.Contains(warnings[0], "no end") {
		t.Errorf("run.json %+v, warnings %q; want one saying the run never ended", info, warnings)
	}
	var rows int64
	var last time.Time
	_, err := results.ScanExecutions(dir, func(err error) { t.Errorf("unreadable: %v", err) }, func(e *results.Execution) error {
		rows++
		if e.Start.After(last) {
			last = e.Start
		}
		return nil
	})
	if err != nil || rows == 0 {
		t.Fatalf("%d executions readable after the kill (%v)", rows, err)
	}
	// A second of rows is open at any time (a fifth of a second with the
	// journal), plus what workers and the writer hold: a few seconds is a
	// generous bound, a minute was lost before files rolled every second.
	if lost := killed.Sub(last); lost > 5*time.Second {
		t.Errorf("the last readable execution started %s before the kill", lost)
	}
	// The server counters are sampled every second (--report-interval)
	// and journalled as they come: report shows them up to about then,
	// where a killed client lost the minute's status file before.
	code, stdout, errs := runCapturedAll(t, "report", "--format", "json", dir)
	var rep struct {
		Runs []struct {
			Counters []struct {
				Points []struct {
					Time    time.Time `json:"time"`
					Seconds float64   `json:"seconds"`
				} `json:"points"`
			} `json:"counters"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != 0 || len(rep.Runs) != 1 {
		t.Fatalf("report --format json: exit %d, %v\n%s", code, err, errs)
	}
	var counted time.Time
	for _, c := range rep.Runs[0].Counters {
		for _, p := range c.Points {
			if end := p.Time.Add(time.Duration(p.Seconds * float64(time.Second))); end.After(counted) {
				counted = end
			}
		}
	}
	switch lost := killed.Sub(counted); {
	case len(rep.Runs[0].Counters) == 0:
		t.Errorf("report shows no server counter of the killed run\n%s", errs)
	case lost > 5*time.Second:
		t.Errorf("report shows the server counters up to %s before the kill\n%s", lost, errs)
	}
}

// TestRunFullDisk runs with the results on a tiny file system: the run
// stops at the first write that fails, with one message naming the file
// and the cause, exit status 1; what was finished before is kept and
// report warns that executions are missing.
func TestRunFullDisk(t *testing.T) {
	out := t.TempDir()
	if err := syscall.Mount("tmpfs", out, "tmpfs", 0, "size=128k"); err != nil {
		t.Skipf("cannot mount a small tmpfs for a full disk (needs root): %v", err)
	}
	t.Cleanup(func() { _ = syscall.Unmount(out, syscall.MNT_DETACH) })
	dsn := preparedDSN(t, "cmd_fulldisk")
	code, _, stderr := runCapturedAll(t, "-q", "run", "--dsn", dsn, "--out", out, "--run-id", "full",
		"-s", "simple_inner_pk=1", "--table-size", "200", "--threads", "2", "--time", "5m", "--checksum")
	if code != 1 || !strings.Contains(stderr, "no space left on device") || !strings.Contains(stderr, "the run was stopped") {
		t.Fatalf("exit %d, want 1 with a message on the full disk\n%s", code, stderr)
	}
	dir := filepath.Join(out, "run=full")
	if matches, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(matches) > 0 {
		t.Errorf("half-written files left: %v", matches)
	}
	info := results.ReadRunInfo(dir, nil)
	if info == nil || !strings.Contains(info.Error, "no space left on device") || info.Executions == 0 {
		t.Errorf("run.json %+v: want the executions and the error, written in the space kept for it", info)
	}
	code, _, stderr = runCapturedAll(t, "report", dir)
	if code != 0 || !strings.Contains(stderr, "warning: "+dir+": the run failed") {
		t.Errorf("report of the full-disk run: exit %d, no warning\n%s", code, stderr)
	}
}
