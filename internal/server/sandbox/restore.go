package sandbox

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/joinbench/joinbench/internal/ledger"
	"github.com/joinbench/joinbench/internal/throttle"
	"github.com/joinbench/joinbench/internal/usage"
)

// RestoreOptions say how RestoreNode restores a node from a backup.
type RestoreOptions struct {
	// From is the node the backup is taken of; empty: the first other
	// running node.
	From string
	// UseMemory is mariabackup --prepare's --use-memory (100M, 2G): the
	// memory the redo apply may use for pages; empty: mariabackup's own
	// default.
	UseMemory string
	// Throttle is mariabackup --backup's --throttle: the data files'
	// copy limited to that many I/O operations (of 1 MB) a second, so
	// that the backup lasts and the redo written meanwhile accumulates
	// for the prepare to apply; 0: unthrottled.
	Throttle int
	// PrepareDirect gives the prepares --innodb-flush-method=O_DIRECT:
	// their page reads bypass the operating system's cache, as when the
	// data is far larger than the machine's memory, so that a page
	// evicted from --use-memory costs a disk read again.
	PrepareDirect bool
	// PrepareReadIOPS holds each prepare's disk reads at that many
	// operations a second, by a cgroup limit on the disk of the restore
	// folder (throttle.Cap) set before the prepare reads anything and
	// lifted when it ends, fails or is stopped: a disk of a given speed,
	// as on a node whose data is far larger than its memory, where every
	// page --use-memory misses is a read at a fixed budget. It implies
	// PrepareDirect: the backup was just written, so the page cache holds
	// it and would serve every read of a buffered prepare, which the cap
	// would then never see. 0: no cap.
	PrepareReadIOPS int64
	// AlsoPrepare are more --use-memory values whose prepares are timed
	// on copies of the same backup, one after the other, before the
	// prepare of the backup restored (with UseMemory): the same redo
	// applied with each memory (Restore.Also).
	AlsoPrepare []string
	// DuringBackup, when set, runs beside the backup (the restore lesson's
	// write burst on the backed-up node); its ctx ends with the backup,
	// and the backup's end waits for it to return.
	DuringBackup func(ctx context.Context)
	// Joins say how the restored node joins (JoinIST, JoinSST): ist (or
	// none) on the backup's position; sst with its position cleared, a
	// full state transfer; ist,sst the first, then, once Synced, the node
	// stopped and rejoined by the second, timed (Restore.Rejoin).
	Joins []string
}

// Restore is what RestoreNode did and when: the backup of a running node,
// the prepare (the redo apply, timed on its own), the copy into the
// restored node's data directory and its join.
type Restore struct {
	Node, From, UseMemory string
	// Throttle is the backup's --throttle (0: none); PrepareDirect the
	// prepares' O_DIRECT (RestoreOptions.PrepareDirect).
	Throttle      int
	PrepareDirect bool
	// PrepareReadIOPS is the cap on the prepares' disk reads
	// (RestoreOptions.PrepareReadIOPS, 0: none) and PrepareReadDevice the
	// disk it held ("253:0").
	PrepareReadIOPS   int64
	PrepareReadDevice string
	// BackupStart, BackupEnd: mariabackup --backup of From, while it
	// served its clients.
	BackupStart, BackupEnd time.Time
	// PrepareStart, PrepareEnd: mariabackup --prepare, which applies the
	// redo written during the backup to the copied pages.
	PrepareStart, PrepareEnd time.Time
	// CopyStart, CopyEnd: the node stopped, its data directory emptied and
	// the prepared backup moved in.
	CopyStart, CopyEnd time.Time
	// Join is the node's start on the backup's position until Synced;
	// Join.Transfer says how it got what it missed since the backup.
	// With Joins sst it started with its position cleared instead.
	Join Recovery
	// Rejoin, with Joins ist,sst, is the node's second join, once Join
	// was Synced: stopped and started with its Galera position cleared,
	// by a full state transfer (RejoinBySST); zero otherwise.
	Rejoin Recovery
	// BackupBytes is the size of the backup; RedoBytes the redo it held
	// to apply (last_lsn - to_lsn of xtrabackup_checkpoints).
	BackupBytes, RedoBytes int64
	// Position is the backup's Galera position (uuid:seqno).
	Position string
	// MultiBatch: the prepare said "Multi-batch recovery needed": the
	// redo it parsed did not fit the memory given (--use-memory), so it
	// applied it in several batches, reading the log again for each.
	MultiBatch bool
	// Batches is how many batches the prepare applied the redo in (its
	// "To recover:" lines; 0 when its log does not say).
	Batches int
	// PrepareRedoBytes is the redo the prepare scanned: from the
	// checkpoint its recovery started at to the backup's last_lsn, more
	// than RedoBytes when the backed-up node's checkpoint lagged; 0 when
	// its log does not say.
	PrepareRedoBytes int64
	// PrepareReadOps and PrepareReadBytes are what the prepare read
	// from the disk under the cap (the cgroup's counts); 0 without one.
	PrepareReadOps, PrepareReadBytes int64
	// Also are the prepares of RestoreOptions.AlsoPrepare, each on a copy
	// of this backup, made before this restore's own.
	Also []Prepare
}

