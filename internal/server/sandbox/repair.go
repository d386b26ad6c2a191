package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/joinbench/joinbench/internal/ledger"
	"github.com/joinbench/joinbench/internal/throttle"
	"github.com/joinbench/joinbench/internal/usage"
)

// Leftover is something a killed joinbench left on the sandbox: an entry
// of its ledger whose writer is gone, or an orphan server.
type Leftover struct {
	Entry *ledger.Entry `json:"entry,omitempty"`
	// Orphan is the pid of a server on Node's data folder or port that
	// its state does not name.
	Orphan int    `json:"orphan,omitempty"`
	Node   string `json:"node,omitempty"`
}

func (l Leftover) String() string {
	if l.Entry == nil {
		return fmt.Sprintf("%s: an orphan server, pid %d, on its data folder or port", l.Node, l.Orphan)
	}
	return fmt.Sprintf("%s (left by pid %d, %s, at %s)", l.Entry.What, l.Entry.Owner.PID, clip(l.Entry.Command), l.Entry.Made.Format(time.RFC3339))
}

// Leftovers are what killed joinbench processes left on the sandbox:
// ledger entries whose writer is gone, and orphan servers.
func (n *Named) Leftovers() ([]Leftover, error) {
	entries, err := n.Ledger().Leftovers()
	var out []Leftover
	for i := range entries {
		out = append(out, Leftover{Entry: &entries[i], Node: entries[i].Node})
	}
	busy := n.busy()
	for _, s := range n.Servers {
		if busy[s.Name] {
			continue
		}
		for _, pid := range s.Orphans() {
			out = append(out, Leftover{Orphan: pid, Node: s.Name})
		}
	}
	return out, err
}

// busy are the servers a live joinbench is taking down or bringing back
// (a crash, a restart, a restore): a server of theirs that its state does
// not name yet is theirs, not an orphan.
func (n *Named) busy() map[string]bool {
	all, _ := n.Ledger().Entries()
	busy := map[string]bool{}
	for _, e := range all {
		if e.Kind != ChangeNodeDown || e.Orphaned() {
			continue
		}
		for _, s := range n.Servers {
			if e.Node == "" || e.Node == s.Name {
				busy[s.Name] = true
			}
		}
	}
	return busy
}

// Repair undoes what killed joinbench processes left on the sandbox, each
// in one line on log: limits lifted, orphan servers stopped, servers a
// crash, restart or restore left down started again (a restore's node
// rebuilt by a full state transfer), scratch folders removed, settings
// and buffer pools set back, an online schema change's triggers and copy
// dropped, a server restarted with options of a command's own given
// its options before again. What it cannot undo safely is a user error saying the command
// to run. It returns how many things it undid.
func (n *Named) Repair(ctx context.Context, log io.Writer) (int, error) {
	return n.repair(ctx, log, false)
}

// RepairToStop is Repair before the sandbox is stopped: what outlives its
// servers is undone (limits lifted, orphan servers stopped, a schema
// change tool stopped and its triggers and copy dropped, folders
// removed), while what a server forgets as it stops (a global variable,
// its buffer pool) is only crossed out, and servers left down stay down.
func (n *Named) RepairToStop(ctx context.Context, log io.Writer) (int, error) {
	return n.repair(ctx, log, true)
}

