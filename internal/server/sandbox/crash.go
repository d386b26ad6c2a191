package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"
)

// CrashRecoveryTimeout bounds the recovery after a crash: every node's
// position read from InnoDB, the bootstrap and each joiner's state
// transfer. The end of a run does not cut it short: a cluster left half
// started would be worse than a late end of the fault.
const CrashRecoveryTimeout = 10 * time.Minute

// killWait bounds the wait for a server to be gone after SIGKILL.
const killWait = 30 * time.Second

// Recovery is how one server came back after it was killed: the fault a
// run injects with crash, recovered as an operator does.
type Recovery struct {
	Node string
	// Killed is when it was sent SIGKILL; Started when it was started
	// again, once its position was recovered.
	Killed, Started time.Time
	// Writable is when it first accepted writes: it answered and, a
	// cluster node, was a ready member of a primary component. Synced,
	// for a cluster node, is when its state was first Synced.
	Writable, Synced time.Time
	// Position is the uuid:seqno read from its InnoDB data
	// (mariadbd --wsrep-recover), empty when nothing was recovered.
	Position string
	// Transfer is how a cluster node came back: TransferBootstrap, or as
	// a joiner by TransferIST, TransferSST or TransferNone (it missed
	// nothing); empty for a single server.
	Transfer string
	// TransferStart and TransferEnd bound a joiner's state transfer, as
	// its error log states them (the end of an incremental one to the
	// second); zero when it had none. TransferWritesets is how many
	// write-sets an incremental transfer carried; TransferBytes the
	// size of the data a full copy left (its data directory but what the
	// server makes at its start: the write-set cache, the redo log and
	// the temporary tablespace), 0 for an incremental one, which no log
	// sizes.
	TransferStart, TransferEnd       time.Time
	TransferWritesets, TransferBytes int64
	// StreamStart and StreamEnd bound a full transfer's data streamed by
	// its donor, as the donor's log states them: from the end of the SST
	// script's fixed wait before it streams to the donor's end; zero
	// when its log does not say.
	StreamStart, StreamEnd time.Time
	// ClusterSize is how many nodes the cluster has, 1 for a single
	// server: what "2 of N Synced" counts against.
	ClusterSize int
	// Notes are the steps of the recovery, in words, one a line.
	Notes string
}

// How a node came back after a crash (Recovery.Transfer).
const (
	TransferBootstrap = "bootstrap" // it started the cluster again
	TransferIST       = "ist"       // incremental: the write-sets it missed, from a donor's cache
	TransferSST       = "sst"       // a full copy of the data from a donor
	TransferNone      = "none"      // it missed nothing
)

// kill sends SIGKILL to the server and what it started (state transfer
// scripts share its process group), and waits until it is gone.
func (s *Server) kill(ctx context.Context) (time.Time, error) {
	if !s.Running() {
		return time.Time{}, fmt.Errorf("%s is not running", s.Name)
	}
	at := time.Now()
	if err := syscall.Kill(-s.PID, syscall.SIGKILL); err != nil {
		if err := syscall.Kill(s.PID, syscall.SIGKILL); err != nil {
			return at, fmt.Errorf("SIGKILL pid %d: %w", s.PID, err)
		}
	}
	return at, s.waitGone(ctx)
}

