package experiment

import (
	"fmt"
	"html/template"
	"math"
	"slices"
	"strings"

	"github.com/joinbench/joinbench/analysis/render/plot"
	"github.com/joinbench/joinbench/analysis/report"
	"github.com/joinbench/joinbench/analysis/stall"
	"github.com/joinbench/joinbench/replay/action"
	"github.com/joinbench/joinbench/results"
)

// throttledWindow is one throttle of slow-node's dose response: the
// percentage it was set to, its window, and the node's own rate while
// limited against before, as its slow action measured it (0: none).
type throttledWindow struct {
	percent   float64
	win       report.ActionWindow
	nodeRatio float64
}

// throttledWindows pairs each window with the percentage of its throttle
// (plan, in the order the actions were given: action n is plan[n-1]) and
// with the node's own ratio from its action's output.
func throttledWindows(plan []float64, wins []report.ActionWindow, rows []results.Action) []throttledWindow {
	ratio := map[int32]float64{}
	for _, r := range rows {
		if f, ok := action.SlowRatio(r.Output); ok && r.Kind == "slow" {
			ratio[r.Action] = f
		}
	}
	var out []throttledWindow
	for _, w := range wins {
		if n := int(w.Action); n >= 1 && n <= len(plan) {
			out = append(out, throttledWindow{percent: plan[n-1], win: w, nodeRatio: ratio[w.Action]})
		}
	}
	return out
}

// doseRow is one percentage of the dose response, from its judged
// windows alone.
type doseRow struct {
	percent float64
	judged  int
	cluster figures
	// node is the node's own slowdown, measured (its rate while limited
	// against before, over the judged windows) or, when a window lacks
	// its measurement, the percentage set, without an interval.
	node     Change // as a change: -0.2 for 20% slower
	measured bool
	paused   float64 // flow control, the worst node, while throttled
}

// dosePage is slow-node's page at several percentages: per percentage
// the cluster's slowdown with its interval against the node's own, as a
// table and a plot beside the line the reference's claim predicts
// (cluster slowdown = node slowdown), and whether the one tracks the
// other, judged from the intervals; then the run's figure (none when
// series is nil) with the windows shaded that the table judged.
func dosePage(o Options, tws []throttledWindow, info *results.Run, series *runSeries) *Page {
	resource := resourceName(o.Resource)
	var pcts []string
	for _, pct := range o.Percents {
		pcts = append(pcts, fmtPercent(pct)+"%")
	}
	p := &Page{
		Title: fmt.Sprintf("slow-node: %s slower on %s by %s, the cluster's slowdown against the node's", o.Node, resource, joinStrings(pcts)),
		What: fmt.Sprintf("A write workload (%d threads over every node) ran %s quiet, then %s with %s throttled to each percentage below its own measured %s rate, "+
			"%d round(s) of every percentage, each round in another order (a drift of the machine does not line up with one percentage); "+
			"each throttled window is compared with the quiet window just before it. 0%% is the control: the throttle's machinery with nothing limited.",
			o.Threads, o.Window, o.Window, o.Node, resource, repetitions(o)),
		Table: Table{Header: []string{"node slowed by", "windows judged", "cluster before (exec/s)", "cluster throttled (exec/s)",
			"cluster slowdown [95% CI]", "node's own slowdown [95% CI]", "A/A noise", "flow control throttled", "tracks the node"}},
	}
	var rows []doseRow
	for _, pct := range o.Percents {
		var wins []throttledWindow
		for _, tw := range tws {
			if tw.percent == pct {
				wins = append(wins, tw)
			}
		}
		row, notes := doseRowOf(pct, wins, info)
		p.Notes = append(p.Notes, notes...)
		p.Tally.Judged += row.judged
		if row.judged == 0 {
			p.Table.Rows = append(p.Table.Rows, []string{fmtPercent(pct) + "%", fmt.Sprintf("0 of %d", len(wins)), "", "", "", "", "", "", "not judged"})
			continue
		}
		rows = append(rows, row)
		p.Table.Rows = append(p.Table.Rows, []string{fmtPercent(pct) + "%", fmt.Sprintf("%d of %d", row.judged, len(wins)),
			fmt.Sprintf("%.0f", row.cluster.before), fmt.Sprintf("%.0f", row.cluster.during), slowdownText(row.cluster.change),
			slowdownText(row.node) + map[bool]string{true: "", false: " (set)"}[row.measured], "±" + share(row.cluster.noise),
			share(row.paused), tracking(row)})
	}
	p.Verdict = doseVerdict(rows)
	if len(rows) > 0 {
		p.Figures = append(p.Figures, doseFigure(o, rows))
	}
	if series != nil {
		p.Figures = append(p.Figures, doseRunFigure(o, tws, info, series))
	}
	p.Notes = append(p.Notes, []string{
		"cluster slowdown: 1 minus the throttled window's successful executions per second on the whole cluster over the quiet window's before it, as the geometric mean over the percentage's judged windows with its 95% t interval (one window: its value alone). Every column of a row comes from the same windows.",
		"node's own slowdown: 1 minus the node's own " + resource + " rate while limited over its rate measured just before (the slow action's measurement), over the same windows; (set): a window lacked that measurement, the percentage set stands in, without an interval.",
		"tracks the node: the cluster's interval overlaps the node's and lies wholly above zero (the reference's claim: if one node is 21% slower, the entire cluster is 21% slower); less or more: the whole interval lies below or above the node's; cannot tell: it overlaps the node's but holds zero too. The control (0%) should change nothing: its interval holds zero.",
		"A/A noise: the two halves of each quiet window compared as the throttled window is, the outer end of that change's 95% interval (3% at least).",
	}...)
	if o.Resource == "io" {
		p.Notes = append(p.Notes, "for the lesson every node flushed its redo log at every commit (innodb_flush_log_at_trx_commit=1, set back after): a node that waits for its disk.")
	}
	return p
}

