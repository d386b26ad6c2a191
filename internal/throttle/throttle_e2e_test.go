//go:build e2e

package throttle

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/testdb"
)

// TestSlowsARealProcess runs a child that waits for the disk at every
// write (the worst case for a cap: it cannot catch up later) and one that
// only computes, and checks the mechanism, not what it achieved (a loaded
// machine changes that): while limited the child is in the throttle's
// group and the group holds a limit, and afterwards the child is back in
// its own group and the throttle's is gone. The rates are logged.
func TestSlowsARealProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("measures real processes for a while; skipped with -short")
	}
	for _, r := range []Resource{IO, CPU} {
		t.Run(string(r), func(t *testing.T) {
			dir := t.TempDir()
			if err := Check(r, dir); err != nil {
				testdb.Skipf(t, "%v", err)
			}
			c := startChild(t, string(r), dir)
			time.Sleep(time.Second)
			before := c.rate(3 * time.Second)
			limited := make(chan time.Time, 1)
			var group, limit string
			type outcome struct {
				res Result
				err error
			}
			done := make(chan outcome, 1)
			go func() {
				res, err := Run(context.Background(), Spec{PID: c.cmd.Process.Pid, Resource: r, Path: dir, Fraction: 0.5,
					Measure: 2 * time.Second, For: 10 * time.Second, Limited: func(at time.Time) {
						group, limit = limitOf(t, r, c.cmd.Process.Pid)
						limited <- at
					}})
				done <- outcome{res, err}
			}()
			select {
			case <-limited:
			case o := <-done:
				t.Fatalf("Run ended before it set the limit: %v", o.err)
			}
			time.Sleep(3 * time.Second) // the limit settles
			during := c.rate(5 * time.Second)
			o := <-done
			if o.err != nil {
				t.Fatal(o.err)
			}
			after := c.rate(2 * time.Second)
			t.Logf("%s: %.0f/s before, %.0f/s limited to 50%% (%.0f%%), %.0f/s after; the limit measured %s before, %s during (%.0f%%)",
				r, before, during, 100*during/before, after, o.res.Before.Format(r), o.res.During.Format(r), 100*o.res.Ratio(r))
			if want := fmt.Sprintf("joinbench-slow-%d", c.cmd.Process.Pid); filepath.Base(group) != want || limit == "" {
				t.Errorf("while limited the child was in cgroup %q with limit %q, want %s with a limit", group, limit, want)
			}
			if g, err := procCgroupOf(r, c.cmd.Process.Pid); err != nil || filepath.Base(g) == fmt.Sprintf("joinbench-slow-%d", c.cmd.Process.Pid) {
				t.Errorf("the child is still in cgroup %q (%v)", g, err)
			}
			if _, err := os.Stat(group); group != "" && !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the throttle's cgroup %s is left behind (%v)", group, err)
			}
		})
	}
}

// limitOf is the cgroup folder process pid is in, and the limit that
// folder holds for r ("" when none): the CPU quota, or the non-zero
// per-device I/O caps.
func limitOf(t *testing.T, r Resource, pid int) (dir, limit string) {
	h, err := findHierarchy(r)
	if err != nil {
		t.Error(err)
		return "", ""
	}
	g, err := procCgroup(h, pid)
	if err != nil {
		t.Error(err)
		return "", ""
	}
	dir = filepath.Join(h.mount, g)
	files := []string{"cpu.cfs_quota_us", "cpu.max"}
	if r == IO {
		files = []string{"blkio.throttle.read_bps_device", "blkio.throttle.write_bps_device",
			"blkio.throttle.read_iops_device", "blkio.throttle.write_iops_device", "io.max"}
	}
	var limits []string
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if v := strings.TrimSpace(string(b)); err == nil && v != "" && v != "-1" && !strings.HasPrefix(v, "max") {
			limits = append(limits, f+"="+v)
		}
	}
	return dir, strings.Join(limits, " ")
}
