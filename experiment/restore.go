package experiment

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/replay"
	"github.com/joinbench/joinbench/replay/action"
	"github.com/joinbench/joinbench/results"
)

// restoreWorkload writes main1 on the nodes not restored: the backup is
// taken, and the restored node joins, while the cluster moves on.
var restoreWorkload = workload{scenarios: []string{"simple_inner_pk", "index_updates=2", "point_update=2"}, distribution: "uniform"}

// restoreRunLimit bounds a restore's run: the run is stopped when the
// restore ends, this is only its length if the restore never returns.
const restoreRunLimit = 30 * time.Minute

// restoreResult is one --use-memory value's restores, one per repetition.
type restoreResult struct {
	useMemory string
	restores  []sandbox.Restore
	// refused are the restores made but not judged, each named with why:
	// their quiet window held no successful execution of the workload.
	refused []string
}

// restore rebuilds Node from a backup of another node once per
// --use-memory value and repetition, each under its own write run on the
// other nodes that starts a quiet window before the backup.
func restore(ctx context.Context, e *env) (*Page, error) {
	if len(e.o.UseMemory) == 0 {
		return nil, usage.Errorf("restore needs --use-memory values (e.g. 100M,2G)")
	}
	for _, m := range e.o.UseMemory {
		if err := sandbox.CheckUseMemory(m); err != nil {
			return nil, err
		}
	}
	if e.o.BackupThrottle < 0 || e.o.BackupWriters < 0 {
		return nil, usage.Errorf("--backup-throttle and --backup-writers take 0 or more")
	}
	if len(e.tgt.Nodes) > 0 {
		return nil, usage.Errorf("restore puts its load on the nodes not restored: give --sandbox without --dsn")
	}
	named, err := sandbox.Open(e.o.SandboxDir, e.tgt.Sandbox.Name)
	if err != nil {
		return nil, err
	}
	if named.Cluster == nil {
		return nil, usage.Errorf("restore needs a Galera cluster sandbox")
	}
	named.SetLog(e.o.Log)
	// Before main1 is loaded: a cap this machine cannot set is refused
	// first.
	if err := sandbox.CheckPrepareReadIOPS(e.o.PrepareReadIOPS, named.Dir); err != nil {
		return nil, err
	}
	var others []server.Endpoint
	for _, ep := range e.tgt.Endpoints {
		if ep.Node != e.o.Node {
			others = append(others, ep)
		}
	}
	if len(others) == len(e.tgt.Endpoints) {
		return nil, usage.Errorf("--node %s is not a node of sandbox %s", e.o.Node, e.tgt.Sandbox.Name)
	}
	if err := e.prepare(ctx); err != nil {
		return nil, err
	}
	if e.o.BackupWriters > 0 {
		if err := e.fillBurst(ctx); err != nil {
			return nil, err
		}
		defer e.dropBurst(ctx, others[0])
	}
	results := make([]restoreResult, len(e.o.UseMemory))
	for i, mem := range e.o.UseMemory {
		results[i].useMemory = mem
	}
	if e.o.OneBackup {
		return e.restoreOneBackup(ctx, named.Cluster, others, results)
	}
	for rep := range max(e.o.Repetitions, 1) {
		for i, mem := range e.o.UseMemory {
			results[i].useMemory = mem
			name := fmt.Sprintf("use-memory-%s-%d", mem, rep+1)
			r, quiet, err := e.restoreUnderLoad(ctx, named.Cluster, others, name, mem, nil)
			if e.interrupted(ctx, err) {
				// The restores made so far are paged, this one is not;
				// what it left (a node stopped, a backup kept) is noted.
				return e.restoreDone(results), nil
			}
			if err != nil {
				return nil, err
			}
			if quiet == 0 {
				// Not kept silently: the page names it, the tally counts
				// it out.
				e.logf("restore %s: its quiet window had no successful execution: not judged", name)
				results[i].refused = append(results[i].refused, name)
				continue
			}
			results[i].restores = append(results[i].restores, r)
		}
	}
	return e.restoreDone(results), nil
}