// BackupSeconds is the backup's time (before the restore proper).
func (r Restore) BackupSeconds() float64 { return r.BackupEnd.Sub(r.BackupStart).Seconds() }

// CopySeconds is the time from the node's stop to the backup in its
// data directory.
func (r Restore) CopySeconds() float64 { return r.CopyEnd.Sub(r.CopyStart).Seconds() }

// JoinSeconds is the time from the backup in place to the node Synced:
// its start and the state transfer of what it missed.
func (r Restore) JoinSeconds() float64 { return r.Join.Synced.Sub(r.CopyEnd).Seconds() }

// Prepare is one mariabackup --prepare of a backup: its --use-memory,
// its time and what its log said.
type Prepare struct {
	UseMemory  string
	Start, End time.Time
	// MultiBatch, Batches and RedoBytes are as Restore's MultiBatch,
	// Batches and PrepareRedoBytes.
	MultiBatch bool
	Batches    int
	RedoBytes  int64
	// ReadOps and ReadBytes are as Restore's PrepareReadOps and
	// PrepareReadBytes.
	ReadOps, ReadBytes int64
}

// Seconds is the prepare's time.
func (p Prepare) Seconds() float64 { return p.End.Sub(p.Start).Seconds() }

// WithPrepare is r as if its prepare had been p: its --use-memory,
// times and batches (the copy and the join stay r's).
func (r Restore) WithPrepare(p Prepare) Restore {
	r.UseMemory, r.PrepareStart, r.PrepareEnd = p.UseMemory, p.Start, p.End
	r.MultiBatch, r.Batches, r.PrepareRedoBytes = p.MultiBatch, p.Batches, p.RedoBytes
	r.PrepareReadOps, r.PrepareReadBytes = p.ReadOps, p.ReadBytes
	r.Also = nil
	return r
}

// PrepareRedo is the redo the prepare applied: what its log says it
// scanned, else what the backup holds past its checkpoint (RedoBytes).
func (r Restore) PrepareRedo() int64 { return cmp.Or(r.PrepareRedoBytes, r.RedoBytes) }

// PrepareSeconds is the redo apply's time.
func (r Restore) PrepareSeconds() float64 { return r.PrepareEnd.Sub(r.PrepareStart).Seconds() }

// RestoreSeconds is the restore's whole time: the prepare, the copy and
// the join until Synced (the backup is taken before, and not counted),
// the sum of the three.
func (r Restore) RestoreSeconds() float64 {
	return r.PrepareSeconds() + r.CopySeconds() + r.JoinSeconds()
}

// RedoShare is the share of the restore's time spent applying redo.
func (r Restore) RedoShare() float64 {
	if t := r.RestoreSeconds(); t > 0 {
		return r.PrepareSeconds() / t
	}
	return 0
}

