package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/ledger"
	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/internal/throttle"
	"github.com/joinbench/joinbench/internal/usage"
)

// A held step's tool is given to hold before it does anything (it runs
// behind a gate, in the same process), and what hold did is undone once
// it has exited, however it ended; a hold that fails leaves the tool
// unrun and says so.
func TestRunBackupToolHeld(t *testing.T) {
	dir := t.TempDir()
	ran := filepath.Join(dir, "ran")
	tool := filepath.Join(dir, "mariadb-backup")
	// The pid is written whole before the file appears.
	script := "#!/bin/sh\necho $$ > " + ran + ".tmp && mv " + ran + ".tmp " + ran + "\nfor a in \"$@\"; do [ \"$a\" = --fail ] && exit 3; [ \"$a\" = --sleep ] && exec sleep 30; done\nexit 0\n"
	if err := os.WriteFile(tool, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		ctx  func() context.Context
		want string // the error's start; "" none
	}{
		{"succeeds", []string{"--prepare"}, context.Background, ""},
		{"fails", []string{"--prepare", "--fail"}, context.Background, "prepare: mariadb-backup --prepare exited with status 3"},
		{"stopped", []string{"--prepare", "--sleep"}, func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			t.Cleanup(cancel)
			go func() {
				// Stopped once it runs.
				for ctx.Err() == nil {
					if _, err := os.Stat(ran); err == nil {
						cancel()
						return
					}
					time.Sleep(time.Millisecond)
				}
			}()
			return ctx
		}, "prepare: mariadb-backup --prepare stopped"},
	} {
		t.Run(c.name, func(t *testing.T) {
			os.Remove(ran)
			var held int
			released := 0
			err := runBackupTool(c.ctx(), tool, filepath.Join(dir, "log"), "prepare", func(pid int) (func() error, error) {
				if _, err := os.Stat(ran); err == nil {
					t.Error("the tool ran before it was held")
				}
				held = pid
				return func() error {
					released++
					return nil
				}, nil
			}, c.args...)
			if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)) {
				t.Errorf("error %v, want %q", err, c.want)
			}
			b, rerr := os.ReadFile(ran)
			if rerr != nil || strings.TrimSpace(string(b)) != fmt.Sprint(held) {
				t.Errorf("the tool ran as pid %q (%v), the hold was given %d", b, rerr, held)
			}
			if released != 1 {
				t.Errorf("released %d times, want once", released)
			}
		})
	}
	os.Remove(ran)
	err := runBackupTool(context.Background(), tool, filepath.Join(dir, "log"), "prepare", func(int) (func() error, error) {
		return nil, errors.New("no cgroup")
	}, "--prepare")
	if err == nil || err.Error() != "prepare: mariadb-backup --prepare not run: no cgroup" {
		t.Errorf("a failed hold: %v", err)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Error("the tool ran although its hold failed")
	}
	// A release that fails after a tool that succeeded is the step's error.
	err = runBackupTool(context.Background(), tool, filepath.Join(dir, "log"), "prepare", func(int) (func() error, error) {
		return func() error { return errors.New("group busy") }, nil
	}, "--prepare")
	if err == nil || !strings.Contains(err.Error(), "group busy") {
		t.Errorf("a failed release: %v", err)
	}
}