// restoreOneBackup is restore with one backup per repetition, prepared
// with every --use-memory value: each value but the last of the
// repetition's order on a copy, the last on the backup that is restored.
// The order rotates from one repetition to the next, so that each value
// is in turn the first prepared and the one restored. Every value's row
// holds its own prepare with the repetition's copy and join.
func (e *env) restoreOneBackup(ctx context.Context, c *sandbox.Cluster, others []server.Endpoint, results []restoreResult) (*Page, error) {
	values := e.o.UseMemory
	index := func(mem string) int { return slices.Index(values, mem) }
	for rep := range max(e.o.Repetitions, 1) {
		main, also := oneBackupOrder(values, rep)
		name := fmt.Sprintf("one-backup-%d", rep+1)
		r, quiet, err := e.restoreUnderLoad(ctx, c, others, name, main, also)
		if e.interrupted(ctx, err) {
			return e.restoreDone(results), nil
		}
		if err != nil {
			return nil, err
		}
		if quiet == 0 {
			e.logf("restore %s: its quiet window had no successful execution: not judged", name)
			for i := range results {
				results[i].refused = append(results[i].refused, name+" ("+results[i].useMemory+")")
			}
			continue
		}
		for _, p := range r.Also {
			if i := index(p.UseMemory); i >= 0 {
				results[i].restores = append(results[i].restores, r.WithPrepare(p))
			}
		}
		r.Also = nil
		results[index(main)].restores = append(results[index(main)].restores, r)
	}
	return e.restoreDone(results), nil
}

// oneBackupOrder is repetition rep's order of the values, rotated by
// rep: the values prepared on copies, in turn, then the one restored.
func oneBackupOrder(values []string, rep int) (main string, also []string) {
	order := append(slices.Clone(values[rep%len(values):]), values[:rep%len(values)]...)
	return order[len(order)-1], order[:len(order)-1]
}

// errRunEnded is a write run that ended before its quiet window did.
var errRunEnded = errors.New("the write run ended before the restore started")

// quietWindow waits for the workload's measured start (origin: its first
// successful execution) and then window, and returns that quiet window. It
// is timed from the workload, not from the run's launch: a run that
// starts late on a busy machine shifts it, and cannot leave it empty.
// ended closes when the run ends; before the window's end that is
// errRunEnded.
func quietWindow(ctx context.Context, origin *action.Origin, ended <-chan struct{}, window time.Duration) ([2]time.Time, error) {
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-ended:
			cancel()
		case <-wctx.Done():
		}
	}()
	at, err := origin.Wait(wctx)
	if err != nil {
		if ctx.Err() != nil {
			return [2]time.Time{}, ctx.Err()
		}
		return [2]time.Time{}, errRunEnded
	}
	end := at.Add(window)
	t := time.NewTimer(time.Until(end))
	defer t.Stop()
	select {
	case <-t.C:
		return [2]time.Time{at, end}, nil
	case <-ended:
		return [2]time.Time{}, errRunEnded
	case <-ctx.Done():
		return [2]time.Time{}, ctx.Err()
	}
}

// restoreUnderLoad runs the write workload on others and, after a quiet
// window timed from the workload's measured start, restores the node; the
// run is stopped once the node is Synced. It returns the restore and the
// successful executions of its quiet window, read from the run's results
// (0: a window without traffic, or results that could not be read).
func (e *env) restoreUnderLoad(ctx context.Context, c *sandbox.Cluster, others []server.Endpoint, name, mem string, also []string) (sandbox.Restore, int64, error) {
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	origin := action.NewOrigin()
	var out *replay.Outcome
	var runErr error
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		out, runErr = e.runFrom(runCtx, others, nil, origin, name, restoreWorkload, restoreRunLimit)
	}()
	var r sandbox.Restore
	quiet, err := quietWindow(ctx, origin, ended, e.o.Window)
	if err != nil {
		stop()
		<-ended
		if ctx.Err() != nil {
			// The run ended because the lesson was interrupted.
			return r, 0, ctx.Err()
		}
		if runErr != nil {
			err = fmt.Errorf("%w: %w", err, runErr)
		}
		return r, 0, fmt.Errorf("run %s: %w", name, err)
	}
	e.logf("restore %s with --use-memory %s (quiet window from %s)", e.o.Node, mem, quiet[0].Format("15:04:05.000"))
	opts := sandbox.RestoreOptions{From: others[0].Node, UseMemory: mem, AlsoPrepare: also, Throttle: e.o.BackupThrottle,
		PrepareDirect: e.o.PrepareDirect, PrepareReadIOPS: e.o.PrepareReadIOPS}
	if e.o.BackupWriters > 0 {
		opts.DuringBackup = func(ctx context.Context) { e.backupWrites(ctx, others[0], name) }
	}
	opts.Joins = e.o.Joins
	mark := e.redoMark(ctx, others)
	r, err = c.RestoreNode(ctx, e.o.Node, opts)
	e.noteRedo(ctx, others, mark, r)
	stop()
	<-ended
	if runErr != nil && ctx.Err() == nil && !errors.Is(runErr, context.Canceled) {
		e.logf("warning: run %s: %v", name, runErr)
	}
	if err != nil {
		return r, 0, fmt.Errorf("restore %s: %w", e.o.Node, err)
	}
	if out == nil {
		return r, 0, nil
	}
	n, err := quietExecutions(out.Dir, quiet)
	if err != nil {
		e.logf("warning: run %s: %v", name, err)
	}
	return r, n, nil
}