// RestoreNode restores node name of the running cluster from a backup
// the way an operator rebuilds a lost node: mariabackup --backup of a
// running node (its clients go on), --prepare with opts.UseMemory, the
// node stopped and its data replaced by the backup (--move-back), then
// started on the backup's Galera position so that it joins by IST when a
// donor still holds the write-sets since, by SST otherwise.
func (c *Cluster) RestoreNode(ctx context.Context, name string, opts RestoreOptions) (Restore, error) {
	direct := opts.PrepareDirect || opts.PrepareReadIOPS > 0
	r := Restore{Node: name, UseMemory: opts.UseMemory, Throttle: opts.Throttle, PrepareDirect: direct, PrepareReadIOPS: opts.PrepareReadIOPS}
	for _, m := range append([]string{opts.UseMemory}, opts.AlsoPrepare...) {
		if err := CheckUseMemory(m); err != nil {
			return r, err
		}
	}
	if opts.Throttle < 0 {
		return r, usage.Errorf("--throttle %d: give a number of I/O operations per second, or 0 for none", opts.Throttle)
	}
	if err := CheckPrepareReadIOPS(opts.PrepareReadIOPS, c.Dir); err != nil {
		return r, err
	}
	if err := CheckJoins(opts.Joins); err != nil {
		return r, err
	}
	n, from, err := c.restorePair(name, opts.From)
	if err != nil {
		return r, err
	}
	r.From = from.Name
	tool, err := backupTool(c.Binary.Path)
	if err != nil {
		return r, err
	}
	work := filepath.Join(c.Dir, "restore-"+n.Name)
	if err := os.RemoveAll(work); err != nil {
		return r, err
	}
	l := LedgerOf(c.Dir)
	scratchDone, err := l.Add(ledger.Entry{Kind: ChangeScratch, Node: n.Name, What: "restore folder " + work,
		Undo: map[string]string{"path": work}})
	if err != nil {
		return r, err
	}
	// Once the node is stopped and emptied, the prepared backup is its
	// only copy: a failure after that keeps it and says how to finish.
	keep := false
	defer func() {
		if !keep {
			os.RemoveAll(work)
			_ = scratchDone()
		}
	}()
	target := filepath.Join(work, "backup")
	logFile := filepath.Join(work, "mariabackup.log")
	if err := os.MkdirAll(work, 0o755); err != nil {
		return r, err
	}
	run := func(ctx context.Context, step string, args ...string) error {
		return runBackupTool(ctx, tool, logFile, step, nil, args...)
	}

	backup := []string{"--defaults-file=" + from.OptionFile, "--backup", "--galera-info", "--no-version-check",
		"--user=root", "--socket=" + from.Socket, "--target-dir=" + target}
	if opts.Throttle > 0 {
		backup = append(backup, fmt.Sprintf("--throttle=%d", opts.Throttle))
		fmt.Fprintf(c.log, "%s: backup of %s, its copy throttled to %d I/O operations a second\n", n.Name, from.Name, opts.Throttle)
	} else {
		fmt.Fprintf(c.log, "%s: backup of %s\n", n.Name, from.Name)
	}
	r.BackupStart = time.Now()
	if err := runBeside(ctx, opts.DuringBackup, func() error { return run(ctx, "backup", backup...) }); err != nil {
		return r, err
	}
	r.BackupEnd = time.Now()
	r.BackupBytes = dataBytes(target)
	r.RedoBytes = redoToApply(filepath.Join(target, "xtrabackup_checkpoints"))
	if r.Position, err = galeraInfo(filepath.Join(target, "xtrabackup_galera_info")); err != nil {
		return r, err
	}

	prepare := func(dir, mem string) (Prepare, error) {
		fmt.Fprintf(c.log, "%s: prepare (redo apply) with --use-memory=%s\n", n.Name, cmp.Or(mem, "default"))
		args := []string{"--no-defaults", "--prepare", "--no-version-check", "--target-dir=" + dir}
		if mem != "" {
			args = append(args, "--use-memory="+mem)
		}
		if direct {
			args = append(args, "--innodb-flush-method=O_DIRECT")
		}
		p := Prepare{UseMemory: mem}
		var hold func(pid int) (func() error, error)
		if opts.PrepareReadIOPS > 0 {
			hold = func(pid int) (func() error, error) {
				capped, err := c.capPrepare(n.Name, pid, dir, opts.PrepareReadIOPS)
				if err != nil {
					return nil, err
				}
				r.PrepareReadDevice = capped.Device().String()
				return func() error {
					// Read before the lift, which removes the group.
					if u, err := capped.Usage(); err == nil {
						p.ReadOps, p.ReadBytes = int64(u.ReadOps), int64(u.ReadBytes)
					}
					err := capped.Lift()
					if err == nil {
						fmt.Fprintf(c.log, "%s: prepare's read cap lifted; it read %d times (%.1f MB) from the disk\n", n.Name, p.ReadOps, float64(p.ReadBytes)/1e6)
					}
					return err
				}, nil
			}
		}
		if direct {
			// The backup (or its copy) was just written and may still be
			// in the page cache, dirty: an O_DIRECT read of a page waits
			// for its writeback first. Written out before the prepare is
			// timed, its time is its own, not the copy's.
			syscall.Sync()
		}
		from := fileSize(logFile)
		p.Start = time.Now()
		if err := runBackupTool(ctx, tool, logFile, "prepare", hold, args...); err != nil {
			return p, err
		}
		p.End = time.Now()
		pf := readPrepareLog(logFile, from)
		p.MultiBatch, p.Batches = pf.multiBatch, pf.batches
		if last := lsnOf(filepath.Join(dir, "xtrabackup_checkpoints"), "last_lsn"); pf.fromLSN > 0 && last > pf.fromLSN {
			p.RedoBytes = last - pf.fromLSN
		}
		return p, nil
	}
	for _, mem := range opts.AlsoPrepare {
		// On a copy: a prepared backup cannot be prepared again.
		dir := filepath.Join(work, "copy")
		if err := os.RemoveAll(dir); err != nil {
			return r, err
		}
		if err := os.Mkdir(dir, 0o755); err != nil {
			return r, err
		}
		if err := copyDataDir(target, dir); err != nil {
			return r, fmt.Errorf("copy of the backup for --use-memory=%s: %w", mem, err)
		}
		p, err := prepare(dir, mem)
		if err != nil {
			return r, err
		}
		r.Also = append(r.Also, p)
		if err := os.RemoveAll(dir); err != nil {
			return r, err
		}
	}
	p, err := prepare(target, opts.UseMemory)
	if err != nil {
		return r, err
	}
	r.PrepareStart, r.PrepareEnd = p.Start, p.End
	r.MultiBatch, r.Batches, r.PrepareRedoBytes = p.MultiBatch, p.Batches, p.RedoBytes
	r.PrepareReadOps, r.PrepareReadBytes = p.ReadOps, p.ReadBytes

	fmt.Fprintf(c.log, "%s: stopping it and moving the backup into its data directory\n", n.Name)
	r.CopyStart = time.Now()
	downDone, err := l.Add(ledger.Entry{Kind: ChangeNodeDown, Node: n.Name, What: n.Name + " stopped, its data being replaced by a restore",
		Undo: map[string]string{"rebuild": "sst"}})
	if err != nil {
		return r, err
	}
	if err := n.Stop(context.WithoutCancel(ctx)); err != nil {
		return r, fmt.Errorf("stop %s: %w", n.Name, err)
	}
	// From here on the node's data is being replaced: the steps run to
	// the end whatever happens to ctx, and a failure keeps the backup.
	moved := func(err error) error {
		// The user is told how to finish: nothing is left to undo.
		keep = true
		_, _ = downDone(), scratchDone()
		return fmt.Errorf("%w; %s is stopped; its prepared backup is kept in %s (mariabackup --move-back --target-dir=%s --datadir=%s, then sandbox start)",
			err, n.Name, target, target, n.DataDir)
	}
	if err := emptyDir(n.DataDir); err != nil {
		return r, moved(err)
	}
	if err := run(context.WithoutCancel(ctx), "restore", "--defaults-file="+n.OptionFile, "--move-back", "--no-version-check",
		"--target-dir="+target, "--datadir="+n.DataDir); err != nil {
		return r, moved(err)
	}
	// The backup's position as the node's saved state: without it the
	// provider starts from nothing and asks for a full copy, which is
	// what Joins sst asks for.
	onPosition, rejoinSST := JoinPlan(opts.Joins)
	pos := r.Position
	if !onPosition {
		pos = ""
		fmt.Fprintf(c.log, "%s: its Galera position cleared: it joins by a full state transfer\n", n.Name)
	}
	if err := saveGrastate(n.DataDir, cmp.Or(pos, zeroUUID+":-1")); err != nil {
		return r, moved(err)
	}
	r.CopyEnd = time.Now()

	start, cancel := context.WithTimeout(context.WithoutCancel(ctx), CrashRecoveryTimeout)
	defer cancel()
	r.Join = Recovery{Node: n.Name, ClusterSize: len(c.Nodes), Killed: r.CopyStart, Position: pos}
	n.startPosition = pos
	if err := c.relaunch(start, n, false, &r.Join); err != nil {
		return r, err
	}
	if !onPosition && r.Join.Transfer != TransferSST {
		_ = downDone()
		return r, fmt.Errorf("%s, started with its Galera position cleared, joined by %s, not by a full state transfer (log: %s)", n.Name, r.Join.Transfer, n.ErrorLog)
	}
	if err := downDone(); err != nil || !rejoinSST {
		return r, err
	}
	r.Rejoin, err = c.rejoinBySST(ctx, n)
	return r, err
}

