package experiment

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/joinbench/joinbench/analysis/report"
	"github.com/joinbench/joinbench/analysis/stall"
	"github.com/joinbench/joinbench/results"
)

// slowMeasure is how long the slow action measures the node's own rate
// before it limits it (package action's slow kind): the quiet window
// before each throttle is that much longer than Window.
const slowMeasure = 5 * time.Second

// slowWorkload writes on every node: flow control only shows under writes.
var slowWorkload = workload{scenarios: []string{"index_updates=2", "point_update=2"}, distribution: "uniform"}

// slowNode runs the write workload with the node throttled for Window
// at each of Percents, Repetitions times, each after a quiet window, in
// one run. The throttles are interleaved, a round of every percentage
// at a time and each round in another order, so that a drift of the
// machine over the run does not line up with one percentage.
func slowNode(ctx context.Context, e *env) (*Page, error) {
	if err := e.prepare(ctx); err != nil {
		return nil, err
	}
	if e.o.Resource == "io" {
		// A sandbox flushes its redo log once a second: a node then barely
		// waits for its disk, and a slower disk would change nothing.
		restore, err := e.setGlobal(ctx, "innodb_flush_log_at_trx_commit", "1")
		if err != nil {
			return nil, err
		}
		defer restore()
	}
	// Each throttle is followed by half a window in which the node catches
	// up, and preceded by the slow action's measurement of the node's
	// rate: neither is counted in the quiet window between them.
	w := e.o.Window
	settle := w / 2
	period := slowMeasure + w + settle + w
	plan := slowPlan(e.o.Percents, repetitions(e.o))
	var actions []string
	for k, pct := range plan {
		// From the workload's first success (env.run times the actions
		// from it): the first quiet stretch is a window long however late
		// the workload starts.
		at := w + time.Duration(k)*period
		actions = append(actions, fmt.Sprintf("%s@%s: slow %s%% %s for %s", at, e.o.Node, fmtPercent(pct), e.o.Resource, w))
	}
	d := w + time.Duration(len(plan)-1)*period + slowMeasure + w + 2*time.Second
	out, err := e.run(ctx, "slow", slowWorkload, d, actions...)
	// Interrupted, the run still holds the windows that ended before:
	// they are judged, the one cut is not (judgedIndices).
	if (err != nil && !e.interrupted(ctx, err)) || out == nil {
		return nil, err
	}
	warn := func(err error) { e.logf("warning: %v", err) }
	wins, err := report.ActionWindows(out.Dir, report.QuietOptions{Settle: settle, Lead: slowMeasure}, warn)
	if err != nil {
		return nil, err
	}
	series := readRunSeries(out.Dir, warn)
	if len(e.o.Percents) == 1 {
		return slowNodePage(e.o, wins, out.Run, series), nil
	}
	rows, err := results.ReadActions(out.Dir, warn)
	if err != nil {
		return nil, err
	}
	return dosePage(e.o, throttledWindows(plan, wins, rows), out.Run, series), nil
}

// slowPlan is the percentage of each throttle in the order they run:
// reps rounds of every percentage, round k starting at the k-th.
func slowPlan(percents []float64, reps int) []float64 {
	var plan []float64
	for k := range reps {
		for j := range percents {
			plan = append(plan, percents[(j+k)%len(percents)])
		}
	}
	return plan
}

func fmtPercent(p float64) string { return strconv.FormatFloat(p, 'f', -1, 64) }

// onePercent is the percentage of a single-percentage lesson, as given.
func onePercent(o Options) string {
	if len(o.Percents) == 0 {
		return "0"
	}
	return fmtPercent(o.Percents[0])
}