// quietExecutions counts the successful executions of the run in dir
// that ended inside the quiet window w.
func quietExecutions(dir string, w [2]time.Time) (int64, error) {
	from, to := w[0].UnixNano(), w[1].UnixNano()
	var n int64
	_, err := results.ScanExecutionColumns(dir, nil, results.ColumnScan{SkipTemplates: true, SkipRows: true}, func(c *results.ExecutionColumns) error {
		for i := range c.Len {
			if end := c.StartNs[i] + c.LatencyNs[i]; c.ErrorCode[i] == 0 && end >= from && end < to {
				n++
			}
		}
		return nil
	})
	return n, err
}

// burstTable is the restore lesson's own table, rewritten during the
// backup (the workload's main1 is left as it was): burstRows rows of a
// 4000-byte value, three or four to a page.
const (
	burstTable = "restore_burst"
	burstRows  = 20000
	burstWidth = 4000
)

// backupChunk is how many rows of burstTable one statement of the
// backup's write burst rewrites.
const backupChunk = 1000

// backupWriteSQL rewrites a chunk of burstTable by primary key: every byte
// of each row's value changes, so that each row logs its old value (undo)
// and its new one (redo), about 8 kB, and the redo reaches many pages.
var backupWriteSQL = fmt.Sprintf("UPDATE %s SET n = n + 1, pad = REPEAT(CHAR(65 + (n + 1) %% 26), %d) WHERE id BETWEEN ? AND ?", burstTable, burstWidth)

// fillBurst (re)creates burstTable, once per lesson, before the first
// run.
func (e *env) fillBurst(ctx context.Context) error {
	e.logf("filling %s with %d rows of %d bytes (the backup's writes)", burstTable, burstRows, burstWidth)
	stmts := []string{"DROP TABLE IF EXISTS " + burstTable,
		"CREATE TABLE " + burstTable + fmt.Sprintf(" (id INT PRIMARY KEY, n INT NOT NULL DEFAULT 0, pad VARCHAR(%d) NOT NULL)", burstWidth)}
	// In chunks: one write-set of the whole table would stall the cluster.
	for lo := int64(1); lo <= burstRows; lo += 2000 {
		stmts = append(stmts, fmt.Sprintf("INSERT INTO %s (id, pad) SELECT n, REPEAT('A', %d) FROM (%s) s WHERE n BETWEEN %d AND %d",
			burstTable, burstWidth, numbersFrom1(burstRows), lo, min(lo+1999, burstRows)))
	}
	return e.exec(ctx, burstTable, stmts...)
}

// dropBurst drops burstTable at the lesson's end, also when it was
// interrupted, on ep, a node not restored: it is the lesson's own, and
// 80 MB the next lesson makes afresh. A DROP is one quick statement the
// cluster replicates (a node still joining gets it with the rest); a
// failure is only a warning.
func (e *env) dropBurst(ctx context.Context, ep server.Endpoint) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	db, err := ep.OpenDB()
	if err == nil {
		defer db.Close()
		_, err = db.ExecContext(ctx, "DROP TABLE IF EXISTS "+burstTable)
	}
	if err != nil {
		e.logf("warning: %s left on the server: %v", burstTable, err)
		return
	}
	e.logf("%s dropped", burstTable)
}

