package ledger

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/usage"
)

func TestAddDoneRemovesTheEntry(t *testing.T) {
	l := Open(t.TempDir())
	done, err := l.Add(Entry{Kind: "global", Node: "node1", What: "x", Undo: map[string]string{"name": "v", "value": "2"}})
	if err != nil {
		t.Fatal(err)
	}
	es, err := l.Entries()
	if err != nil || len(es) != 1 {
		t.Fatalf("entries: %v %v", es, err)
	}
	if e := es[0]; e.Kind != "global" || e.Undo["value"] != "2" || e.Owner.PID != os.Getpid() || e.Orphaned() {
		t.Fatalf("entry %+v", e)
	}
	if left, _ := l.Leftovers(); len(left) != 0 {
		t.Fatalf("a live owner's entry is a leftover: %+v", left)
	}
	if err := done(); err != nil {
		t.Fatal(err)
	}
	if err := done(); err != nil {
		t.Fatalf("done twice: %v", err)
	}
	if es, _ := l.Entries(); len(es) != 0 {
		t.Fatalf("after done: %+v", es)
	}
}

// A dead owner's entry is a leftover; so is one whose pid now names
// another process (a different start time).
func TestLeftoversByPIDAndStartTime(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	owner, err := OwnerOf(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	l := Open(t.TempDir())
	if _, err := l.Add(Entry{Kind: "cgroup", Owner: owner}); err != nil {
		t.Fatal(err)
	}
	reused := Self()
	reused.Start++ // this pid, started at another time: not the writer
	if _, err := l.Add(Entry{Kind: "global", Owner: reused}); err != nil {
		t.Fatal(err)
	}
	left, _ := l.Leftovers()
	if len(left) != 1 || left[0].Kind != "global" {
		t.Fatalf("leftovers with the sleeper alive: %+v", left)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	left, _ = l.Leftovers()
	if len(left) != 2 {
		t.Fatalf("leftovers after the sleeper died: %+v", left)
	}
}

func TestNilLedgerDoesNothing(t *testing.T) {
	var l *Folder
	done, err := l.Add(Entry{Kind: "x"})
	if err != nil || done() != nil {
		t.Fatal(err)
	}
	if es, err := l.Entries(); es != nil || err != nil {
		t.Fatal(es, err)
	}
}

// An owner of another machine cannot be looked at from here: its entry
// is never a leftover, whatever pid it names.
func TestOwnerElsewhereIsNeverALeftover(t *testing.T) {
	l := Open(t.TempDir())
	if _, err := l.Add(Entry{Kind: "global", Owner: Owner{PID: 1 << 30, Start: 1, Host: ThisHost() + "-elsewhere"}}); err != nil {
		t.Fatal(err)
	}
	es, _ := l.Entries()
	if len(es) != 1 || !es[0].Elsewhere() || es[0].Orphaned() {
		t.Fatalf("entry %+v: want elsewhere, not orphaned", es)
	}
	if left, _ := l.Leftovers(); len(left) != 0 {
		t.Fatalf("leftovers %+v", left)
	}
	if self := Self(); self.Host != ThisHost() || !self.Here() {
		t.Fatalf("self %+v", self)
	}
}

// A command line is kept with each entry, to say who made it, but never a
// password: a table ledger is on the server, for its users to read.
func TestOwnCommandMasksPasswords(t *testing.T) {
	saved := os.Args
	defer func() { os.Args = saved }()
	os.Args = []string{"joinbench", "run", "--dsn", "bob:s3cret@tcp(db:3306)/x", "--dsn=amy:hush@unix(/s)/y", "--password", "pw1", "--password=pw2"}
	got := ownCommand()
	for _, secret := range []string{"s3cret", "hush", "pw1", "pw2"} {
		if strings.Contains(got, secret) {
			t.Fatalf("%q holds %q", got, secret)
		}
	}
	if !strings.Contains(got, "bob:***@tcp(db:3306)/x") || !strings.Contains(got, "--dsn=amy:***@unix(/s)/y") {
		t.Fatalf("%q: the DSNs' other parts are gone", got)
	}
}

// Two holders of a folder's lock exclude each other, also within one
// process; the one that waits says who holds it, and gives up after its
// wait with a user error.
func TestFolderLockExcludes(t *testing.T) {
	l := Open(t.TempDir())
	testLockExcludes(t, l)
}

func testLockExcludes(t *testing.T, l Ledger) {
	t.Helper()
	ctx := context.Background()
	unlock, err := l.Lock(ctx, time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	if _, err := l.Lock(ctx, time.Second, &log); err == nil || !usage.Is(err) || !strings.Contains(err.Error(), "still repairing") {
		t.Fatalf("second lock while held: %v, want a user error", err)
	}
	if !strings.Contains(log.String(), "waiting up to 1s for another joinbench") {
		t.Fatalf("the waiting one said %q", log.String())
	}
	unlock()
	unlock2, err := l.Lock(ctx, time.Second, nil)
	if err != nil {
		t.Fatalf("lock after unlock: %v", err)
	}
	unlock2()
}
