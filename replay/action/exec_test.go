package action

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// marked are the live processes whose environment holds entry.
func marked(t *testing.T, entry string) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc: the family of an exec action is its process group only")
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if _, state, ok := procStat(pid); !ok || state == 'Z' {
			continue
		}
		b, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if bytes.Contains(b, []byte(entry+"\x00")) {
			out = append(out, pid)
		}
	}
	return out
}

// TestExecEndsWhatItStarted: processes an exec command leaves behind,
// in its group or escaped from it with setsid (holding its output or
// not), end with the run; the action lasts until then.
func TestExecEndsWhatItStarted(t *testing.T) {
	b := make([]byte, 8)
	rand.Read(b)
	entry := "JOINBENCH_TEST_EXEC=" + hex.EncodeToString(b)
	t.Cleanup(func() {
		for _, pid := range marked(t, entry) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	command := "export " + entry + "; sleep 300 & setsid sleep 300 & setsid sleep 300 >/dev/null 2>&1 </dev/null & " +
		"setsid sh -c 'sleep 300 & wait' >/dev/null 2>&1 </dev/null & echo started"
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var out Outcome
	go func() {
		done <- execJob{command: command}.Do(ctx, Site{Target: Target{Conn: &mysql.Config{Net: "tcp", Addr: "127.0.0.1:1"}}}, &out)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for len(marked(t, entry)) < 4 {
		if time.Now().After(deadline) {
			t.Fatalf("the command's processes did not start: %v", marked(t, entry))
		}
		time.Sleep(20 * time.Millisecond)
	}
	select {
	case err := <-done:
		t.Fatalf("the action ended (%v) with its processes still running", err)
	case <-time.After(300 * time.Millisecond):
	}
	cancel() // the run ends
	select {
	case <-done:
	case <-time.After(execKillAfter + 5*time.Second):
		t.Fatal("the action did not end")
	}
	if left := marked(t, entry); len(left) > 0 {
		t.Errorf("processes %v outlived the action", left)
	}
	if out.Output != "started\n" {
		t.Errorf("output %q", out.Output)
	}
}

// TestExecEndsWithItsCommand: a command that leaves nothing behind ends
// the action when it exits.
func TestExecEndsWithItsCommand(t *testing.T) {
	var out Outcome
	err := execJob{command: "echo done"}.Do(context.Background(), Site{Target: Target{Conn: &mysql.Config{Net: "tcp", Addr: "127.0.0.1:1"}}}, &out)
	if err != nil || out.Output != "done\n" {
		t.Fatalf("%v, output %q", err, out.Output)
	}
}

func TestOnlineSchemaChangeTarget(t *testing.T) {
	db, table, ok := onlineSchemaChange("pt-online-schema-change --alter ENGINE=InnoDB h=127.0.0.1,P=3306,u=root,D=joinbench,t=big --execute")
	if !ok || db != "joinbench" || table != "big" {
		t.Fatalf("got %q %q %v", db, table, ok)
	}
	if _, _, ok := onlineSchemaChange("gh-ost --database=x --table=y"); ok {
		t.Fatal("gh-ost taken for pt-online-schema-change")
	}
}