// doseRowOf is one percentage's row from its windows, judged as a
// single-percentage page judges them, and the notes on those left out.
func doseRowOf(pct float64, tws []throttledWindow, info *results.Run) (doseRow, []string) {
	wins := make([]report.ActionWindow, len(tws))
	for i, tw := range tws {
		wins[i] = tw.win
	}
	idx, skipped := judgedIndices(wins, info)
	row := doseRow{percent: pct, judged: len(idx)}
	notes := skipped.notes(fmt.Sprintf("the %s%% window", fmtPercent(pct)))
	if len(idx) == 0 {
		return row, notes
	}
	// Every figure of the row from the judged windows alone.
	judged := make([]report.ActionWindow, len(idx))
	var ones, ratios []float64
	row.measured = true
	for i, k := range idx {
		tw := tws[k]
		judged[i] = tw.win
		row.measured = row.measured && tw.nodeRatio > 0
		ones, ratios = append(ones, 1), append(ratios, tw.nodeRatio)
		worst, _ := worstPaused(tw.win.PausedDuring)
		row.paused += worst / float64(len(idx))
	}
	row.cluster = figuresOf(judged, slices.Index(judged[0].Endpoints, stall.AllEndpoints))
	if row.measured {
		row.node = changeOf(ones, ratios)
	} else {
		row.node = Change{Mean: -pct / 100, Low: -pct / 100, High: -pct / 100, N: 1}
	}
	return row, notes
}

// slowdownText is a change as a slowdown: "21% [15, 27]" for a change
// of -21% [-27, -15].
func slowdownText(c Change) string {
	if c.N == 0 {
		return "no traffic"
	}
	if c.N == 1 {
		return fmt.Sprintf("%s%%", pctNum(-c.Mean))
	}
	return fmt.Sprintf("%s%% [%s, %s]", pctNum(-c.Mean), pctNum(-c.High), pctNum(-c.Low))
}

// pctNum is a fraction in whole percent, never "-0".
func pctNum(f float64) string { return fmt.Sprintf("%.0f", math.Round(100*f)+0) }

// How a row's cluster slowdown stands to the node's, from the intervals.
const (
	tracks     = "yes"
	lessThan   = "less than the node"
	moreThan   = "more than the node"
	noInterval = "one window: no interval"
	tooWide    = "cannot tell: the interval holds 0 too"
	controlOK  = "control: no change"
	controlBad = "control: changed by itself"
)

// tracking judges a row from the intervals, never the point estimates:
// the cluster's slowdown tracks the node's when their intervals overlap.
// The control is judged against zero.
func tracking(r doseRow) string {
	c := r.cluster.change
	switch {
	case c.N < 2:
		return noInterval
	case r.percent == 0 && c.Low <= 0 && c.High >= 0:
		return controlOK
	case r.percent == 0:
		return controlBad
	case c.Low > r.node.High: // a change above the node's, wholly: a smaller slowdown
		return lessThan
	case c.High < r.node.Low:
		return moreThan
	case c.High >= 0:
		// Overlapping the node's, but holding no slowdown at all too:
		// an interval that wide says nothing either way.
		return tooWide
	}
	return tracks
}