// runBeside runs step with beside (when not nil) running meanwhile in a
// goroutine of its own, whose ctx ends when step returns; it returns once
// both are done.
func runBeside(ctx context.Context, beside func(context.Context), step func() error) error {
	if beside == nil {
		return step()
	}
	bctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); beside(bctx) }()
	err := step()
	stop()
	<-done
	return err
}

// runBackupTool runs one step of a restore (backup, prepare, restore)
// with mariabackup, its output appended to logFile. A failure is one line
// naming the step, how the tool ended (killed by a signal, or its exit
// status) and the end of its log; a step stopped because ctx ended says
// so and wraps ctx's error, so that the command reads as interrupted.
//
// hold, when not nil, is given the tool's pid before it runs and returns
// what undoes what it did (a read cap): the tool is started behind a
// gate (a shell that waits for a line on its stdin, then execs it, in
// the same process), so that nothing it does escapes hold; release runs
// once it has exited, however it ended. A hold that fails stops the tool
// before it ran.
func runBackupTool(ctx context.Context, tool, logFile, step string, hold func(pid int) (release func() error, err error), args ...string) error {
	out, err := os.OpenFile(logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer out.Close()
	// The log holds the steps before this one: only this step's lines
	// go into its error.
	from := fileSize(logFile)
	cmd := exec.CommandContext(ctx, tool, args...)
	if hold != nil {
		// exec keeps the pid, the cgroup and the parent-death signal.
		cmd = exec.CommandContext(ctx, "/bin/sh", append([]string{"-c", `read _ && exec "$0" "$@"`, tool}, args...)...)
	}
	cmd.Stdout, cmd.Stderr = out, out
	// A killed joinbench takes its backup tool with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{}
	stopWithParent(cmd.SysProcAttr)
	what := filepath.Base(tool) + " " + backupStep(args)
	release := func() error { return nil }
	if hold == nil {
		err = cmd.Run()
	} else {
		var held error
		release, held, err = runHeld(cmd, hold)
		if held != nil {
			return fmt.Errorf("%s: %s not run: %w", step, what, held)
		}
	}
	// However the tool ended, what hold did is undone.
	if rerr := release(); rerr != nil {
		return fmt.Errorf("%s: %s: %w", step, what, errors.Join(err, rerr))
	}
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%s: %s stopped: %w", step, what, context.Cause(ctx))
	}
	msg := fmt.Sprintf("%s: %s %s", step, what, childEnd(err))
	if tail := lastLines(readTailFrom(logFile, from), 5); tail != "" {
		msg += "; its log ends: " + tail
	}
	return errors.New(msg)
}