// backupWrites rewrites burstTable chunk after chunk on ep, BackupWriters
// threads each on its own stretch of ids, until ctx ends with the backup:
// the redo the prepare will apply. A statement that fails (a conflict) is
// left, the next goes on.
func (e *env) backupWrites(ctx context.Context, ep server.Endpoint, name string) {
	db, err := ep.OpenDB()
	if err != nil {
		e.logf("warning: run %s: the backup's writes: %v", name, err)
		return
	}
	defer db.Close()
	threads := e.o.BackupWriters
	size := int64(burstRows)
	var wg sync.WaitGroup
	var chunks, failed atomic.Int64
	for w := range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lo := 1 + int64(w)*size/int64(threads)
			for ctx.Err() == nil {
				if _, err := db.ExecContext(ctx, backupWriteSQL, lo, lo+backupChunk-1); err != nil {
					failed.Add(1)
				} else {
					chunks.Add(1)
				}
				if lo += backupChunk; lo > size {
					lo = 1
				}
			}
		}()
	}
	wg.Wait()
	e.logf("run %s: %d threads rewrote %d chunks of %d rows of %s during the backup (%d statements failed or were cut)",
		name, threads, chunks.Load(), backupChunk, burstTable, failed.Load())
}

// restorePage is the lesson's table (one row per --use-memory value, the
// repetitions' mean with their range) and verdict. Its columns, in order:
// the value; the backup's size and time; the redo to apply; the prepare's
// time and the redo applied per second; the copy's and the join's time;
// the whole restore's time and the redo's share of it; how many prepares
// needed several batches; how the node joined; with a read cap on the
// prepares, what they read from the disk and how many reads a second.
func restorePage(o Options, results []restoreResult) *Page {
	how := "a mariabackup backup of a running node"
	if o.BackupThrottle > 0 || o.BackupWriters > 0 {
		copied := "its copy unthrottled"
		if o.BackupThrottle > 0 {
			copied = fmt.Sprintf("its copy throttled to %d I/O operations a second", o.BackupThrottle)
		}
		how = fmt.Sprintf("a mariabackup backup of a running node (%s, %d threads rewriting the lesson's table %s, %d rows of %d bytes, in chunks of %d rows on it meanwhile)",
			copied, o.BackupWriters, burstTable, burstRows, burstWidth, backupChunk)
	}
	p := &Page{Title: "restore: a node rebuilt from a backup taken under load",
		What: fmt.Sprintf("A write workload on the other nodes (%d threads); %s rebuilt as an operator does it: %s, "+
			"--prepare (the redo apply) with each --use-memory, the node stopped and the backup moved into its data directory, then started on the backup's position to join. "+
			"Each restore starts after a quiet window of %s timed from the workload's first successful execution. %d repetition(s) per value.%s",
			o.Threads, o.Node, how, o.Window, max(o.Repetitions, 1), oneBackupText(o)),
		Table: Table{Header: []string{"--use-memory", "backup (MB)", "backup (s)", "redo applied (MB)", "prepare, redo apply (s)", "redo applied (MB/s)",
			"copy (s)", "join (s)", "whole restore (s)", "redo share", "prepare batches", "joined by"}},
		Notes: []string{
			"whole restore: from the start of the prepare to the node Synced (prepare, copy into the data directory, start and join); the backup is taken before and not counted.",
			"with several repetitions a cell is the mean, its range in brackets; redo applied per second is over all of the value's restores. Memory is judged by that rate, not the prepare's time: each backup gathers its own amount of redo.",
			"redo applied: what the prepare scanned, from the checkpoint its recovery started at (its log says which) to the backup's end; it is what the backed-up node had not checkpointed when the backup began plus what the nodes wrote during the backup, so it grows with the write rate and the backup's length, and so with the data size. The join is an IST of the write-sets since the backup while a donor still holds them, a full SST otherwise.",
			"--use-memory is the buffer pool of the prepare, which is InnoDB's crash recovery run on the backup: recovery keeps the redo it parses in buffer-pool blocks and, when the redo to apply outgrows them (about a third of the pool), " +
				"turns to several batches, logging \"Multi-batch recovery needed\" (MariaDB's documentation: mariadb-backup --use-memory, and the InnoDB redo log page, on sizing the redo log). prepare batches: the batches its log reports (\"To recover:\" lines), 1 when the redo fitted.",
		}}
	capped := o.PrepareReadIOPS > 0
	if capped {
		p.Table.Header = append(p.Table.Header, "prepare's disk reads (k)", "disk reads/s")
		p.Notes = append(p.Notes, prepareCapNote(o.PrepareReadIOPS, results))
	}
	var parts []string
	for _, res := range results {
		p.Tally.Judged += len(res.restores)
		for _, name := range res.refused {
			p.Notes = append(p.Notes, fmt.Sprintf("not judged: restore %s, whose quiet window had no successful execution of the workload (a restore is judged only against a workload that was running)", name))
		}
		if len(res.restores) == 0 {
			continue
		}
		var backup, backupSecs, redo, prep, copySecs, join, whole, shares, batches, reads []float64
		var joined []string
		for _, r := range res.restores {
			backup, backupSecs, redo = append(backup, float64(r.BackupBytes)/1e6), append(backupSecs, r.BackupSeconds()), append(redo, float64(r.PrepareRedo())/1e6)
			prep, copySecs, join = append(prep, r.PrepareSeconds()), append(copySecs, r.CopySeconds()), append(join, r.JoinSeconds())
			whole, shares = append(whole, r.RestoreSeconds()), append(shares, r.RedoShare())
			batches, reads = append(batches, float64(r.Batches)), append(reads, float64(r.PrepareReadOps)/1e3)
			if t := cmp.Or(r.Join.Transfer, "unknown"); !slices.Contains(joined, t) {
				joined = append(joined, t)
			}
		}
		mem := cmp.Or(res.useMemory, "default")
		p.Table.Rows = append(p.Table.Rows, []string{mem, spread(backup, "%.0f"), spread(backupSecs, "%.0f"), spread(redo, "%.1f"), spread(prep, "%.1f"),
			fmt.Sprintf("%.1f", applyRate(res)), spread(copySecs, "%.1f"), spread(join, "%.1f"), spread(whole, "%.1f"),
			shareSpread(shares), spread(batches, "%.0f"), strings.Join(joined, ", ")})
		if capped {
			row := &p.Table.Rows[len(p.Table.Rows)-1]
			*row = append(*row, spread(reads, "%.1f"), fmt.Sprintf("%.0f", readRate(res)))
		}
		if len(parts) == 0 {
			parts = append(parts, fmt.Sprintf("%s of the restore with %s", share(mean(shares)), mem))
		} else {
			parts = append(parts, fmt.Sprintf("%s with %s", share(mean(shares)), mem))
		}
	}
	if len(parts) == 0 {
		p.Verdict = "no restore was made"
		if p.Tally.Judged == 0 && slices.ContainsFunc(results, func(r restoreResult) bool { return len(r.refused) > 0 }) {
			p.Verdict = "no restore had a quiet window with traffic"
		}
		return p
	}
	p.Verdict = "redo apply was " + strings.Join(parts, " and ") + restoreConclusion(results)
	if capped {
		p.Verdict += fmt.Sprintf("; the prepares read from a disk held at %d reads a second, with O_DIRECT", o.PrepareReadIOPS)
	}
	addSST(p, o, results)                                    // restore_sst.go
	p.Figures = append(p.Figures, restoreFigure(results)...) // restore_figure.go
	return p
}