// With PrepareReadIOPS each prepare runs in a cgroup of its own whose
// read cap is the one asked for, and O_DIRECT, implied: the group is noted
// in the sandbox's ledger while it holds and gone after, the note with it,
// and the restore says the cap, its disk and what the prepare read under
// it. The mechanism only, never what the prepare then achieved.
func TestRestoreCapsThePrepare(t *testing.T) {
	serverPath := fakeBackupTool(t, "--use-memory=2G")
	if err := throttle.Check(throttle.IO, filepath.Dir(serverPath)); err != nil {
		testdb.Skipf(t, "%v", err)
	}
	seen := filepath.Join(t.TempDir(), "seen")
	tool := filepath.Join(filepath.Dir(serverPath), "mariadb-backup")
	script, err := os.ReadFile(tool)
	if err != nil {
		t.Fatal(err)
	}
	// The prepare notes, as it runs, its pid, its cgroups, the read cap
	// of its group (v1 blkio or v2) and whether a note of it is in the
	// ledger; it reads its own script from the disk meanwhile.
	record := `case "$*" in *--prepare*)
	echo "pid $$" >> ` + seen + `
	cat /proc/$$/cgroup >> ` + seen + `
	v1=$(grep ':blkio:' /proc/$$/cgroup | cut -d: -f3)
	v2=$(grep '^0::' /proc/$$/cgroup | cut -d: -f3)
	for f in /sys/fs/cgroup/blkio$v1/blkio.throttle.read_iops_device /sys/fs/cgroup$v2/io.max /sys/fs/cgroup/unified$v2/io.max; do
		[ -f "$f" ] && sed "s|^|cap |" "$f" >> ` + seen + `
	done
	grep -l '"kind": *"cgroup"' LEDGER/*.json >/dev/null 2>&1 && echo "noted" >> ` + seen + `
	;;
esac
`
	c := restoreCluster(t, serverPath)
	record = strings.ReplaceAll(record, "LEDGER", filepath.Join(c.Dir, "ledger"))
	script = []byte(strings.Replace(string(script), "#!/bin/sh\n", "#!/bin/sh\n"+record, 1))
	if err := os.WriteFile(tool, script, 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := c.RestoreNode(context.Background(), "node2", RestoreOptions{UseMemory: "2G", AlsoPrepare: []string{"32M"}, PrepareReadIOPS: 250})
	if err == nil || !strings.HasPrefix(err.Error(), "prepare:") {
		t.Fatalf("%v, want the fake's kill in the 2G prepare", err)
	}
	if r.PrepareReadIOPS != 250 || !r.PrepareDirect || r.PrepareReadDevice == "" {
		t.Errorf("restore's cap %d, O_DIRECT %v, disk %q: want 250, O_DIRECT implied, the disk named", r.PrepareReadIOPS, r.PrepareDirect, r.PrepareReadDevice)
	}
	b, err := os.ReadFile(seen)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the prepares saw:\n%s", b)
	// Both prepares, the one that finished and the one killed, were held.
	var pids []string
	for _, block := range strings.Split(string(b), "pid ")[1:] {
		pid, rest, _ := strings.Cut(block, "\n")
		pids = append(pids, pid)
		if !strings.Contains(rest, throttle.GroupPrefix+pid) {
			t.Errorf("prepare pid %s ran outside its group:\n%s", pid, rest)
		}
		if !strings.Contains(rest, "cap "+r.PrepareReadDevice+" 250") && !strings.Contains(rest, "riops=250") {
			t.Errorf("prepare pid %s: its group holds no cap of 250 reads a second on %s:\n%s", pid, r.PrepareReadDevice, rest)
		}
		if !strings.Contains(rest, "noted") {
			t.Errorf("prepare pid %s: its group was not in the ledger while it held", pid)
		}
		for _, g := range []string{"/sys/fs/cgroup/blkio/", "/sys/fs/cgroup/", "/sys/fs/cgroup/unified/"} {
			if _, err := os.Stat(g + throttle.GroupPrefix + pid); err == nil {
				t.Errorf("the group of prepare pid %s is left: %s", pid, g+throttle.GroupPrefix+pid)
			}
		}
	}
	if len(pids) != 2 {
		t.Errorf("prepares seen %q, want the 32M and the 2G", pids)
	}
	if len(r.Also) != 1 || r.Also[0].ReadOps < 0 {
		t.Errorf("Also %+v", r.Also)
	}
	if left, err := LedgerOf(c.Dir).Entries(); err != nil || len(left) != 0 {
		t.Errorf("ledger after the restore: %+v, %v", left, err)
	}
}

// A cap that cannot be is refused before the backup is taken.
func TestRestoreRefusesABadPrepareCap(t *testing.T) {
	c := restoreCluster(t, fakeBackupTool(t, "--prepare"))
	_, err := c.RestoreNode(context.Background(), "node2", RestoreOptions{PrepareReadIOPS: -1})
	if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), "--prepare-read-iops -1") {
		t.Errorf("a negative cap: %v, want a usage error naming it", err)
	}
	if _, err := os.Stat(filepath.Join(c.Dir, "restore-node2")); !os.IsNotExist(err) {
		t.Errorf("a backup was begun: %v", err)
	}
}

// A prepare whose joinbench was killed while it was capped leaves its
// group noted in the ledger (its prepare died with it): the next repair
// removes the group and the note.
func TestRepairLiftsAKilledPreparesCap(t *testing.T) {
	dir := t.TempDir()
	if err := throttle.Check(throttle.IO, dir); err != nil {
		testdb.Skipf(t, "%v", err)
	}
	c := restoreCluster(t, filepath.Join(dir, "mariadbd"))
	child := exec.Command("sleep", "30")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = child.Process.Kill(); _ = child.Wait() })
	capped, err := c.capPrepare("node2", child.Process.Pid, dir, 250)
	if err != nil {
		t.Fatal(err)
	}
	// The joinbench that set it is gone (another start time for this
	// pid), and its prepare with it.
	files, _ := filepath.Glob(filepath.Join(c.Dir, "ledger", "*.json"))
	if len(files) != 1 {
		t.Fatalf("ledger %v, want the cap noted", files)
	}
	var e ledger.Entry
	b, err := os.ReadFile(files[0])
	if err == nil {
		err = json.Unmarshal(b, &e)
	}
	if err != nil || e.Kind != ChangeCgroup || e.Undo["group"] != capped.Group {
		t.Fatalf("the note %+v (%v), want the group %s", e, err, capped.Group)
	}
	e.Owner.Start++
	if b, err = json.Marshal(e); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(files[0], b, 0o644); err != nil {
		t.Fatal(err)
	}
	_ = child.Process.Kill()
	_ = child.Wait()
	n := &Named{Name: "g", Dir: c.Dir}
	var log strings.Builder
	if k, err := n.Repair(context.Background(), &log); err != nil || k != 1 || !strings.Contains(log.String(), "limit lifted") {
		t.Fatalf("repair: %d, %v\n%s", k, err, log.String())
	}
	if _, err := os.Stat(capped.Group); !os.IsNotExist(err) {
		t.Errorf("the group %s is left after the repair (%v)", capped.Group, err)
	}
	if left, _ := LedgerOf(c.Dir).Entries(); len(left) != 0 {
		t.Errorf("ledger after the repair: %+v", left)
	}
}