// runHeld starts cmd behind its gate, gives its pid to hold, opens the
// gate and waits for it: err is how it ended, release what undoes hold
// (to run now that it has exited). A hold that fails (held) stops the
// process before the gate opens.
func runHeld(cmd *exec.Cmd, hold func(pid int) (func() error, error)) (release func() error, held, err error) {
	none := func() error { return nil }
	gate, err := cmd.StdinPipe()
	if err != nil {
		return none, nil, err
	}
	if err := cmd.Start(); err != nil {
		return none, nil, err
	}
	release, held = hold(cmd.Process.Pid)
	if held != nil {
		_ = cmd.Process.Kill()
		gate.Close()
		_ = cmd.Wait()
		return none, held, nil
	}
	_, werr := gate.Write([]byte("\n"))
	gate.Close()
	err = cmd.Wait()
	if err == nil {
		err = werr
	}
	return release, nil, err
}

// CheckPrepareReadIOPS refuses a read cap on the prepares that could not
// be set on this machine (dir: where the restore folder is made), before
// a backup is taken for nothing. 0 is no cap.
func CheckPrepareReadIOPS(iops int64, dir string) error {
	switch {
	case iops < 0:
		return usage.Errorf("--prepare-read-iops %d: give 0 (no cap) or more", iops)
	case iops == 0:
		return nil
	}
	if err := throttle.Check(throttle.IO, dir); err != nil {
		return usage.Errorf("--prepare-read-iops %d: %v; give 0 to prepare without a cap", iops, err)
	}
	return nil
}

