package experiment

import (
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/analysis/report"
	"github.com/joinbench/joinbench/results"
)

// A window whose quiet stretch had traffic on the cluster but none on one
// node (its clients had not started) is refused and named, and no column
// of any row holds it: today's code judged it by the cluster alone, and
// averaged node1's empty quiet stretch into its "before" while its change
// left the window out.
func TestWindowWithoutQuietTrafficOnANodeIsRefused(t *testing.T) {
	late := window(100, 300, 0.3)
	late.Baseline[0] = 0 // node1: nothing before
	late.Baseline[3] = 200
	p := slowNodePage(slowNodeOptions, []report.ActionWindow{late, window(100, 50, 0.3), window(100, 52, 0.3)}, clusterRun, nil)
	if p.Tally.Judged != 2 {
		t.Errorf("%d windows judged, want 2", p.Tally.Judged)
	}
	for _, r := range p.Table.Rows {
		if before, during := r[1], r[2]; (r[0] == "cluster") != (before == "300") || r[0] != "cluster" && (before != "100" || during != "51") {
			t.Errorf("row %q: want the means of the two judged windows alone", r)
		}
	}
	notes := strings.Join(p.Notes, "\n")
	if want := "not judged: repetition 1, whose quiet stretch (or a half of it) had no successful execution on node1"; !strings.Contains(notes, want) {
		t.Errorf("notes lack %q:\n%s", want, notes)
	}
}

// A quiet stretch with traffic, one half of which had none on a node (a
// stall), is refused too: the A/A noise compares the halves, and would
// otherwise leave the window out while the other columns held it.
func TestWindowWithAnEmptyQuietHalfIsRefused(t *testing.T) {
	stalled := window(100, 50, 0.3)
	stalled.QuietHalves[0][1] = 0 // node2: nothing in the first half
	p := slowNodePage(slowNodeOptions, []report.ActionWindow{stalled, window(100, 50, 0.3), window(100, 52, 0.3)}, clusterRun, nil)
	if p.Tally.Judged != 2 {
		t.Errorf("%d windows judged, want 2", p.Tally.Judged)
	}
	if notes := strings.Join(p.Notes, "\n"); !strings.Contains(notes, "not judged: repetition 1, whose quiet stretch (or a half of it) had no successful execution on node2") {
		t.Errorf("notes:\n%s", notes)
	}
}

// The throttles are interleaved: every round holds every percentage,
// and each round starts at another, so no percentage always runs first.
func TestSlowPlanInterleaves(t *testing.T) {
	got := slowPlan([]float64{0, 10, 21, 40}, 3)
	want := []float64{0, 10, 21, 40, 10, 21, 40, 0, 21, 40, 0, 10}
	if len(got) != len(want) {
		t.Fatalf("plan %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("plan %v, want %v", got, want)
		}
	}
}

// Each window gets the percentage of its action (by number, whatever
// windows are missing) and the node's own ratio from its output.
func TestThrottledWindowsPairByActionNumber(t *testing.T) {
	w2, w3 := window(100, 80, 0), window(100, 70, 0)
	w2.Action, w3.Action = 2, 3
	rows := []results.Action{
		{Action: 2, Kind: "slow", Output: "before (5s unthrottled): x\ndevice: 8:0\ntarget: y (80%)\nduring (10.0s): z (80.5% of before)\n"},
		{Action: 3, Kind: "slow", Output: "before (5s unthrottled): x\n"},
	}
	got := throttledWindows([]float64{0, 20, 40}, []report.ActionWindow{w2, w3}, rows)
	if len(got) != 2 || got[0].percent != 20 || got[0].nodeRatio != 0.805 || got[1].percent != 40 || got[1].nodeRatio != 0 {
		t.Errorf("windows %+v", got)
	}
}

// doseWindows are reps windows at pct, the cluster at ratio of its quiet
// rate and the node at nodeRatio of its own.
func doseWindows(pct, ratio, nodeRatio float64, jitter ...float64) []throttledWindow {
	var out []throttledWindow
	for _, j := range jitter {
		out = append(out, throttledWindow{percent: pct, win: window(100, 100*(ratio+j), 0.1), nodeRatio: nodeRatio + j})
	}
	return out
}

