package ledger

import (
	"os"
	"os/exec"
	"testing"
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
	var l *Ledger
	done, err := l.Add(Entry{Kind: "x"})
	if err != nil || done() != nil {
		t.Fatal(err)
	}
	if es, err := l.Entries(); es != nil || err != nil {
		t.Fatal(es, err)
	}
}