// capPrepare holds the reads of the prepare pid, working in dir, at iops a
// second, noted in the sandbox's ledger before its group is made, as a
// slow action's limit is: a joinbench killed meanwhile takes its prepare
// with it and leaves the group, which the next command removes.
func (c *Cluster) capPrepare(node string, pid int, dir string, iops int64) (*throttle.Capped, error) {
	l := LedgerOf(c.Dir)
	capped, err := throttle.Cap(throttle.CapSpec{PID: pid, Path: dir, ReadIOPS: iops,
		Record: func(group, from string) (func() error, error) {
			return ledger.Record(l, ledger.Entry{Kind: ChangeCgroup, Node: node,
				What: fmt.Sprintf("%s's restore: its prepare (pid %d) in cgroup %s, its reads capped at %d a second", node, pid, group, iops),
				Undo: map[string]string{"group": group, "from": from}})
		}})
	if err != nil {
		return nil, fmt.Errorf("cap its reads at %d a second: %w", iops, err)
	}
	var files []string
	for f, v := range capped.Files {
		files = append(files, f+" = "+v)
	}
	fmt.Fprintf(c.log, "%s: prepare's reads capped at %d a second (%s in %s)\n", node, iops, strings.Join(files, ", "), capped.Group)
	return capped, nil
}

// backupStep is the mode among mariabackup's arguments (--backup,
// --prepare, --move-back), which names what it was doing.
func backupStep(args []string) string {
	for _, a := range args {
		switch a {
		case "--backup", "--prepare", "--move-back", "--copy-back":
			return a
		}
	}
	return strings.Join(args, " ")
}

// useMemorySize is what mariabackup --use-memory takes: bytes, or a
// number of K, M or G.
var useMemorySize = regexp.MustCompile(`^[0-9]+[KMGkmg]?$`)

// CheckUseMemory refuses a --use-memory value mariabackup would refuse,
// before a backup is taken for nothing ("" is mariabackup's default).
func CheckUseMemory(v string) error {
	if v != "" && !useMemorySize.MatchString(v) {
		return usage.Errorf("--use-memory %q: give bytes or a number of K, M or G (100M, 2G)", v)
	}
	return nil
}

func nodeNames(nodes []*Node) string {
	var out []string
	for _, n := range nodes {
		out = append(out, n.Name)
	}
	return strings.Join(out, ", ")
}

