package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/usage"
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
	err := runBackupTool(ctx, tool, filepath.Join(dir, "log"), "prepare", nil, "--no-defaults", "--prepare")
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
	err := runBackupTool(context.Background(), tool, log, "prepare", nil, "--no-defaults", "--prepare")
	want := "prepare: mariadb-backup --prepare exited with status 3; its log ends: [ERROR] no space left"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

// The backup is given --throttle when RestoreOptions.Throttle asks for
// one (and not otherwise), the prepare never is; DuringBackup runs beside
// the backup, and its ctx has ended by the time the restore goes on.
func TestRestoreThrottlesTheBackup(t *testing.T) {
	for _, throttle := range []int{0, 3} {
		serverPath := fakeBackupTool(t, "--prepare")
		args := filepath.Join(t.TempDir(), "args")
		// The fake records each step's arguments where the restore
		// folder's removal does not reach.
		script, err := os.ReadFile(filepath.Join(filepath.Dir(serverPath), "mariadb-backup"))
		if err != nil {
			t.Fatal(err)
		}
		script = []byte(strings.Replace(string(script), "#!/bin/sh\n", "#!/bin/sh\necho \"$*\" >> "+args+"\n", 1))
		if err := os.WriteFile(filepath.Join(filepath.Dir(serverPath), "mariadb-backup"), script, 0o755); err != nil {
			t.Fatal(err)
		}
		c := restoreCluster(t, serverPath)
		var beside, ended bool
		r, err := c.RestoreNode(context.Background(), "node2", RestoreOptions{Throttle: throttle, DuringBackup: func(ctx context.Context) {
			beside = true
			<-ctx.Done()
			ended = true
		}})
		if err == nil || !strings.HasPrefix(err.Error(), "prepare:") {
			t.Fatalf("throttle %d: %v, want the fake's kill in the prepare", throttle, err)
		}
		if !beside || !ended {
			t.Errorf("throttle %d: DuringBackup ran %v, its ctx ended %v", throttle, beside, ended)
		}
		if r.Throttle != throttle {
			t.Errorf("Restore.Throttle %d, want %d", r.Throttle, throttle)
		}
		b, err := os.ReadFile(args)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			has := strings.Contains(line, "--throttle=")
			if strings.Contains(line, "O_DIRECT") {
				t.Errorf("%q: O_DIRECT not asked for", line)
			}
			switch {
			case strings.Contains(line, "--backup") && throttle > 0:
				if !strings.Contains(line, fmt.Sprintf("--throttle=%d", throttle)) {
					t.Errorf("backup %q, want --throttle=%d", line, throttle)
				}
			case has:
				t.Errorf("throttle %d: %q has a --throttle", throttle, line)
			}
		}
	}
	c := restoreCluster(t, fakeBackupTool(t, "--prepare"))
	if _, err := c.RestoreNode(context.Background(), "node2", RestoreOptions{Throttle: -1}); err == nil || !usage.Is(err) {
		t.Errorf("a negative throttle: %v, want a usage error", err)
	}
}

// The prepare's log says whether its redo needed several batches, how
// many, and the checkpoint its recovery started at: only the lines written
// after the offset (the prepare's own) count.
func TestReadPrepareLog(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log")
	before := "backup: InnoDB: Multi-batch recovery needed at LSN 1\nInnoDB: To recover: 3 pages\n"
	prepare := "InnoDB: Starting crash recovery from checkpoint LSN=525352894\n" +
		"InnoDB: Multi-batch recovery needed at LSN 544261588\n" +
		"InnoDB: To recover: LSN 544261588/831245657; 1040 pages\n" +
		"InnoDB: To recover: LSN 549390706/831245657; 288 pages\n" +
		"InnoDB: To recover: 962 pages\n"
	if err := os.WriteFile(p, []byte(before+prepare), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := readPrepareLog(p, int64(len(before))), (prepareLog{multiBatch: true, batches: 3, fromLSN: 525352894}); got != want {
		t.Errorf("prepare's lines: %+v, want %+v", got, want)
	}
	single := filepath.Join(t.TempDir(), "log")
	if err := os.WriteFile(single, []byte("InnoDB: To recover: 12 pages\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := readPrepareLog(single, 0); got.multiBatch || got.batches != 1 {
		t.Errorf("one batch: %+v", got)
	}
	if got := readPrepareLog(filepath.Join(t.TempDir(), "none"), 0); got != (prepareLog{}) {
		t.Errorf("a missing log: %+v", got)
	}
}

// The values of AlsoPrepare are prepared first, each on a copy of the
// backup, then UseMemory on the backup itself; each is in Restore.Also.
func TestRestoreAlsoPreparesCopies(t *testing.T) {
	serverPath := fakeBackupTool(t, "--use-memory=2G")
	args := filepath.Join(t.TempDir(), "args")
	tool := filepath.Join(filepath.Dir(serverPath), "mariadb-backup")
	script, err := os.ReadFile(tool)
	if err != nil {
		t.Fatal(err)
	}
	script = []byte(strings.Replace(string(script), "#!/bin/sh\n", "#!/bin/sh\necho \"$*\" >> "+args+"\n", 1))
	if err := os.WriteFile(tool, script, 0o755); err != nil {
		t.Fatal(err)
	}
	c := restoreCluster(t, serverPath)
	r, err := c.RestoreNode(context.Background(), "node2", RestoreOptions{UseMemory: "2G", AlsoPrepare: []string{"32M"}, PrepareDirect: true})
	if err == nil || !strings.HasPrefix(err.Error(), "prepare:") {
		t.Fatalf("%v, want the fake's kill in the 2G prepare", err)
	}
	if len(r.Also) != 1 || r.Also[0].UseMemory != "32M" || r.Also[0].End.Before(r.Also[0].Start) {
		t.Errorf("Also %+v, want the 32M prepare", r.Also)
	}
	b, err := os.ReadFile(args)
	if err != nil {
		t.Fatal(err)
	}
	var prepares []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if strings.Contains(line, "--prepare") {
			prepares = append(prepares, line)
		}
	}
	if len(prepares) != 2 || !strings.Contains(prepares[0], "--use-memory=32M") || !strings.Contains(prepares[0], "/copy") ||
		!strings.Contains(prepares[1], "--use-memory=2G") || !strings.Contains(prepares[1], "/backup") {
		t.Errorf("prepares %q, want 32M on the copy, then 2G on the backup", prepares)
	}
	for _, p := range prepares {
		if !strings.Contains(p, "--innodb-flush-method=O_DIRECT") {
			t.Errorf("prepare %q without O_DIRECT", p)
		}
	}
	if _, err := c.RestoreNode(context.Background(), "node2", RestoreOptions{AlsoPrepare: []string{"lots"}}); err == nil || !usage.Is(err) {
		t.Errorf("a bad AlsoPrepare value: %v, want a usage error", err)
	}
}
