//go:build e2e

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Ctrl-C during experiment hot-vs-uniform --buffer-pool-size, on a
// sandbox of the test's own, as its second pair of runs starts: the
// command exits as interrupted (130, not 2), writes the page of the pair
// it measured marked partial with no verdict, sets the buffer pool back
// and leaves nothing in the sandbox's ledger.
func TestHotUniformCtrlCWritesAPartialPage(t *testing.T) {
	root, dir := startNamed(t, "hvu")
	db := sandboxDB(t, root, "hvu")
	var before int64
	if err := db.QueryRow("SELECT @@innodb_buffer_pool_size").Scan(&before); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	cmd, stderr := startRun(t, "experiment", "hot-vs-uniform", "--sandbox", "hvu", "--sandbox-dir", root, "--out", out,
		"--buffer-pool-size", "32M", "--table-size", "500", "--threads", "1", "--window", "1s", "--warmup", "0s",
		"--repetitions", "2", "--write-percent", "0,50")
	waitFor(t, cmd, stderr, "the second pair's first run", func() bool { return strings.Contains(stderr.String(), "run w0-uniform-2:") })
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if code := waitExit(t, cmd, stderr); code != exitInterrupted {
		t.Fatalf("after Ctrl-C: exit %d, want %d\n%s", code, exitInterrupted, stderr.String())
	}
	md, err := os.ReadFile(filepath.Join(out, "hot-vs-uniform.md"))
	if err != nil {
		t.Fatalf("no page after Ctrl-C: %v\n%s", err, stderr.String())
	}
	for _, want := range []string{"**Verdict:** none: interrupted after 1 of 4 pairs of runs", "pairs of runs judged: 1 of 4 (interrupted)", "| 0% |"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("page lacks %q:\n%s", want, md)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "hot-vs-uniform.html")); err != nil {
		t.Error(err)
	}
	var after int64
	if err := db.QueryRow("SELECT @@innodb_buffer_pool_size").Scan(&after); err != nil || after != before {
		t.Errorf("buffer pool after Ctrl-C: %d, %v; want %d again", after, err, before)
	}
	if left := ledgerFiles(dir); len(left) > 0 {
		t.Errorf("ledger entries left: %v", left)
	}
}