// nodeNamed is the cluster's node of that name, nil when none is.
func (c *Cluster) nodeNamed(name string) *Node {
	for _, x := range c.Nodes {
		if x.Name == name {
			return x
		}
	}
	return nil
}

// restorePair finds the node to restore and the node to back up.
func (c *Cluster) restorePair(name, fromName string) (n, from *Node, err error) {
	if n = c.nodeNamed(name); n == nil {
		return nil, nil, usage.Errorf("no node %q (the nodes are %s)", name, nodeNames(c.Nodes))
	}
	for _, x := range c.Nodes {
		if x != n && x.Running() && (fromName == "" || x.Name == fromName) {
			from = x
			break
		}
	}
	if from == nil {
		if fromName != "" {
			return nil, nil, usage.Errorf("--from %s: no running node of that name other than %s to back up", fromName, name)
		}
		return nil, nil, usage.Errorf("no running node other than %s to back up", name)
	}
	if !n.Running() {
		return nil, nil, usage.Errorf("%s is not running (sandbox start it first)", name)
	}
	return n, from, nil
}

// backupTool finds mariabackup: beside the server binary, else on PATH
// (mariadb-backup, or its older name).
func backupTool(server string) (string, error) {
	for _, name := range []string{"mariadb-backup", "mariabackup"} {
		if p := filepath.Join(filepath.Dir(server), name); isExecutable(p) {
			return p, nil
		}
		for _, dir := range []string{"/usr/bin", "/usr/local/bin"} {
			if p := filepath.Join(dir, name); isExecutable(p) {
				return p, nil
			}
		}
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("mariadb-backup not found (install the mariadb-backup package)")
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

// galeraInfo reads the backup's Galera position, "uuid:seqno" (the file
// may add a GTID domain after a space).
func galeraInfo(p string) (string, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return "", fmt.Errorf("the backup holds no Galera position: %w", err)
	}
	pos, _, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
	if !strings.Contains(pos, ":") {
		return "", fmt.Errorf("%s: no uuid:seqno in %q", p, b)
	}
	return pos, nil
}

// redoToApply reads from xtrabackup_checkpoints how much redo the backup
// copied past its checkpoint: what the prepare applies. 0 when unknown.
func redoToApply(p string) int64 {
	return max(0, lsnOf(p, "last_lsn")-lsnOf(p, "to_lsn"))
}

// lsnOf is the value of key in xtrabackup_checkpoints p; 0 when unknown.
func lsnOf(p, key string) int64 {
	f, err := os.Open(p)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok && strings.TrimSpace(k) == key {
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n
		}
	}
	return 0
}

// multiBatchLine is what InnoDB's recovery (and so mariabackup
// --prepare) logs when the redo it parses outgrows its memory and it
// turns to applying it in batches.
const multiBatchLine = "Multi-batch recovery needed"

// recoveryStart is the line InnoDB's recovery starts with, naming the
// checkpoint it scans the redo from.
var recoveryStart = regexp.MustCompile(`Starting crash recovery from checkpoint LSN=([0-9]+)`)

// prepareLog is what the prepare's log says of its redo apply.
type prepareLog struct {
	multiBatch bool
	batches    int   // "To recover:" lines, one per batch
	fromLSN    int64 // the checkpoint its recovery started at
}

// readPrepareLog reads the lines of p written after offset (the
// prepare's own).
func readPrepareLog(p string, offset int64) prepareLog {
	var pl prepareLog
	f, err := os.Open(p)
	if err != nil {
		return pl
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return pl
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.Contains(line, multiBatchLine):
			pl.multiBatch = true
		case strings.Contains(line, "InnoDB: To recover:"):
			pl.batches++
		}
		if m := recoveryStart.FindStringSubmatch(line); m != nil && pl.fromLSN == 0 {
			pl.fromLSN, _ = strconv.ParseInt(m[1], 10, 64)
		}
	}
	return pl
}

// emptyDir removes what dir holds, keeping dir.
func emptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// lastLines is the last n lines of s, on one line.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