// slowNodePage is the lesson's table and verdict from the action windows
// of its run (one per repetition) at one percentage, and the run's
// figure (none when series is nil) with the same windows shaded.
func slowNodePage(o Options, wins []report.ActionWindow, info *results.Run, series *runSeries) *Page {
	resource := resourceName(o.Resource)
	pct := onePercent(o)
	p := &Page{
		Title: fmt.Sprintf("slow-node: %s %s%% slower on %s", o.Node, pct, resource),
		What: fmt.Sprintf("A write workload (%d threads over every node) ran %d time(s) %s quiet, then %s with %s throttled to %s%% below its own measured %s rate; "+
			"each throttled window is compared with the quiet window just before it.",
			o.Threads, len(wins), o.Window, o.Window, o.Node, pct, resource),
		Table: Table{Header: []string{"endpoint", "before (exec/s)", "throttled (exec/s)", "change [95% CI]", "A/A noise", "flow control before", "flow control throttled", "flow control sent"}},
	}
	if len(wins) == 0 {
		p.Verdict = "no throttled window was measured: the action did not run (see the run's actions.parquet)"
		return p
	}
	// Every column and the verdict come from the same windows: those
	// whose throttle ran to its end and whose quiet stretch had traffic
	// on every endpoint. A window without it (the workload started late
	// on a busy machine), or cut short (the lesson interrupted), cannot be
	// judged, and is named, not averaged.
	idx, skipped := judgedIndices(wins, info)
	var judged []report.ActionWindow
	for _, k := range idx {
		judged = append(judged, wins[k])
	}
	if series != nil {
		p.Figures = append(p.Figures, runFigure("The run", series, windowShades(wins, judgedMask(len(wins), idx), func(i int) string {
			return fmt.Sprintf("repetition %d: %s %s%% slower on %s", i+1, o.Node, pct, resource)
		})))
	}
	p.Tally.Judged = len(judged)
	p.Notes = append(p.Notes, skipped.notes("repetition")...)
	if len(judged) == 0 {
		p.Verdict = fmt.Sprintf("no window could be judged: none of the %d throttled window(s) ran to its end after a quiet stretch with traffic", len(wins))
		return p
	}
	wins = judged
	var cluster Change
	var clusterNoise float64
	for i, ep := range wins[0].Endpoints {
		f := figuresOf(wins, i)
		node := ep
		if ep != stall.AllEndpoints {
			node = info.NodeName(ep)
		}
		var fcBefore, fcDuring, sent []float64
		for _, w := range wins {
			fcBefore, fcDuring = append(fcBefore, w.PausedBaseline[node]), append(fcDuring, w.PausedDuring[node])
			sent = append(sent, w.SentDuring[node])
		}
		row := []string{node, fmt.Sprintf("%.0f", f.before), fmt.Sprintf("%.0f", f.during), f.change.String(), "±" + share(f.noise), "", "", ""}
		if ep == stall.AllEndpoints {
			row[0], cluster, clusterNoise = "cluster", f.change, f.noise
		} else if wins[0].PausedDuring != nil {
			row[5], row[6], row[7] = share(mean(fcBefore)), share(mean(fcDuring)), fmt.Sprintf("%.0f", mean(sent))
		}
		p.Table.Rows = append(p.Table.Rows, row)
	}
	p.Verdict = slowVerdict(o, resource, cluster, clusterNoise, wins)
	p.Notes = append(p.Notes, []string{
		"change: the throttled window's successful executions per second over the quiet window's before it, as the geometric mean over the repetitions with its 95% t interval (one repetition: its value alone).",
		"A/A noise: the two halves of each quiet window (nothing happens between them) compared as the throttled window is, the outer end of that change's 95% interval (3% at least): what the workload does on its own. A drop is a change whose whole interval lies below zero (and below -3%); run the lesson with --percent 0 for an A/A check of whole windows.",
		"flow control: the fraction of the window the node was paused by flow control (wsrep_flow_control_paused_ns; every node waits alike), and the flow control messages it sent per throttled window (wsrep_flow_control_sent: the node that could not keep up).",
	}...)
	if o.Resource == "io" {
		p.Notes = append(p.Notes, "for the lesson every node flushed its redo log at every commit (innodb_flush_log_at_trx_commit=1, set back after): a node that waits for its disk.")
	}
	return p
}

func resourceName(r string) string { return map[string]string{"io": "disk", "cpu": "CPU"}[r] }

// figures are one endpoint's columns of a table, every one from the
// same windows: the means of its rates before and during, their change,
// and the A/A noise of the quiet stretches.
type figures struct {
	before, during float64
	change         Change
	noise          float64
}

// figuresOf computes endpoint i's figures over wins, which must all be
// judged (judgedIndices): every one had traffic before, so the change
// leaves none out that the means hold.
func figuresOf(wins []report.ActionWindow, i int) figures {
	var before, during, h1, h2 []float64
	for _, w := range wins {
		before, during = append(before, w.Baseline[i]), append(during, w.During[i])
		h1, h2 = append(h1, w.QuietHalves[0][i]), append(h2, w.QuietHalves[1][i])
	}
	return figures{before: mean(before), during: mean(during), change: changeOf(before, during), noise: noiseBound(h1, h2)}
}

