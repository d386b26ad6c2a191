package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/analysis/compare"
)

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
