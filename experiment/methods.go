package experiment

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/joinbench/joinbench/analysis/report"
	"github.com/joinbench/joinbench/analysis/stall"
	"github.com/joinbench/joinbench/replay"
)

// method is one way of making a change, as an action.
type method struct {
	name   string
	action string // the --action, its offset left out
	// before readies the table the action works on (nil: nothing).
	before func(ctx context.Context) error
}

// methodCost is what one method cost its run's workload.
type methodCost struct {
	name    string
	outcome string
	seconds float64 // how long the action ran
	// stallNode is the longest stretch any node with clients went
	// without a successful write; stallCluster the longest without any.
	stallNode, stallCluster float64
	before, during          float64 // cluster executions per second
	paused                  map[string]float64
	// diskBytes is the largest extra size of the tablespaces any node
	// reached during the action (pt-osc's copy of the table); nil when
	// not sampled.
	diskBytes *int64
	// series and window are the run's figure and the action's window
	// (with its quiet window) the row was measured in; nil when not read.
	series *runSeries
	window *report.ActionWindow
}

// methodWorkload reads and writes main1 on every node while the action
// changes another table: its stalls are the action's.
var methodWorkload = workload{scenarios: []string{"simple_inner_pk", "index_updates=2", "point_update=2"}, distribution: "uniform"}

// compareMethods gives each method its own run: a quiet window, then
// the action, so that no method's window holds another's aftermath.
func compareMethods(ctx context.Context, e *env, methods []method) ([]methodCost, error) {
	if err := e.prepare(ctx); err != nil {
		return nil, err
	}
	var costs []methodCost
	for _, m := range methods {
		if m.before != nil {
			if err := m.before(ctx); err != nil {
				if e.interrupted(ctx, err) {
					break
				}
				return nil, err
			}
		}
		out, err := e.run(ctx, m.name, methodWorkload, e.o.Window+e.o.ActionTime, fmt.Sprintf("%s@%s", e.o.Window, m.action))
		if e.interrupted(ctx, err) {
			// Interrupted: the method's run (or its table's filling) was
			// cut, and is not paged; those before it are.
			break
		}
		if err != nil {
			return nil, err
		}
		c, err := costOf(m.name, out, e)
		if err != nil {
			return nil, err
		}
		costs = append(costs, c)
	}
	return costs, nil
}

// costOf reads what the run's one action cost.
func costOf(name string, out *replay.Outcome, e *env) (methodCost, error) {
	c := methodCost{name: name, outcome: "not run"}
	for _, a := range out.Summary.Actions {
		c.outcome = a.Outcome
		c.seconds = math.Max(c.seconds, a.StartSeconds+a.Seconds)
		for _, ep := range a.Endpoints {
			switch {
			case ep.Endpoint == stall.AllEndpoints:
				c.stallCluster = math.Max(c.stallCluster, ep.LongestZeroWriteMs)
			case !ep.NoTraffic:
				c.stallNode = math.Max(c.stallNode, ep.LongestZeroWriteMs)
			}
		}
	}
	if len(out.Summary.Actions) > 0 {
		c.seconds -= out.Summary.Actions[0].StartSeconds
	}
	warn := func(err error) { e.logf("warning: %v", err) }
	// The disk an action took is the report's: the run's summary has no
	// tablespace samples.
	rep, err := report.Build([]string{out.Dir}, report.Options{Warn: warn, SkipDetails: true})
	if err != nil {
		return c, err
	}
	if len(rep.Runs) > 0 {
		c.series = runSeriesOf(&rep.Runs[0])
	}
	for _, r := range rep.Runs {
		for _, a := range r.Actions {
			for _, ep := range a.Endpoints {
				if d := ep.PeakExtraDiskBytes; d != nil && (c.diskBytes == nil || *d > *c.diskBytes) {
					c.diskBytes = d
				}
			}
		}
	}
	wins, err := report.ActionWindows(out.Dir, report.QuietOptions{}, warn)
	if err != nil || len(wins) == 0 {
		return c, err
	}
	w := wins[0]
	c.window = &w
	last := len(w.Endpoints) - 1 // "(all)"
	c.before, c.during, c.paused = w.Baseline[last], w.During[last], w.PausedDuring
	return c, nil
}