// The dose response: a row per percentage from its judged windows alone,
// the cluster's slowdown and the node's with their intervals, whether the
// one tracks the other judged from the intervals, a plot with the claim's
// line, and the tally over every percentage.
func TestDosePage(t *testing.T) {
	o := Options{Node: "node3", Percents: []float64{0, 20, 40}, Resource: "io", Threads: 6, Window: 10 * time.Second, Repetitions: 3}
	var tws []throttledWindow
	tws = append(tws, doseWindows(0, 1.0, 1.0, -0.01, 0, 0.01)...)
	tws = append(tws, doseWindows(20, 0.8, 0.8, -0.02, 0, 0.02)...)
	tws = append(tws, doseWindows(40, 0.9, 0.6, -0.01, 0, 0.01)...) // the cluster kept far more than the node
	late := throttledWindow{percent: 20, win: window(100, 10, 0.9), nodeRatio: 0.1}
	late.win.Baseline[2] = 0 // node3 had no quiet traffic: refused, not averaged
	tws = append(tws, late)
	p := dosePage(o, tws, clusterRun, nil)
	p.Lesson = "slow-node"
	if p.Tally.Judged != 9 {
		t.Errorf("%d windows judged, want 9", p.Tally.Judged)
	}
	if len(p.Table.Rows) != 3 {
		t.Fatalf("rows %q", p.Table.Rows)
	}
	want := [][]string{
		{"0%", "3 of 3", "300", "300", "", "", "", "", controlOK},
		{"20%", "3 of 4", "300", "240", "20% [", "20% [", "", "10%", tracks},
		{"40%", "3 of 3", "300", "270", "10% [", "40% [", "", "", lessThan},
	}
	for i, w := range want {
		for j, cell := range w {
			if got := p.Table.Rows[i][j]; cell != "" && !strings.HasPrefix(got, cell) {
				t.Errorf("row %s, %s: %q, want %q", w[0], p.Table.Header[j], got, cell)
			}
		}
	}
	for _, v := range []string{"does not track the node's", "slowed less than the node (its whole interval below the node's slowdown) at 40% (cluster 10% [", "it tracks it at 20%"} {
		if !strings.Contains(p.Verdict, v) {
			t.Errorf("verdict %q lacks %q", p.Verdict, v)
		}
	}
	if notes := strings.Join(p.Notes, "\n"); !strings.Contains(notes, "not judged: the 20% window 4, whose quiet stretch (or a half of it) had no successful execution on node3") {
		t.Errorf("notes:\n%s", notes)
	}
	_, md, html := rendered(t, p)
	if len(p.Figures) != 1 || !strings.Contains(html, "<svg") || !strings.Contains(html, "the reference&#39;s claim: cluster = node") && !strings.Contains(html, "the reference's claim: cluster = node") {
		t.Errorf("html has no plot with the claim's line:\n%s", html)
	}
	if !strings.Contains(md, "A plot is on the HTML page") {
		t.Errorf("markdown:\n%s", md)
	}
}

// The verdict is drawn from intervals: with one window per percentage
// there is none, and the page says so rather than compare point
// estimates; a control that moved by itself is named.
func TestDoseVerdictNeedsIntervals(t *testing.T) {
	o := Options{Node: "node3", Percents: []float64{0, 20}, Resource: "io", Repetitions: 1}
	p := dosePage(o, append(doseWindows(0, 1, 1, 0), doseWindows(20, 0.5, 0.8, 0)...), clusterRun, nil)
	if !strings.HasPrefix(p.Verdict, "no percentage above 0 has two or more judged windows") {
		t.Errorf("verdict %q", p.Verdict)
	}
	drift := dosePage(Options{Node: "node3", Percents: []float64{0, 20}, Resource: "io", Repetitions: 3},
		append(doseWindows(0, 0.85, 1, -0.01, 0, 0.01), doseWindows(20, 0.8, 0.8, -0.01, 0, 0.01)...), clusterRun, nil)
	if !strings.Contains(drift.Verdict, "the control changed by itself") || !strings.HasPrefix(drift.Verdict, "the cluster's slowdown tracks the node's") {
		t.Errorf("verdict %q", drift.Verdict)
	}
	// Two windows far apart: an interval that holds the node's slowdown
	// and no slowdown at all does not say the cluster tracks the node.
	wide := dosePage(Options{Node: "node3", Percents: []float64{20}, Resource: "io", Repetitions: 2},
		doseWindows(20, 0.8, 0.8, -0.3, 0.3), clusterRun, nil)
	if got := wide.Table.Rows[0][8]; got != tooWide {
		t.Errorf("a wide interval reads %q, want %q", got, tooWide)
	}
	if !strings.HasPrefix(wide.Verdict, "no verdict: at no percentage is the cluster's interval narrow enough") || !strings.Contains(wide.Verdict, "cannot tell at 20%") {
		t.Errorf("verdict %q", wide.Verdict)
	}
}

func TestSlowdownTextNeverMinusZero(t *testing.T) {
	if got := slowdownText(Change{Mean: 0.001, Low: -0.2, High: 0.3, N: 3}); got != "0% [-30, 20]" {
		t.Errorf("slowdown %q", got)
	}
}