func (s *Server) waitGone(ctx context.Context) error {
	// Once SIGKILL is sent the recovery must follow, however the run
	// ends meanwhile: the wait is bounded by the kernel, not by ctx.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), killWait)
	defer cancel()
	for s.Running() {
		select {
		case <-ctx.Done():
			return fmt.Errorf("pid %d still running after SIGKILL: %w", s.PID, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
	return nil
}

// Crash kills the named sandbox server with SIGKILL, waits down and starts
// it again on its data: InnoDB recovers from its redo log. It is writable
// once it answers.
func (s *Server) Crash(ctx context.Context, down time.Duration) (Recovery, error) {
	rec := Recovery{Node: s.Name, ClusterSize: 1}
	var err error
	if rec.Killed, err = s.kill(ctx); err != nil {
		return rec, err
	}
	waitDown(ctx, down)
	start, cancel := context.WithTimeout(context.WithoutCancel(ctx), RestartStartTimeout)
	defer cancel()
	rec.Started = time.Now()
	if err := s.launch(start, true); err != nil {
		return rec, fmt.Errorf("start again: %w", err)
	}
	rec.Writable = time.Now()
	if s.Name != "" {
		if err := s.saveState(); err != nil {
			return rec, fmt.Errorf("sandbox %s: save state: %w", s.Name, err)
		}
	}
	return rec, nil
}

// waitDown waits d, or less when ctx ends: the recovery follows at once.
func waitDown(ctx context.Context, d time.Duration) {
	select {
	case <-time.After(d):
	case <-ctx.Done():
	}
}

// CrashNode kills node n of the running cluster with SIGKILL, waits down
// and brings it back as mysqld_safe does after a crash: the position its
// InnoDB data reached is read (--wsrep-recover) and given to its start
// (--wsrep-start-position), so that it rejoins by incremental transfer
// when a donor still holds what it missed, by a full one otherwise.
func (c *Cluster) CrashNode(ctx context.Context, n *Node, down time.Duration) (Recovery, error) {
	rec := Recovery{Node: n.Name, ClusterSize: len(c.Nodes)}
	var err error
	if rec.Killed, err = n.kill(ctx); err != nil {
		return rec, err
	}
	fmt.Fprintf(c.log, "%s killed (SIGKILL)\n", n.Name)
	waitDown(ctx, down)
	start, cancel := context.WithTimeout(context.WithoutCancel(ctx), CrashRecoveryTimeout)
	defer cancel()
	if err := c.recoverStart(start, n, &rec); err != nil {
		return rec, err
	}
	return rec, c.relaunch(start, n, false, &rec)
}

// CrashCluster kills every node at once with SIGKILL, waits down and
// recovers the cluster as an operator does: every node's position is read
// from its InnoDB data (--wsrep-recover, on all nodes at once), the node
// with the highest seqno is marked safe to bootstrap and bootstraps a new
// primary component with the cluster's history, then the others join one
// at a time, each by incremental transfer when it can.
func (c *Cluster) CrashCluster(ctx context.Context, down time.Duration) ([]Recovery, error) {
	recs := make([]Recovery, len(c.Nodes))
	for i, n := range c.Nodes {
		recs[i].Node, recs[i].ClusterSize = n.Name, len(c.Nodes)
		if !n.Running() {
			return nil, fmt.Errorf("%s is not running", n.Name)
		}
	}
	// Every signal first, then the waits: the nodes die together, as
	// in a power loss, not one after the other.
	for i, n := range c.Nodes {
		recs[i].Killed = time.Now()
		if err := syscall.Kill(-n.PID, syscall.SIGKILL); err != nil {
			_ = syscall.Kill(n.PID, syscall.SIGKILL)
		}
	}
	for _, n := range c.Nodes {
		if err := n.waitGone(ctx); err != nil {
			return recs, fmt.Errorf("%s: %w", n.Name, err)
		}
	}
	fmt.Fprintf(c.log, "every node killed (SIGKILL)\n")
	waitDown(ctx, down)
	start, cancel := context.WithTimeout(context.WithoutCancel(ctx), CrashRecoveryTimeout)
	defer cancel()
	errs := make([]error, len(c.Nodes))
	var wg sync.WaitGroup
	for i, n := range c.Nodes {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = c.recoverStart(start, n, &recs[i]) }()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return recs, err
	}
	boot, _, err := c.bootstrapNode(start)
	if err != nil {
		return recs, err
	}
	order := []int{}
	for i, n := range c.Nodes {
		if n == boot {
			order = append([]int{i}, order...)
		} else {
			order = append(order, i)
		}
	}
	for _, i := range order {
		n := c.Nodes[i]
		if err := c.relaunch(start, n, n == boot, &recs[i]); err != nil {
			return recs, err
		}
	}
	return recs, nil
}

// recoverStart reads the position n's InnoDB data reached after a
// crash, and has its next start begin there.
func (c *Cluster) recoverStart(ctx context.Context, n *Node, rec *Recovery) error {
	n.startPosition = ""
	uuid, seqno, err := n.recoverPosition(ctx)
	if err != nil {
		return err
	}
	if uuid == zeroUUID || seqno < 0 {
		fmt.Fprintf(c.log, "%s: no position recovered\n", n.Name)
		return nil
	}
	n.startPosition = fmt.Sprintf("%s:%d", uuid, seqno)
	rec.Position = n.startPosition
	fmt.Fprintf(c.log, "%s: recovered position %s\n", n.Name, n.startPosition)
	return nil
}

// relaunch starts a crashed node again on its option file, bootstrapping
// the cluster or joining it, and waits until it is Synced, noting in rec
// when it became writable and Synced and how it got what it missed.
func (c *Cluster) relaunch(ctx context.Context, n *Node, bootstrap bool, rec *Recovery) error {
	n.Args = []string{"--defaults-file=" + n.OptionFile, "--datadir=" + n.DataDir}
	if bootstrap {
		n.Args = append(n.Args, "--wsrep-new-cluster")
		fmt.Fprintf(c.log, "%s: bootstrapping the cluster\n", n.Name)
	} else {
		fmt.Fprintf(c.log, "%s: joining the cluster\n", n.Name)
	}
	if n.startPosition != "" {
		n.Args = append(n.Args, "--wsrep-start-position="+n.startPosition)
	}
	logStart := fileSize(n.ErrorLog)
	n.abortWithin = abortWithin
	rec.Started = time.Now()
	if err := n.launch(ctx, true); err != nil {
		return fmt.Errorf("start %s again: %w", n.Name, err)
	}
	if err := c.saveState(); err != nil {
		return fmt.Errorf("sandbox %s: save state: %w", c.Name, err)
	}
	if err := n.waitRecovered(ctx, rec); err != nil {
		return fmt.Errorf("%s did not rejoin: %w", n.Name, err)
	}
	rec.Transfer = TransferBootstrap
	if !bootstrap {
		log := readFrom(n.ErrorLog, logStart)
		rec.Transfer = transferOf(log)
		if rec.Transfer == TransferIST || rec.Transfer == TransferSST {
			f := transferFactsOf(log)
			rec.TransferStart, rec.TransferEnd, rec.TransferWritesets = f.start, f.end, f.writesets
		}
		if rec.Transfer == TransferSST {
			rec.TransferBytes = transferredBytes(n.DataDir)
			rec.StreamStart, rec.StreamEnd = c.donorStream(n.Name, log, rec.TransferStart)
		}
	}
	fmt.Fprintf(c.log, "%s: writable %.1fs and Synced %.1fs after its start (%s)\n", n.Name,
		rec.Writable.Sub(rec.Started).Seconds(), rec.Synced.Sub(rec.Started).Seconds(), rec.Transfer)
	return nil
}

// recoverPollEvery is how often a recovering node is asked for its state:
// the resolution of the times a Recovery notes.
const recoverPollEvery = 50 * time.Millisecond

// waitRecovered waits until the node is Synced, noting when it was first
// writable and first Synced.
func (n *Node) waitRecovered(ctx context.Context, rec *Recovery) error {
	for {
		st := n.Status(ctx)
		now := time.Now()
		if rec.Writable.IsZero() && st.Running && st.Ready && st.ClusterStatus == "Primary" {
			rec.Writable = now
		}
		if st.Synced() {
			rec.Synced = now
			return nil
		}
		if !st.Running {
			return fmt.Errorf("%s exited: %s (log: %s)", n.Name, errorLines(readTail(n.ErrorLog)), n.ErrorLog)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("not Synced within %s (state %q, cluster %q, ready %v): %s (log: %s)",
				CrashRecoveryTimeout, st.State, st.ClusterStatus, st.Ready, errorLines(readTail(n.ErrorLog)), n.ErrorLog)
		case <-time.After(recoverPollEvery):
		}
	}
}

// transferOf reads from a joiner's log how it got what it missed. The
// mariabackup script logs "IST completed" when the donor only sent the
// missing write-sets and "SST completed" after a full copy; the server
// logs "State transfer required" only when it needed either.
func transferOf(log string) string {
	switch {
	case strings.Contains(log, "SST completed on joiner") || strings.Contains(log, "Proceeding with SST"):
		return TransferSST
	case strings.Contains(log, "IST completed on joiner") || strings.Contains(log, "Receiving IST:"):
		return TransferIST
	case strings.Contains(log, "State transfer required"):
		return TransferSST
	}
	return TransferNone
}

// readFrom returns what p holds after offset, at most its last 4 MiB: a
// joiner's log from its start, state transfer lines included.
func readFrom(p string, offset int64) string {
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	if size := fileSize(p); size-offset > 4<<20 {
		offset = size - 4<<20
	}
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return ""
	}
	b, _ := io.ReadAll(f)
	return string(b)
}

// lockedBuffer is a buffer several goroutines write lines to.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
