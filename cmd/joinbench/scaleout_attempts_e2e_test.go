//go:build e2e

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/replay"
	"github.com/joinbench/joinbench/results"
)

// runProcess runs joinbench with args as a child process and returns its
// exit code and output.
func runProcess(t *testing.T, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), mainArgsEnv+"="+strings.Join(args, "\x1f"))
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), string(out)
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, string(out)
}

// The segments of a run meet as one attempt: a segment that failed at the
// barrier leaves nothing that lets another start without it, nor anything
// that stops it being run again; a segment on other options than the one
// waiting is refused (exit 2) and the right one then meets it.
func TestScaleOutSegmentAttempts(t *testing.T) {
	dsn := testdb.Fresh(t, "cmd_scale_attempts")
	runProcesses(t, [][]string{{"-q", "prepare", "--dsn", dsn, "--table-size", "300"}})
	out := t.TempDir()
	run := []string{"-q", "run", "--dsn", dsn, "--out", out, "--run-id", "r", "-s", "simple_inner_pk=1", "--table-size", "300",
		"--threads", "2", "--events", "10", "--skip-trx", "--report-interval", "0"}
	seg := func(s string, more ...string) []string {
		return append(append(append([]string(nil), run...), "--segment", s), more...)
	}
	runDir := filepath.Join(out, "run=r")

	if code, msg := runProcess(t, seg("1/2", "--barrier-timeout", "1s")...); code != 1 || !strings.Contains(msg, "segment 2 of 2 never arrived") {
		t.Fatalf("segment 1 alone: exit %d\n%s", code, msg)
	}
	for _, f := range []string{results.SegmentFile(1), results.RunFile} {
		if _, err := os.Stat(filepath.Join(runDir, f)); err == nil {
			t.Errorf("segment 1 failed at the barrier but left %s", f)
		}
	}
	if code, msg := runProcess(t, seg("2/2", "--barrier-timeout", "1s")...); code != 1 || !strings.Contains(msg, "segment 1 of 2 never arrived") {
		t.Fatalf("segment 2 after segment 1 failed: exit %d, want it to wait for segment 1\n%s", code, msg)
	}

	type result struct {
		code int
		out  string
	}
	first := make(chan result, 1)
	go func() {
		code, msg := runProcess(t, seg("1/2", "--barrier-timeout", "2m")...)
		first <- result{code, msg}
	}()
	db := openDB(t, dsn)
	for i := 0; ; i++ {
		var n int
		if db.QueryRow("SELECT COUNT(*) FROM " + replay.BarrierTable + " WHERE run_id = 'r' AND segment = 1").Scan(&n); n == 1 {
			break
		}
		if i == 600 {
			t.Fatal("segment 1 never claimed its place")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if code, msg := runProcess(t, seg("2/2", "--seed", "5", "--barrier-timeout", "2m")...); code != 2 || !strings.Contains(msg, "seed 5 (segment 1: 1)") {
		t.Errorf("segment 2 with another seed: exit %d, want 2 naming the seed\n%s", code, msg)
	}
	if code, msg := runProcess(t, seg("2/2", "--barrier-timeout", "2m")...); code != 0 {
		t.Fatalf("segment 2: exit %d\n%s", code, msg)
	}
	if r := <-first; r.code != 0 {
		t.Fatalf("segment 1 run again: exit %d\n%s", r.code, r.out)
	}
	if segs := results.ReadSegments(runDir, nil); len(segs) != 2 {
		t.Errorf("%d segments in the run folder, want 2", len(segs))
	}
}