// doseVerdict says whether the cluster's slowdown tracks the node's at
// every percentage set (the reference's claim), from the intervals.
func doseVerdict(rows []doseRow) string {
	by := map[string][]string{}
	doses := 0
	for _, r := range rows {
		t := tracking(r)
		cell := fmt.Sprintf("%s%% (cluster %s, node %s)", fmtPercent(r.percent), slowdownText(r.cluster.change), slowdownText(r.node))
		by[t] = append(by[t], cell)
		if r.percent > 0 && t != noInterval {
			doses++
		}
	}
	if doses == 0 {
		return "no percentage above 0 has two or more judged windows: no interval to judge the claim by; run the lesson with --repetitions 3 or more"
	}
	var s string
	switch {
	case len(by[lessThan]) == 0 && len(by[moreThan]) == 0 && len(by[tracks]) == 0:
		s = "no verdict: at no percentage is the cluster's interval narrow enough to tell"
	case len(by[lessThan]) == 0 && len(by[moreThan]) == 0:
		s = fmt.Sprintf("the cluster's slowdown tracks the node's, as the reference claims (its interval overlaps the node's and lies above no slowdown) at %s", joinStrings(by[tracks]))
	default:
		var parts []string
		if len(by[lessThan]) > 0 {
			parts = append(parts, "the cluster slowed less than the node (its whole interval below the node's slowdown) at "+joinStrings(by[lessThan]))
		}
		if len(by[moreThan]) > 0 {
			parts = append(parts, "more than the node (its whole interval above) at "+joinStrings(by[moreThan]))
		}
		s = "the cluster's slowdown does not track the node's, against the reference's claim: " + strings.Join(parts, "; ")
		if len(by[tracks]) > 0 {
			s += "; it tracks it at " + joinStrings(by[tracks])
		}
	}
	if len(by[tooWide]) > 0 {
		s += "; cannot tell at " + joinStrings(by[tooWide]) + ": the cluster's interval holds both no slowdown and the node's (more --repetitions narrow it)"
	}
	if len(by[noInterval]) > 0 {
		s += "; not judged, one window only: " + joinStrings(by[noInterval])
	}
	if len(by[controlBad]) > 0 {
		s += "; but the control changed by itself, its interval excluding zero (" + joinStrings(by[controlBad]) + "): the machine drifted, and the percentages' slowdowns hold that drift"
	}
	return s
}

// doseFigure plots the cluster's slowdown against the node's, each with
// its interval, beside the line of the reference's claim.
func doseFigure(o Options, rows []doseRow) Figure {
	var pts []plot.Point
	for _, r := range rows {
		c, n := r.cluster.change, r.node
		pts = append(pts, plot.Point{Label: fmtPercent(r.percent) + "%",
			X: -100 * n.Mean, XLow: -100 * n.High, XHigh: -100 * n.Low,
			Y: -100 * c.Mean, YLow: -100 * c.High, YHigh: -100 * c.Low,
			Hollow: r.percent == 0,
			Title: fmt.Sprintf("%s%% set: node %s slower, cluster %s slower (%s)", fmtPercent(r.percent),
				slowdownText(n), slowdownText(c), tracking(r))})
	}
	title := fmt.Sprintf("cluster slowdown against %s's own %s slowdown, %%, with 95%% intervals", o.Node, resourceName(o.Resource))
	svg := plot.Scatter{Title: title, XLabel: o.Node + "'s own slowdown (%)", YLabel: "cluster slowdown (%)",
		Diagonal: "the reference's claim: cluster = node", Points: pts}.SVG()
	return Figure{Caption: "Each point a percentage set (the hollow one the 0% control), its whiskers the 95% intervals; the dashed line is what the reference's claim predicts.",
		SVG: template.HTML(svg)}
}

// doseRunFigure is the run's figure with each throttle's windows shaded,
// named by its percentage; a window is judged as its row judges it
// (judgedIndices looks at each window alone).
func doseRunFigure(o Options, tws []throttledWindow, info *results.Run, series *runSeries) Figure {
	wins := make([]report.ActionWindow, len(tws))
	for i, tw := range tws {
		wins[i] = tw.win
	}
	idx, _ := judgedIndices(wins, info)
	return runFigure("The run", series, windowShades(wins, judgedMask(len(wins), idx), func(i int) string {
		return fmt.Sprintf("throttle %d: %s %s%% slower on %s", i+1, o.Node, fmtPercent(tws[i].percent), resourceName(o.Resource))
	}))
}
