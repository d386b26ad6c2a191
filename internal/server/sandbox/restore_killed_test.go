package sandbox

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeBackupTool writes a mariadb-backup beside a fake server binary
// (where RestoreNode looks first) that takes a backup holding a Galera
// position, and kills itself with SIGKILL in the step named by killIn
// (--backup or --prepare), as the OOM killer or an operator would.
func fakeBackupTool(t *testing.T, killIn string) (serverPath string) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	script := `#!/bin/sh
echo "fake mariadb-backup $*"
for a in "$@"; do
	case "$a" in
	` + killIn + `) echo "applying redo"; kill -9 $$ ;;
	--target-dir=*) target="${a#--target-dir=}" ;;
	esac
done
mkdir -p "$target"
echo "bb49a937-ef3a-11f1-a184-9ff05da2e6e1:10 0" > "$target/xtrabackup_galera_info"
`
	if err := os.WriteFile(filepath.Join(bin, "mariadb-backup"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(bin, "mariadbd")
}

// restoreCluster is two nodes that read as running (a channel not closed
// stands for a server started here) and are never reached: a restore that
// fails before it stops its node touches neither.
func restoreCluster(t *testing.T, serverPath string) *Cluster {
	t.Helper()
	dir := t.TempDir()
	c := &Cluster{Name: "g", Dir: dir, Binary: Binary{Path: serverPath}}
	for _, name := range []string{"node1", "node2"} {
		n := &Node{Server: Server{Name: name, DataDir: filepath.Join(dir, name, "data"), exited: make(chan struct{})}}
		c.Nodes = append(c.Nodes, n)
	}
	c.SetLog(io.Discard)
	return c
}

// A backup tool killed by a signal is one line naming the step, the tool's
// mode and the signal, not the child's wait status (which the command
// would have taken as its own exit code, 255); the restore folder is gone,
// the ledger holds nothing to undo, and the node was not stopped.
func TestRestoreBackupToolKilled(t *testing.T) {
	for _, step := range []struct{ mode, want string }{
		{"--prepare", "prepare: mariadb-backup --prepare was killed by signal 9 (SIGKILL)"},
		{"--backup", "backup: mariadb-backup --backup was killed by signal 9 (SIGKILL)"},
	} {
		t.Run(step.mode, func(t *testing.T) {
			c := restoreCluster(t, fakeBackupTool(t, step.mode))
			_, err := c.RestoreNode(context.Background(), "node2", RestoreOptions{})
			if err == nil {
				t.Fatal("a killed backup tool made a restore")
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, step.want) || strings.Contains(msg, "\n") {
				t.Errorf("error %q, want one line starting %q", msg, step.want)
			}
			var child *exec.ExitError
			if errors.As(err, &child) {
				t.Errorf("the error wraps the child's exit status: %v", err)
			}
			if _, err := os.Stat(filepath.Join(c.Dir, "restore-node2")); !os.IsNotExist(err) {
				t.Errorf("the restore folder is left: %v", err)
			}
			left, err := LedgerOf(c.Dir).Entries()
			if err != nil || len(left) != 0 {
				t.Errorf("ledger after the failed restore: %+v, %v", left, err)
			}
			if !c.Nodes[1].Running() {
				t.Error("node2 was stopped by a restore that failed before its copy")
			}
		})
	}
}

// A step stopped because the command was interrupted says so, and wraps
// the context's error: the command then exits as interrupted, not as a
// failure of the tool.
func TestRestoreBackupToolInterrupted(t *testing.T) {
	dir := t.TempDir()
	tool := filepath.Join(dir, "mariadb-backup")
	if err := os.WriteFile(tool, []byte("#!/bin/sh\nexec sleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := runBackupTool(ctx, tool, filepath.Join(dir, "log"), "prepare", "--no-defaults", "--prepare")
	if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "prepare: mariadb-backup --prepare stopped") {
		t.Errorf("interrupted step: %v", err)
	}
}

// A tool that exits with a status says the status, and the end of its
// own step's log (not the steps' before it).
func TestRestoreBackupToolStatus(t *testing.T) {
	dir := t.TempDir()
	tool := filepath.Join(dir, "mariadb-backup")
	if err := os.WriteFile(tool, []byte("#!/bin/sh\necho \"[ERROR] no space left\"\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "log")
	if err := os.WriteFile(log, []byte("the backup step's lines\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := runBackupTool(context.Background(), tool, log, "prepare", "--no-defaults", "--prepare")
	want := "prepare: mariadb-backup --prepare exited with status 3; its log ends: [ERROR] no space left"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}