// methodsPage is the table and verdict of a comparison of methods.
func methodsPage(title, what string, costs []methodCost) *Page {
	p := &Page{Title: title, What: what,
		Table: Table{Header: []string{"method", "outcome", "action (s)", "longest stall, a node (ms)", "longest stall, cluster (ms)",
			"before (exec/s)", "during (exec/s)", "throughput in window", "flow control, worst node", "peak extra disk MB"}},
		Tally: Tally{Judged: len(costs)}}
	for _, c := range costs {
		fc, node := worstPaused(c.paused)
		fcCell := "n/a"
		switch {
		case c.paused != nil && fc >= 0.005:
			fcCell = fmt.Sprintf("%s (%s)", share(fc), node)
		case c.paused != nil:
			fcCell = "0%"
		}
		p.Table.Rows = append(p.Table.Rows, []string{c.name, c.outcome, fmt.Sprintf("%.1f", c.seconds),
			fmt.Sprintf("%.0f", c.stallNode), fmt.Sprintf("%.0f", c.stallCluster),
			fmt.Sprintf("%.0f", c.before), fmt.Sprintf("%.0f", c.during), changeCell(c.before, c.during), fcCell,
			stall.EndpointCost{PeakExtraDiskBytes: c.diskBytes}.DiskText()})
	}
	p.Verdict = methodsVerdict(costs)
	for _, c := range costs {
		if c.series != nil && c.window != nil {
			p.Figures = append(p.Figures, runFigure(c.name, c.series, windowShades([]report.ActionWindow{*c.window}, nil,
				func(int) string { return c.name + " (" + c.outcome + ")" })))
		}
	}
	p.Notes = []string{
		"each method ran in its own run, after a quiet window of the same workload: throughput in window is the cluster's successful executions per second while the action ran (a second at least) against that quiet window.",
		"longest stall: the longest stretch without a successful write during the action, on the worst node with clients and on the cluster as a whole (no node writing).",
		"flow control: the fraction of the action's time the worst node was paused by flow control.",
		"peak extra disk: the most the tablespaces of any node grew during the action over their size at its start (pt-online-schema-change copies the table); - when not sampled.",
		"whole-run latency is not judged: separate runs drift against each other by more than the methods differ.",
	}
	return p
}

func changeCell(before, during float64) string {
	if before <= 0 {
		return "no traffic"
	}
	return pct(during/before - 1)
}

// worstPaused is the node flow control paused most, and its fraction.
func worstPaused(paused map[string]float64) (float64, string) {
	worst, node := -1.0, ""
	for n, f := range paused {
		if f > worst || (f == worst && n < node) {
			worst, node = f, n
		}
	}
	return math.Max(worst, 0), node
}

// methodsVerdict names the method that stalled the workload least, the
// one that kept most of its throughput and the one that took the most
// extra disk. A figure is compared as the table prints it: a method is
// named above the others only where its printed figure differs from
// theirs, and none is named "most" when every figure reads 0.
func methodsVerdict(costs []methodCost) string {
	var ran []methodCost
	var failed []string
	for _, c := range costs {
		if c.outcome == "ok" {
			ran = append(ran, c)
		} else {
			failed = append(failed, fmt.Sprintf("%s %s", c.name, c.outcome))
		}
	}
	if len(ran) == 0 {
		return "no method completed: " + strings.Join(failed, ", ")
	}
	s := stallClause(ran)
	if kept := throughputClause(ran, s.least); kept != "" {
		s.text += kept
	}
	if disk := diskClause(ran); disk != "" {
		s.text += "; " + disk
	}
	if len(failed) > 0 {
		s.text += "; did not complete: " + strings.Join(failed, ", ")
	}
	return s.text
}

// stallMs is a method's longest stall on a node as the table prints it.
func stallMs(c methodCost) string { return fmt.Sprintf("%.0f", c.stallNode) }

// stallVerdict is the verdict's first clause and the method it names as
// the one that stalled least (none when it names none).
type stallVerdict struct {
	text  string
	least *methodCost
}

