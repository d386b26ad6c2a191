//go:build e2e

package main

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/internal/testserver"
	"github.com/joinbench/joinbench/results"
)

// TestRunHungServerInterrupt stops the server's process in the middle of
// a run, then interrupts the run: it ends within seconds (it waited for
// the server before), exit status 130, results readable. A second
// interrupt on a run that is stopping exits at once.
func TestRunHungServerInterrupt(t *testing.T) {
	// A server of its own: it is stopped, and the shared one serves other
	// packages' tests.
	dsn := prepareOn(t, testdb.FreshOn(t, testserver.Own(t), "cmd_hung"))
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, twice := range []bool{false, true} {
		out := t.TempDir()
		cmd, stderr := startRun(t, "run", "--dsn", dsn, "--out", out, "--run-id", "hung", "-s", "simple_inner_pk=1",
			"--table-size", "200", "--threads", "2", "--time", "5m")
		dir := filepath.Join(out, "run=hung")
		waitFor(t, cmd, stderr, "executions recorded", recorded(dir))
		cont, continued := testdb.StopServer(t, db, time.Minute)
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			t.Fatal(err)
		}
		if twice {
			waitFor(t, cmd, stderr, "the stopping notice", func() bool { return strings.Contains(stderr.String(), "interrupt again") })
			if err := cmd.Process.Signal(os.Interrupt); err != nil {
				t.Fatal(err)
			}
		}
		code := waitExit(t, cmd, stderr)
		byLimit := continued()
		cont()
		if byLimit || code != exitInterrupted {
			t.Fatalf("twice %v: exit %d after the server was continued: %v; want %d while it was stopped\n%s",
				twice, code, byLimit, exitInterrupted, stderr)
		}
		if twice {
			if !strings.Contains(stderr.String(), "exiting now") {
				t.Errorf("second interrupt: %s", stderr)
			}
			continue
		}
		info := results.ReadRunInfo(dir, func(err error) { t.Errorf("reading results: %v", err) })
		if info == nil || !info.Interrupted {
			t.Errorf("run.json %+v, want an interrupted run", info)
		}
		for _, pattern := range []string{"*.tmp", results.JournalGlob} {
			if matches, _ := filepath.Glob(filepath.Join(dir, pattern)); len(matches) > 0 {
				t.Errorf("unfinished files left: %v", matches)
			}
		}
		if files, _ := results.ExecutionFiles(dir); len(files) == 0 {
			t.Error("no executions file after the interrupt")
		}
	}
}