// oneBackupText says how --one-backup shares a backup among the values,
// and whether the prepares read past the operating system's cache, at a
// capped rate.
func oneBackupText(o Options) string {
	s := ""
	switch {
	case o.PrepareReadIOPS > 0:
		s = fmt.Sprintf(" The prepares read pages with O_DIRECT (--innodb-flush-method, implied by the cap), past the operating system's cache, "+
			"from a disk held at %d reads a second (--prepare-read-iops, a cgroup limit on the prepare alone, lifted when it ends): "+
			"a page --use-memory misses costs a read at that budget, as on a node whose data is far larger than its memory.", o.PrepareReadIOPS)
	case o.PrepareDirect:
		s = " The prepares read pages with O_DIRECT (--innodb-flush-method), past the operating system's cache, as on a server whose data is far larger than its memory: a page evicted from --use-memory is read from disk again."
	}
	if !o.OneBackup {
		return s
	}
	return s + " One backup per repetition, prepared with every value (each on a copy of it but the last, in an order that rotates from one repetition to the next), the last restored: " +
		"every value applies the same redo, and its row's copy and join are the repetition's one restore."
}

// restoreConclusion says what dominated the restores, and whether more
// memory made the redo apply faster.
func restoreConclusion(results []restoreResult) string {
	var most float64
	for _, res := range results {
		var s []float64
		for _, r := range res.restores {
			s = append(s, r.RedoShare())
		}
		most = max(most, mean(s))
	}
	s := ": at this scale the join dominates"
	if most >= 0.5 {
		s = ": the redo apply dominates"
	}
	if len(results) < 2 {
		return s
	}
	first, last := results[0], results[len(results)-1]
	a, b := applyRate(first), applyRate(last)
	if a <= 0 || b <= 0 {
		return s
	}
	// Rates, not times: each restore holds the redo its own backup
	// gathered, which differs from one to the next under the same load.
	fm, lm := cmp.Or(first.useMemory, "default"), cmp.Or(last.useMemory, "default")
	switch r := b / a; {
	case r >= 1.2:
		s += fmt.Sprintf("; the redo apply ran %.1fx as fast with %s as with %s (%.1f against %.1f MB of redo per second): %s starved it", r, lm, fm, b, a, fm)
	case r <= 1/1.2:
		s += fmt.Sprintf("; the redo apply ran %.1fx as fast with %s as with %s (%.1f against %.1f MB of redo per second)", 1/r, fm, lm, a, b)
	default:
		s += fmt.Sprintf("; %s and %s applied redo at about the same rate (%.1f and %.1f MB/s): too little redo for the memory to matter", fm, lm, a, b)
	}
	return s
}