func (n *Named) repair(ctx context.Context, log io.Writer, toStop bool) (int, error) {
	if log == nil {
		log = io.Discard
	}
	l := n.Ledger()
	// One repair at a time: two commands starting together would both
	// start node3 again. The second finds nothing left once it holds the
	// lock. It waits as long as bringing a cluster back may take.
	unlock, err := l.Lock(ctx, RepairLockWait, log)
	if err != nil {
		return 0, err
	}
	defer unlock()
	entries, err := l.Leftovers()
	if err != nil {
		return 0, usage.Errorf("sandbox %s: %v: remove the file, then 'joinbench sandbox repair --name %s'", n.Name, err, n.Name)
	}
	undone := 0
	say := func(e ledger.Entry, how string) {
		fmt.Fprintf(log, "sandbox %s: %s, left by a joinbench that was killed (pid %d): %s\n", n.Name, e.What, e.Owner.PID, how)
		undone++
	}
	var errs []error
	byKind := map[string][]ledger.Entry{}
	for _, e := range entries {
		byKind[e.Kind] = append(byKind[e.Kind], e)
	}
	// Limits first: a server restarted under one is slow to start.
	for _, e := range byKind[ChangeCgroup] {
		if err := throttle.Release(e.Undo["group"], e.Undo["from"]); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", e.What, err))
			continue
		}
		say(e, "limit lifted")
		errs = append(errs, l.Remove(e.ID))
	}
	for _, e := range byKind[ChangeOnlineSchemaChange] {
		StopHelper(ctx, e)
	}
	// Orphans: a server no state names is stopped, never joined.
	busy := n.busy()
	for _, s := range n.Servers {
		if busy[s.Name] {
			continue
		}
		pids := s.Orphans()
		if len(pids) == 0 {
			continue
		}
		old := s.log
		s.log = log
		errs = append(errs, s.StopOrphans(ctx))
		s.log = old
		undone += len(pids)
	}
	if toStop {
		for _, kind := range []string{ChangeNodeDown, ChangeGlobal, ChangeBufferPool, ChangeServerArgs} {
			for _, e := range byKind[kind] {
				say(e, "nothing to undo, the sandbox being stopped")
				errs = append(errs, l.Remove(e.ID))
			}
			delete(byKind, kind)
		}
	}
	// Options before the servers left down are started: they start with
	// the options they had before the killed command.
	for _, e := range byKind[ChangeServerArgs] {
		if err := n.undoServerArgs(ctx, e); err != nil {
			errs = append(errs, err)
			continue
		}
		say(e, "given its options before again")
		errs = append(errs, l.Remove(e.ID))
	}
	if down := byKind[ChangeNodeDown]; len(down) > 0 {
		if err := n.bringBack(ctx, down, log); err != nil {
			return undone, usage.Errorf("sandbox %s: a killed joinbench (pid %d) left servers down and starting them again failed: %v; run 'joinbench sandbox start --name %s'",
				n.Name, down[0].Owner.PID, err, n.Name)
		}
		for _, e := range down {
			say(e, "started again")
			errs = append(errs, l.Remove(e.ID))
		}
	}
	for _, e := range byKind[ChangeScratch] {
		if err := os.RemoveAll(e.Undo["path"]); err != nil {
			errs = append(errs, err)
			continue
		}
		say(e, "removed")
		errs = append(errs, l.Remove(e.ID))
	}
	sqlUndo := func(e ledger.Entry) {
		stmts, how, _ := UndoStatements(e)
		s := n.server(e.Node)
		if s == nil || !s.Running() {
			errs = append(errs, usage.Errorf("sandbox %s: %s cannot be undone while %s is not running: run 'joinbench sandbox start --name %s', then 'joinbench sandbox repair --name %s'",
				n.Name, e.What, e.Node, n.Name, n.Name))
			return
		}
		if err := s.exec(ctx, stmts...); err != nil {
			errs = append(errs, err)
			return
		}
		say(e, how)
		errs = append(errs, l.Remove(e.ID))
	}
	for _, e := range byKind[ChangeGlobal] {
		sqlUndo(e)
	}
	for _, e := range byKind[ChangeBufferPool] {
		b, err := strconv.ParseInt(e.Undo["bytes"], 10, 64)
		s := n.server(e.Node)
		if err != nil || s == nil || !s.Running() {
			sqlUndo(e) // says why it cannot
			continue
		}
		if _, _, err := s.SetBufferPool(ctx, b); err != nil {
			errs = append(errs, err)
			continue
		}
		say(e, "set back to "+FormatSize(b))
		errs = append(errs, l.Remove(e.ID))
	}
	for _, e := range byKind[ChangeOnlineSchemaChange] {
		sqlUndo(e)
	}
	return undone, errors.Join(errs...)
}