// stallClause names the method with the shortest longest stall on a
// node, with the others'; when every method's reads alike (0 ms: none
// stalled) it names none.
func stallClause(ran []methodCost) stallVerdict {
	least := 0
	for i, c := range ran {
		if c.stallNode < ran[least].stallNode {
			least = i
		}
	}
	alike := true
	for _, c := range ran {
		alike = alike && stallMs(c) == stallMs(ran[least])
	}
	switch {
	case alike && stallMs(ran[least]) == "0":
		return stallVerdict{text: "no method stalled the workload (longest stretch without a write on a node: 0 ms for each)"}
	case alike && len(ran) > 1:
		return stallVerdict{text: fmt.Sprintf("the methods stalled the workload alike (longest stretch without a write on a node: %s ms for each)", stallMs(ran[least]))}
	}
	var others []string
	for i, c := range ran {
		if i != least {
			others = append(others, fmt.Sprintf("%s %s ms", c.name, stallMs(c)))
		}
	}
	s := fmt.Sprintf("%s stalled the workload least (longest stretch without a write on a node: %s ms", ran[least].name, stallMs(ran[least]))
	if len(others) > 0 {
		s += "; " + strings.Join(others, ", ")
	}
	return stallVerdict{text: s + ")", least: &ran[least]}
}

// throughputClause names the method that kept the most throughput in its
// window, after least (the method named for its stall, or nil); nothing
// when no method had a rate to compare with, and "alike" when every
// method's change reads the same.
func throughputClause(ran []methodCost, least *methodCost) string {
	var with []methodCost
	for _, c := range ran {
		if c.before > 0 {
			with = append(with, c)
		}
	}
	if len(with) == 0 {
		return ""
	}
	kept := with[0]
	alike := true
	for _, c := range with[1:] {
		if c.during/c.before > kept.during/kept.before {
			kept = c
		}
	}
	for _, c := range with {
		alike = alike && changeCell(c.before, c.during) == changeCell(kept.before, kept.during)
	}
	switch {
	case len(with) == 1 && len(ran) > 1:
		return fmt.Sprintf("; throughput while it ran: %s %s (the others had no traffic before theirs to compare with)", kept.name, changeCell(kept.before, kept.during))
	case alike && len(with) > 1:
		return fmt.Sprintf("; the methods kept the same throughput while they ran (%s)", changeCell(kept.before, kept.during))
	case least != nil && kept.name == least.name:
		return fmt.Sprintf(" and kept the most throughput while it ran (%s)", changeCell(kept.before, kept.during))
	case least != nil && least.before > 0:
		return fmt.Sprintf("; %s kept the most throughput while it ran (%s against %s)", kept.name,
			changeCell(kept.before, kept.during), changeCell(least.before, least.during))
	}
	return fmt.Sprintf("; %s kept the most throughput while it ran (%s)", kept.name, changeCell(kept.before, kept.during))
}

// diskText is a method's peak extra disk as the table prints it.
func diskText(c methodCost) string {
	return stall.EndpointCost{PeakExtraDiskBytes: c.diskBytes}.DiskText()
}

// diskClause names the method whose action grew the tablespaces most;
// nothing when none grew them by what the table prints as more than 0
// (or none was sampled), and every method when they read alike.
func diskClause(ran []methodCost) string {
	most := mostDisk(ran)
	if most == nil {
		return ""
	}
	var tied []string
	for _, c := range ran {
		if c.diskBytes != nil && diskText(c) == diskText(*most) {
			tied = append(tied, c.name)
		}
	}
	if len(tied) > 1 {
		return fmt.Sprintf("%s took the same extra disk (%s MB at its peak each)", joinStrings(tied), diskText(*most))
	}
	return fmt.Sprintf("%s took the most extra disk (%s MB at its peak)", most.name, diskText(*most))
}

// mostDisk is the method whose action grew the tablespaces most, nil when
// none grew them by what the table prints as more than 0 (or none was
// sampled).
func mostDisk(costs []methodCost) *methodCost {
	var most *methodCost
	for i, c := range costs {
		if c.diskBytes == nil || *c.diskBytes <= 0 || diskText(c) == diskText(methodCost{diskBytes: new(int64)}) {
			continue
		}
		if most == nil || *c.diskBytes > *most.diskBytes {
			most = &costs[i]
		}
	}
	return most
}
