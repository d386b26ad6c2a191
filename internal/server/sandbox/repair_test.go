package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/joinbench/joinbench/internal/ledger"
)

// Two repairs of one sandbox starting together undo each leftover once:
// the second waits for the first (the ledger folder's lock), then finds
// nothing left. The test holds the lock until both wait, both having been
// started before anything was undone.
func TestRepairTwiceAtOnceUndoesOnce(t *testing.T) {
	n := &Named{Name: "locked", Dir: t.TempDir()}
	gone := ledger.Self()
	gone.Start++ // this pid at another start time: a dead joinbench's
	for _, name := range []string{"restore-node2", "restore-node3"} {
		p := filepath.Join(n.Dir, name)
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if _, err := n.Ledger().Add(ledger.Entry{Kind: ChangeScratch, What: "restore folder " + name, Undo: map[string]string{"path": p}, Owner: gone}); err != nil {
			t.Fatal(err)
		}
	}
	unlock, err := n.Ledger().Lock(context.Background(), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	waiting := make(chan struct{}, 2)
	logs := []*waitLog{{waiting: waiting}, {waiting: waiting}}
	undone := make([]int, 2)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k, err := n.Repair(context.Background(), logs[i])
			if err != nil {
				t.Error(err)
			}
			undone[i] = k
		}()
	}
	<-waiting
	<-waiting
	unlock()
	wg.Wait()
	if undone[0]+undone[1] != 2 || (undone[0] != 0 && undone[1] != 0) {
		t.Fatalf("undone %v, want both leftovers by one repair", undone)
	}
	all := logs[0].String() + logs[1].String()
	if strings.Count(all, "restore-node2, left by") != 1 || strings.Count(all, "restore-node3, left by") != 1 {
		t.Fatalf("logs:\n%s", all)
	}
	if es, _ := n.Ledger().Entries(); len(es) != 0 {
		t.Fatalf("entries after both: %+v", es)
	}
}

// waitLog is a repair's log that signals when the repair waits for the
// lock.
type waitLog struct {
	mu      sync.Mutex
	b       strings.Builder
	waiting chan struct{}
}

func (l *waitLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if strings.Contains(string(p), "waiting up to") {
		l.waiting <- struct{}{}
	}
	return l.b.Write(p)
}

func (l *waitLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Before a sandbox stops, what outlives its servers is undone (a scratch
// folder removed here), while what a stop undoes by itself (a global
// variable, a buffer pool) or makes moot (a server left down) is only
// crossed out: nothing is started to be stopped again. The sandbox has
// no server: starting one would fail the repair.
func TestRepairToStopStartsNothing(t *testing.T) {
	n := &Named{Name: "stopping", Dir: t.TempDir()}
	gone := ledger.Self()
	gone.Start++
	scratch := filepath.Join(n.Dir, "restore-node1")
	if err := os.Mkdir(scratch, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range []ledger.Entry{
		{Kind: ChangeNodeDown, What: "node1 killed"},
		{Kind: ChangeGlobal, What: "a lesson's setting", Undo: map[string]string{"name": "x", "value": "1"}},
		{Kind: ChangeBufferPool, What: "a buffer pool", Undo: map[string]string{"bytes": "134217728"}},
		{Kind: ChangeScratch, What: "restore folder", Undo: map[string]string{"path": scratch}},
	} {
		e.Owner = gone
		if _, err := n.Ledger().Add(e); err != nil {
			t.Fatal(err)
		}
	}
	var log strings.Builder
	k, err := n.RepairToStop(context.Background(), &log)
	if err != nil || k != 4 {
		t.Fatalf("RepairToStop: %d, %v\n%s", k, err, log.String())
	}
	if _, err := os.Stat(scratch); !os.IsNotExist(err) {
		t.Errorf("scratch folder still there: %v", err)
	}
	if strings.Count(log.String(), "nothing to undo, the sandbox being stopped") != 3 {
		t.Errorf("log:\n%s", log.String())
	}
	if es, _ := n.Ledger().Entries(); len(es) != 0 {
		t.Errorf("entries left: %+v", es)
	}
}