// server is the server called name; the first when name is empty.
func (n *Named) server(name string) *Server {
	for _, s := range n.Servers {
		if name == "" || s.Name == name {
			return s
		}
	}
	return nil
}

// RepairLockWait bounds how long a repair waits for another to finish:
// as long as that one may take to bring a cluster back.
const RepairLockWait = CrashRecoveryTimeout + time.Minute

// StopHelper stops the process group an entry names (a schema change
// tool a killed joinbench started on this machine), when it still runs:
// its triggers are dropped after, or it would make them again.
func StopHelper(ctx context.Context, e ledger.Entry) {
	pgid, _ := strconv.Atoi(e.Undo["pgid"])
	start, _ := strconv.ParseUint(e.Undo["start"], 10, 64)
	if pgid <= 0 || !(ledger.Owner{PID: pgid, Start: start}).Alive() {
		return
	}
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	deadline := time.Now().Add(30 * time.Second)
	for (ledger.Owner{PID: pgid, Start: start}).Alive() && time.Now().Before(deadline) && ctx.Err() == nil {
		time.Sleep(100 * time.Millisecond)
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}

// bringBack starts again the servers that are down: a single server on
// its data, a cluster's nodes as after a crash (each on its recovered
// position; the whole cluster bootstrapped from the most advanced node
// when none runs). A node whose data a restore was replacing is emptied
// and joins by a full state transfer.
func (n *Named) bringBack(ctx context.Context, down []ledger.Entry, log io.Writer) error {
	if n.Cluster == nil {
		s := n.Servers[0]
		if s.Running() {
			return nil
		}
		s.log = log
		start, cancel := context.WithTimeout(ctx, RestartStartTimeout)
		defer cancel()
		if err := s.launch(start, true); err != nil {
			return err
		}
		return s.saveState()
	}
	rebuild := map[string]bool{}
	for _, e := range down {
		if e.Undo["rebuild"] == "sst" {
			rebuild[e.Node] = true
		}
	}
	c := n.Cluster
	old := c.log
	c.SetLog(log)
	defer c.SetLog(old)
	return c.bringBack(ctx, rebuild)
}

// bringBack starts the nodes of the cluster that are down (those in
// rebuild on an emptied data folder).
func (c *Cluster) bringBack(ctx context.Context, rebuild map[string]bool) (err error) {
	ctx, cancel := context.WithTimeout(ctx, CrashRecoveryTimeout)
	defer cancel()
	var down []*Node
	for _, n := range c.Nodes {
		if !n.Running() {
			down = append(down, n)
		}
	}
	// A node the killed joinbench had started again may still be
	// joining: it is waited for, as every node brought back here is.
	defer func() {
		if err != nil {
			return
		}
		for _, n := range c.Nodes {
			if werr := n.waitSynced(ctx); werr != nil {
				err = fmt.Errorf("%s: %w", n.Name, werr)
				return
			}
		}
	}()
	if len(down) == 0 {
		return nil
	}
	for _, n := range down {
		n.startPosition = ""
		if rebuild[n.Name] {
			if err := emptyDir(n.DataDir); err != nil {
				return err
			}
			continue
		}
		if err := c.recoverStart(ctx, n, &Recovery{}); err != nil {
			return fmt.Errorf("%s: %w", n.Name, err)
		}
	}
	if len(down) == len(c.Nodes) {
		boot, _, err := c.bootstrapNode(ctx)
		if err != nil {
			return err
		}
		if err := c.relaunch(ctx, boot, true, &Recovery{}); err != nil {
			return err
		}
	}
	for _, n := range down {
		if n.Running() {
			continue
		}
		if err := c.relaunch(ctx, n, false, &Recovery{}); err != nil {
			return err
		}
	}
	return nil
}
