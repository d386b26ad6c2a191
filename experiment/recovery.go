package experiment

import (
	"context"
	"fmt"
	"time"

	"github.com/joinbench/joinbench/replay/results"
)

// recovery crashes one node, then every node, each in its own run after a
// quiet window, and reads each node's way back from the crash action's
// rows. A run is given recoveryTime at least: an action still running
// when its run ends is stopped, and a joiner's state transfer takes a
// minute on a loaded machine.
func recovery(ctx context.Context, e *env) (*Page, error) {
	if err := e.prepare(ctx); err != nil {
		return nil, err
	}
	w := e.o.Window
	d := w + max(e.o.ActionTime, recoveryTime)
	var rows []results.Action
	for _, c := range []struct{ name, on string }{{"crash-one", e.o.Node}, {"crash-all", "all"}} {
		out, err := e.run(ctx, c.name, slowWorkload, d, fmt.Sprintf("%s@%s: crash", w, c.on))
		if err != nil {
			return nil, err
		}
		rows = append(rows, out.Actions...)
	}
	return recoveryPage(e.o, e.tgt.Sandbox.Nodes, rows), nil
}

// recoveryTime is the least a crash is given to recover in.
const recoveryTime = 90 * time.Second

// crashTimeline is one crash action's way back.
type crashTimeline struct {
	spec     string
	start    time.Time
	writable time.Time // the first node to accept writes again
	synced   []time.Time
	nodes    []results.Action // the rows of the nodes brought back
}

// timelines groups the crash actions' rows by action.
func timelines(rows []results.Action) []crashTimeline {
	var out []crashTimeline
	idx := map[string]int{} // the lesson's runs number their actions alike
	for _, r := range rows {
		if r.Kind != "crash" || r.Start.IsZero() {
			continue
		}
		i, ok := idx[r.Spec]
		if !ok {
			i = len(out)
			idx[r.Spec] = i
			out = append(out, crashTimeline{spec: r.Spec, start: r.Start})
		}
		t := &out[i]
		if r.Start.Before(t.start) {
			t.start = r.Start
		}
		if !r.WritableTime.IsZero() && (t.writable.IsZero() || r.WritableTime.Before(t.writable)) {
			t.writable = r.WritableTime
		}
		if !r.SyncedTime.IsZero() {
			t.synced = append(t.synced, r.SyncedTime)
		}
		t.nodes = append(t.nodes, r)
	}
	return out
}

// recoveryPage is the lesson's table (one row per crash, then one per
// node brought back) and verdict, from the run's action rows, on a
// cluster of size nodes.
func recoveryPage(o Options, size int, rows []results.Action) *Page {
	p := &Page{Title: "recovery: a node crashed, then the whole cluster",
		What: fmt.Sprintf("A write workload on every node (%d threads); %s killed with SIGKILL after a quiet %s, then, in another run, every node at once, each recovered as an operator does it "+
			"(the node with the most recent write-set bootstrapped, found by the server's wsrep recovery, the others joining).", o.Threads, o.Node, o.Window),
		Table: Table{Header: []string{"crash", "node", "state transfer", "first writable (s)", fmt.Sprintf("%d of %d Synced (s)", size/2+1, size), "all Synced (s)", "outcome"}},
		Notes: []string{
			"times are from the SIGKILL. A majority Synced (2 of 3) is the minimal HA: the cluster survives one more failure; nodes that were not crashed count as Synced throughout.",
			"per node: when it was writable and Synced again, and how it came back (bootstrap, IST: the missing write-sets from a donor's cache, SST: a full copy).",
		}}
	tls := timelines(rows)
	if len(tls) == 0 {
		p.Verdict = "no crash was recorded (see the run's actions.parquet)"
		return p
	}
	var parts []string
	for _, t := range tls {
		synced := sortedTimes(t.synced)
		since := func(at time.Time) string {
			if at.IsZero() {
				return "never"
			}
			return fmt.Sprintf("%.1f", at.Sub(t.start).Seconds())
		}
		// The nodes not crashed stayed Synced: they count from the start.
		up := size - len(t.nodes)
		quorum, all := time.Time{}, time.Time{}
		need := size/2 + 1
		switch {
		case up >= need:
			// A majority stayed up: the cluster never stopped taking writes.
			quorum, t.writable = t.start, t.start
		case len(synced) >= need-up:
			quorum = synced[need-up-1]
		}
		if len(synced) == len(t.nodes) && len(synced) > 0 {
			all = synced[len(synced)-1]
		}
		p.Table.Rows = append(p.Table.Rows, []string{t.spec, "", "", since(t.writable), since(quorum), since(all), ""})
		for _, n := range t.nodes {
			p.Table.Rows = append(p.Table.Rows, []string{"", nodeOf(n), n.StateTransfer,
				sinceOr(n.WritableTime, t.start), "", sinceOr(n.SyncedTime, t.start), n.Outcome})
		}
		parts = append(parts, fmt.Sprintf("%s: first writable after %s s, %d of %d Synced after %s s, all after %s s", t.spec, since(t.writable), need, size, since(quorum), since(all)))
	}
	p.Verdict = joinParts(parts)
	return p
}

func nodeOf(r results.Action) string {
	if r.Node != "" {
		return r.Node
	}
	return r.Endpoint
}

func sinceOr(at, from time.Time) string {
	if at.IsZero() {
		return "never"
	}
	return fmt.Sprintf("%.1f", at.Sub(from).Seconds())
}

func sortedTimes(ts []time.Time) []time.Time {
	out := append([]time.Time(nil), ts...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Before(out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
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