// skippedWindows are the windows (numbered from 1) that were not
// judged, by why.
type skippedWindows struct {
	// quiet: no successful execution in the quiet stretch before, on
	// the endpoints named in quietOn (node names) for each.
	quiet   []int
	quietOn [][]string
	// cut: the throttle did not end as planned (outcome: the last one
	// seen, e.g. cancelled when the lesson was interrupted).
	cut     []int
	outcome string
}

// notes say which windows were not judged and why, each window called
// what (e.g. "repetition").
func (s skippedWindows) notes(what string) []string {
	var notes []string
	for k, n := range s.quiet {
		notes = append(notes, fmt.Sprintf("not judged: %s %d, whose quiet stretch (or a half of it) had no successful execution on %s (the workload had not started there, or stalled): run the lesson again, or with a longer --warmup.",
			what, n, joinStrings(s.quietOn[k])))
	}
	if len(s.cut) > 0 {
		notes = append(notes, fmt.Sprintf("not judged: %s %s, whose throttle did not run to its end (%s).", what, joinInts(s.cut), s.outcome))
	}
	return notes
}

// judgedIndices splits the windows into those whose throttle ran to its
// end (outcome ok) after a quiet stretch with successful executions on
// every endpoint and on the cluster as a whole, in each of its halves
// (their indices into wins), and the others. An
// endpoint without quiet traffic has no rate to compare its throttled
// one with: kept, its change would leave the window out while its means
// held it.
func judgedIndices(wins []report.ActionWindow, info *results.Run) (judged []int, skipped skippedWindows) {
	for k, w := range wins {
		if w.Outcome != results.ActionOK {
			skipped.cut, skipped.outcome = append(skipped.cut, k+1), w.Outcome
			continue
		}
		var silent []string
		for i, ep := range w.Endpoints {
			if quietTraffic(w, i) {
				continue
			}
			name := "the cluster"
			if ep != stall.AllEndpoints {
				name = info.NodeName(ep)
			}
			silent = append(silent, name)
		}
		if len(w.Endpoints) == 0 || len(w.Baseline) != len(w.Endpoints) {
			silent = append(silent, "the cluster")
		}
		if len(silent) > 0 {
			skipped.quiet, skipped.quietOn = append(skipped.quiet, k+1), append(skipped.quietOn, silent)
			continue
		}
		judged = append(judged, k)
	}
	return judged, skipped
}

// quietTraffic says whether endpoint i of w had successful executions in
// its quiet stretch, in each half of it: the A/A noise compares the
// halves, and a half without traffic would leave the window out of it
// while the other columns held it.
func quietTraffic(w report.ActionWindow, i int) bool {
	return i < len(w.Baseline) && w.Baseline[i] > 0 &&
		i < len(w.QuietHalves[0]) && w.QuietHalves[0][i] > 0 &&
		i < len(w.QuietHalves[1]) && w.QuietHalves[1][i] > 0
}

// joinInts is 1, 3 and 4.
func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return joinStrings(s)
}

// joinStrings is a, b and c.
func joinStrings(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// slowVerdict says in words what the throttle did to the cluster.
func slowVerdict(o Options, resource string, cluster Change, noise float64, wins []report.ActionWindow) string {
	paused, sent := map[string]float64{}, map[string]float64{}
	for _, w := range wins {
		for n, f := range w.PausedDuring {
			paused[n] += f / float64(len(wins))
		}
		for n, f := range w.SentDuring {
			sent[n] += f
		}
	}
	s := fmt.Sprintf("one node %s%% slower on %s: cluster throughput %s over %d window(s)", onePercent(o), resource, cluster, cluster.N)
	if cluster.Drop(minNoise) {
		s += fmt.Sprintf(", a drop (its interval lies below zero; A/A noise of the quiet windows ±%s)", share(noise))
	} else {
		s += fmt.Sprintf(", no drop (A/A noise of the quiet windows ±%s)", share(noise))
	}
	if len(paused) == 0 {
		return s
	}
	node, most := top(paused)
	if most < 0.005 {
		return s + "; no flow control"
	}
	sender, msgs := top(sent)
	total := 0.0
	for _, m := range sent {
		total += m
	}
	if msgs > 0 {
		return s + fmt.Sprintf("; flow control paused the cluster %s of the time, asked for by %s (%s of the messages)", share(most), sender, share(msgs/total))
	}
	return s + fmt.Sprintf("; flow control paused %s of the time on %s", share(most), node)
}

// top is the key with the largest value (the first by name on a tie).
func top(m map[string]float64) (string, float64) {
	best, val := "", 0.0
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if best == "" || m[k] > val {
			best, val = k, m[k]
		}
	}
	return best, val
}
