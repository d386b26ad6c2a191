package experiment

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/internal/usage"
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
	results := make([]restoreResult, len(e.o.UseMemory))
	for rep := range max(e.o.Repetitions, 1) {
		for i, mem := range e.o.UseMemory {
			results[i].useMemory = mem
			r, err := e.restoreUnderLoad(ctx, named.Cluster, others, fmt.Sprintf("use-memory-%s-%d", mem, rep+1), mem)
			if e.interrupted(ctx, err) {
				// The restores made so far are paged, this one is not;
				// what it left (a node stopped, a backup kept) is noted.
				return e.restoreDone(results), nil
			}
			if err != nil {
				return nil, err
			}
			results[i].restores = append(results[i].restores, r)
		}
	}
	return e.restoreDone(results), nil
}

// restoreUnderLoad runs the write workload on others and, after a quiet
// window, restores the node; the run is stopped once the node is Synced.
func (e *env) restoreUnderLoad(ctx context.Context, c *sandbox.Cluster, others []server.Endpoint, name, mem string) (sandbox.Restore, error) {
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan error, 1)
	go func() {
		_, err := e.runOn(runCtx, others, nil, name, restoreWorkload, restoreRunLimit)
		done <- err
	}()
	var r sandbox.Restore
	var err error
	select {
	case err = <-done:
		if ctx.Err() != nil {
			// The run ended because the lesson was interrupted.
			return r, ctx.Err()
		}
		if err == nil {
			err = errors.New("the write run ended before the restore started")
		}
		return r, fmt.Errorf("run %s: %w", name, err)
	case <-ctx.Done():
		return r, ctx.Err()
	case <-time.After(e.o.Warmup + e.o.Window):
	}
	e.logf("restore %s with --use-memory %s", e.o.Node, mem)
	mark := e.redoMark(ctx, others)
	r, err = c.RestoreNode(ctx, e.o.Node, sandbox.RestoreOptions{UseMemory: mem})
	e.noteRedo(ctx, others, mark, r)
	stop()
	if runErr := <-done; runErr != nil && ctx.Err() == nil && !errors.Is(runErr, context.Canceled) {
		e.logf("warning: run %s: %v", name, runErr)
	}
	if err != nil {
		return r, fmt.Errorf("restore %s: %w", e.o.Node, err)
	}
	return r, nil
}

// restorePage is the lesson's table (one row per --use-memory value, the
// repetitions' mean with their range) and verdict.
func restorePage(o Options, results []restoreResult) *Page {
	p := &Page{Title: "restore: a node rebuilt from a backup taken under load",
		What: fmt.Sprintf("A write workload on the other nodes (%d threads); %s rebuilt as an operator does it: a mariabackup backup of a running node, "+
			"--prepare (the redo apply) with each --use-memory, the node stopped and the backup moved into its data directory, then started on the backup's position to join. %d repetition(s) per value.",
			o.Threads, o.Node, max(o.Repetitions, 1)),
		Table: Table{Header: []string{"--use-memory", "backup (MB)", "redo to apply (MB)", "prepare, redo apply (s)", "redo applied (MB/s)", "whole restore (s)", "redo share", "joined by"}},
		Notes: []string{
			"whole restore: from the start of the prepare to the node Synced (prepare, copy into the data directory, start and join); the backup is taken before and not counted.",
			"with several repetitions a cell is the mean, its range in brackets; redo applied per second is over all of the value's restores. Memory is judged by that rate, not the prepare's time: each backup gathers its own amount of redo.",
			"the redo to apply is what the nodes wrote during the backup: it grows with the write rate and the backup's length, and so with the data size; the join is an IST of the write-sets since the backup while a donor still holds them, a full SST otherwise.",
		}}
	var parts []string
	for _, res := range results {
		p.Tally.Judged += len(res.restores)
		if len(res.restores) == 0 {
			continue
		}
		var backup, redo, prep, whole, shares []float64
		var joined []string
		for _, r := range res.restores {
			backup, redo = append(backup, float64(r.BackupBytes)/1e6), append(redo, float64(r.RedoBytes)/1e6)
			prep, whole, shares = append(prep, r.PrepareSeconds()), append(whole, r.RestoreSeconds()), append(shares, r.RedoShare())
			if t := cmp.Or(r.Join.Transfer, "unknown"); !slices.Contains(joined, t) {
				joined = append(joined, t)
			}
		}
		mem := cmp.Or(res.useMemory, "default")
		p.Table.Rows = append(p.Table.Rows, []string{mem, spread(backup, "%.0f"), spread(redo, "%.1f"), spread(prep, "%.1f"), fmt.Sprintf("%.1f", applyRate(res)), spread(whole, "%.1f"),
			shareSpread(shares), strings.Join(joined, ", ")})
		if len(parts) == 0 {
			parts = append(parts, fmt.Sprintf("%s of the restore with %s", share(mean(shares)), mem))
		} else {
			parts = append(parts, fmt.Sprintf("%s with %s", share(mean(shares)), mem))
		}
	}
	if len(parts) == 0 {
		p.Verdict = "no restore was made"
		return p
	}
	p.Verdict = "redo apply was " + strings.Join(parts, " and ") + restoreConclusion(results)
	return p
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

// applyRate is the redo applied per second of prepare, in MB, over the
// value's restores.
func applyRate(res restoreResult) float64 {
	var redo, secs float64
	for _, r := range res.restores {
		redo, secs = redo+float64(r.RedoBytes)/1e6, secs+r.PrepareSeconds()
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