// prepareCapNote says what the prepares' read cap stands for and what
// they read under it.
func prepareCapNote(iops int64, results []restoreResult) string {
	dev := ""
	for _, res := range results {
		for _, r := range res.restores {
			dev = cmp.Or(dev, r.PrepareReadDevice)
		}
	}
	if dev != "" {
		dev = " " + dev
	}
	return fmt.Sprintf("the prepares' reads were held at %d a second (--prepare-read-iops; a cgroup limit on the disk%s of the restore folder, on the prepare's process alone, set before it read anything and lifted when it ended), with O_DIRECT: "+
		"the disk of a node whose data is far larger than its memory (an EBS-like volume with a fixed budget of operations a second), where a page the redo apply needs and --use-memory does not hold is a real read. "+
		"Without it a sandbox's backup sits in the page cache and a miss costs nothing. prepare's disk reads: what the prepare read from the disk under the cap (the cgroup's count, pages and the redo log's reads alike; thousands); "+
		"disk reads/s: over the prepare's time, near the cap when the prepare waited for the disk. The redo applied per second is then a rate on that disk.", iops, dev)
}

// readRate is the prepares' disk reads per second of prepare, over the
// value's restores.
func readRate(res restoreResult) float64 {
	var reads, secs float64
	for _, r := range res.restores {
		reads, secs = reads+float64(r.PrepareReadOps), secs+r.PrepareSeconds()
	}
	if secs <= 0 {
		return 0
	}
	return reads / secs
}

// applyRate is the redo applied per second of prepare, in MB, over the
// value's restores.
func applyRate(res restoreResult) float64 {
	var redo, secs float64
	for _, r := range res.restores {
		redo, secs = redo+float64(r.PrepareRedo())/1e6, secs+r.PrepareSeconds()
	}
	if secs <= 0 {
		return 0
	}
	return redo / secs
}

// spread is the mean of xs, with their range when there are several.
func spread(xs []float64, format string) string {
	m := fmt.Sprintf(format, mean(xs))
	if len(xs) < 2 {
		return m
	}
	return fmt.Sprintf("%s ["+format+", "+format+"]", m, slices.Min(xs), slices.Max(xs))
}

func shareSpread(xs []float64) string {
	m := share(mean(xs))
	if len(xs) < 2 {
		return m
	}
	return fmt.Sprintf("%s [%.0f, %.0f]", m, 100*slices.Min(xs), 100*slices.Max(xs))
}
