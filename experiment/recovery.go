package experiment

import (
	"context"
	"fmt"
	"time"

	"github.com/joinbench/joinbench/analysis/stall"
	"github.com/joinbench/joinbench/results"
)

// recovery crashes one node, then every node, each in its own run after a
// quiet window, and reads each crash's timeline from the run's
// recovery.parquet. A run is given recoveryTime at least: an action still
// running when its run ends is stopped, and a joiner's state transfer
// takes a minute on a loaded machine.
func recovery(ctx context.Context, e *env) (*Page, error) {
	if err := e.prepare(ctx); err != nil {
		return nil, err
	}
	w := e.o.Window
	d := w + max(e.o.ActionTime, recoveryTime)
	var crashes []stall.Recovery
	outcomes := map[string]string{}
	for _, c := range recoveryCrashes {
		on := c.on
		if on == "" {
			on = e.o.Node
		}
		out, err := e.run(ctx, c.name, slowWorkload, d, fmt.Sprintf("%s@%s: crash", w, on))
		if e.interrupted(ctx, err) {
			// Interrupted: this crash's timeline stops where the lesson
			// did, and is not paged as a recovery.
			break
		}
		if err != nil {
			return nil, err
		}
		rows, err := results.ReadRecovery(out.Dir, func(err error) { e.logf("warning: %v", err) })
		if err != nil {
			return nil, err
		}
		// Per run: every run numbers its actions from 1.
		crashes = append(crashes, stall.Recoveries(rows)...)
		for _, a := range out.Actions {
			outcomes[outcomeKey(a.Spec, nodeOf(a))] = a.Outcome
		}
	}
	return recoveryPage(e.o, e.tgt.Sandbox.Nodes, crashes, outcomes), nil
}

// recoveryCrashes are the lesson's crashes, each in its own run: --node
// alone (on empty), then every node.
var recoveryCrashes = []struct{ name, on string }{{"crash-one", ""}, {"crash-all", "all"}}

// recoveryTime is the least a crash is given to recover in.
const recoveryTime = 90 * time.Second

// outcomeKey finds a node's crash action row: its spec and node.
func outcomeKey(spec, node string) string { return spec + "\x00" + node }

// recoveryPage is the lesson's table (one row per crash, then one per
// node brought back) and verdict, from the crashes' timelines and the
// crash actions' outcomes, on a cluster of size nodes.
func recoveryPage(o Options, size int, crashes []stall.Recovery, outcomes map[string]string) *Page {
	p := &Page{Title: "recovery: a node crashed, then the whole cluster",
		What: fmt.Sprintf("A write workload on every node (%d threads); %s killed with SIGKILL after a quiet %s, then, in another run, every node at once, each recovered as an operator does it "+
			"(the node with the most recent write-set bootstrapped, found by the server's wsrep recovery, the others joining).", o.Threads, o.Node, o.Window),
		Table: Table{Header: []string{"crash", "node", "state transfer", "first writable (s)", fmt.Sprintf("2 of %d Synced (s)", size), "all Synced (s)", "outcome"}},
		Notes: []string{
			fmt.Sprintf("times are from the SIGKILL. 2 of %d Synced is the minimal HA: the cluster survives one more failure; nodes that were not crashed count as Synced throughout.", size),
			"per node: when it was writable and Synced again, and how it came back (bootstrap, IST: the missing write-sets from a donor's cache, SST: a full copy).",
			"the timelines are the runs' recovery.parquet.",
		}}
	if len(crashes) == 0 {
		p.Verdict = "no crash was recorded (see the runs' recovery.parquet)"
		return p
	}
	p.Tally.Judged = len(crashes)
	p.Figures = append(p.Figures, recoveryFigure(crashes))
	var parts []string
	for _, c := range crashes {
		p.Table.Rows = append(p.Table.Rows, []string{c.Spec, "", "", seconds(c.WritableSeconds), seconds(c.MinimalHASeconds), seconds(c.AllSyncedSeconds), ""})
		for _, n := range c.Nodes {
			p.Table.Rows = append(p.Table.Rows, []string{"", n.Node, n.Method,
				seconds(n.WritableSeconds), "", seconds(n.SyncedSeconds), outcomes[outcomeKey(c.Spec, n.Node)]})
		}
		parts = append(parts, fmt.Sprintf("%s: first writable after %s s, 2 of %d Synced after %s s, all after %s s",
			c.Spec, seconds(c.WritableSeconds), c.ClusterSize, seconds(c.MinimalHASeconds), seconds(c.AllSyncedSeconds)))
	}
	p.Verdict = joinParts(parts)
	return p
}

// seconds is a timeline's time, "never" when it did not get there.
func seconds(s *float64) string {
	if s == nil {
		return "never"
	}
	return fmt.Sprintf("%.1f", *s)
}

func nodeOf(r results.Action) string {
	if r.Node != "" {
		return r.Node
	}
	return r.Endpoint
}

func joinParts(parts []string) string {
	s := ""
	for i, p := range parts {
		if i > 0 {
			s += "; "
		}
		s += p
	}
	return s
}
