package throttle

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/testdb"
)

// A fixed read cap on a real process: noted before its group is made,
// written in the group's control file while it holds, and lifted: the
// process back in its own group, the group gone, the note taken back.
// The mechanism only, never what the process then achieved.
func TestCapHoldsAndLifts(t *testing.T) {
	dir := t.TempDir()
	if err := Check(IO, dir); err != nil {
		testdb.Skipf(t, "%v", err)
	}
	c := startChild(t, "io", dir)
	pid := c.cmd.Process.Pid
	var noted string
	taken := 0
	capped, err := Cap(CapSpec{PID: pid, Path: dir, ReadIOPS: 1500, Record: func(group, from string) (func() error, error) {
		noted = group
		if _, err := os.Stat(group); err == nil {
			t.Errorf("group %s made before it was noted", group)
		}
		return func() error { taken++; return nil }, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if g, err := procCgroupOf(IO, pid); err != nil || filepath.Base(g) != fmt.Sprintf("%s%d", GroupPrefix, pid) || capped.Group != noted {
		t.Errorf("capped child in cgroup %q (%v), noted %q, group %q", g, err, noted, capped.Group)
	}
	for file, want := range capped.Files {
		b, err := os.ReadFile(filepath.Join(capped.Group, file))
		if err != nil || !strings.Contains(string(b), want) && !strings.Contains(string(b), strings.Replace(want, "riops=", "rbps=max wbps=max riops=", 1)) {
			t.Errorf("%s holds %q (%v), want %q", file, b, err, want)
		}
	}
	if len(capped.Files) != 1 {
		t.Errorf("files written %v, want the read cap alone", capped.Files)
	}
	if u, err := capped.Usage(); err != nil || u.ReadOps < 0 {
		t.Errorf("the group's usage under the cap: %+v, %v", u, err)
	}
	if err := capped.Lift(); err != nil {
		t.Fatal(err)
	}
	if err := capped.Lift(); err != nil {
		t.Errorf("lifting twice: %v", err)
	}
	if g, err := procCgroupOf(IO, pid); err != nil || strings.HasPrefix(filepath.Base(g), GroupPrefix) {
		t.Errorf("after the lift the child is in cgroup %q (%v)", g, err)
	}
	if _, err := os.Stat(capped.Group); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the cap's cgroup %s is left behind (%v)", capped.Group, err)
	}
	if taken != 1 {
		t.Errorf("the note was taken back %d times, want once", taken)
	}
	if _, err := capped.Usage(); err == nil {
		t.Error("the usage of a lifted cap read without an error")
	}
}

// A cap below one operation a second is refused before anything is made.
func TestCapRefusesNothing(t *testing.T) {
	if _, err := Cap(CapSpec{PID: os.Getpid(), Path: t.TempDir(), ReadIOPS: 0}); err == nil {
		t.Error("a cap of 0 accepted")
	}
}
