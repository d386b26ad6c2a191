package experiment

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/analysis/report"
	"github.com/joinbench/joinbench/analysis/stall"
	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/results"
)

// writeSlowRun writes, with the project's own writer, a run of 40 s on
// three nodes, each completing a write every 10 ms, with a slow action
// on node3 from 12 to 17 s and another from 27 to 32 s (outcome2), and
// flow control pausing every node half of each second of the actions.
func writeSlowRun(t *testing.T, parent string, outcome2 string) string {
	t.Helper()
	rd, err := results.Create(parent, "slow", "h")
	if err != nil {
		t.Fatal(err)
	}
	eps := []string{"127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3"}
	info := &results.Run{RunID: "slow", Endpoints: eps, WriteScenarios: []string{"w"}, Start: t0, End: t0.Add(40 * time.Second),
		Nodes: []results.Node{{Name: "node1", Endpoint: eps[0]}, {Name: "node2", Endpoint: eps[1]}, {Name: "node3", Endpoint: eps[2]}}}
	if err := rd.WriteRun(info); err != nil {
		t.Fatal(err)
	}
	w, err := rd.NewExecutionWriter()
	if err != nil {
		t.Fatal(err)
	}
	inAction := func(s float64) bool { return s >= 12 && s < 17 || s >= 27 && s < 32 }
	var execs []results.Execution
	for ms := 0; ms < 40000; ms += 10 {
		for i, ep := range eps {
			if i == 2 && inAction(float64(ms)/1000) && ms%20 == 0 {
				continue // node3 at half its rate while slowed
			}
			execs = append(execs, results.Execution{Scenario: "w", Endpoint: ep, Thread: int32(i), Start: t0.Add(time.Duration(ms) * time.Millisecond),
				LatencyNs: int64(time.Millisecond), Params: []string{}})
		}
	}
	if err := w.Write(execs); err != nil {
		t.Fatal(err)
	}
	// A sample of the warmup, before the measured phase: not drawn.
	status := []results.Status{{Endpoint: eps[0], Time: t0.Add(-2 * time.Second), Interval: 1, Variable: pausedVariable, Delta: 900_000_000}}
	for s := 1; s <= 40; s++ {
		for _, ep := range eps {
			var paused int64
			if inAction(float64(s) - 0.5) {
				paused = 500_000_000
			}
			status = append(status, results.Status{Endpoint: ep, Time: t0.Add(time.Duration(s) * time.Second), Interval: 1,
				Variable: pausedVariable, Delta: paused})
		}
	}
	if err := rd.Status().Write(status); err != nil {
		t.Fatal(err)
	}
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	if err := rd.WriteActions([]results.Action{
		{Action: 1, Step: 1, Kind: "slow", Node: "node3", Endpoint: eps[2], Spec: "12s@node3: slow 20% io for 5s", Start: at(12), End: at(17), Outcome: results.ActionOK},
		{Action: 2, Step: 1, Kind: "slow", Node: "node3", Endpoint: eps[2], Spec: "27s@node3: slow 20% io for 5s", Start: at(27), End: at(32), Outcome: outcome2},
	}); err != nil {
		t.Fatal(err)
	}
	if err := rd.Close(); err != nil {
		t.Fatal(err)
	}
	return rd.Path()
}

// bandTitles are the hover titles of a figure's bands of class.
func bandTitles(svg, class string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`class="band `+class+`"><title>([^<]*)</title>`).FindAllStringSubmatch(svg, -1) {
		out = append(out, m[1])
	}
	return out
}

// span is a window's times as a band's title states them.
func span(w [2]time.Time, start time.Time) string {
	return fmt.Sprintf("%.1f to %.1f s", w[0].Sub(start).Seconds(), w[1].Sub(start).Seconds())
}

// The slow-node page's figure is drawn from the run the table is: a line
// per node in both charts, and shaded the quiet and the throttled window
// of every window the table judged, and those alone; the one not judged
// is grey.
func TestSlowNodeFigureShadesTheJudgedWindows(t *testing.T) {
	warn := func(err error) { t.Log(err) }
	dir := writeSlowRun(t, t.TempDir(), "cancelled")
	wins, err := report.ActionWindows(dir, report.QuietOptions{Settle: time.Second}, warn)
	if err != nil || len(wins) != 2 {
		t.Fatalf("%d windows, %v", len(wins), err)
	}
	series := readRunSeries(dir, warn)
	if series == nil || len(series.nodes) != 3 || !series.flowControl() {
		t.Fatalf("series %+v", series)
	}
	info := results.ReadRunInfo(dir, warn)
	o := Options{Node: "node3", Percents: []float64{20}, Resource: "io", Window: 5 * time.Second}
	p := slowNodePage(o, wins, info, series)
	if p.Tally.Judged != 1 || len(p.Figures) != 1 {
		t.Fatalf("%d judged, %d figures", p.Tally.Judged, len(p.Figures))
	}
	svg := string(p.Figures[0].SVG)
	quiet, action, skipped := bandTitles(svg, shadeQuiet), bandTitles(svg, shadeAction), bandTitles(svg, shadeSkipped)
	// Each shade is drawn on both charts: throughput and flow control.
	want := "quiet window before repetition 1: node3 20% slower on disk: " + span(wins[0].Quiet, series.start)
	if len(quiet) != 2 || quiet[0] != want || quiet[1] != want {
		t.Errorf("quiet bands %q, want twice %q", quiet, want)
	}
	want = "repetition 1: node3 20% slower on disk: " + span(wins[0].Window, series.start)
	if len(action) != 2 || action[0] != want {
		t.Errorf("action bands %q, want twice %q", action, want)
	}
	want = "repetition 2: node3 20% slower on disk: not judged: " + span(wins[1].Window, series.start)
	if len(skipped) != 2 || skipped[0] != want {
		t.Errorf("skipped bands %q, want twice %q", skipped, want)
	}
	for _, node := range []string{"node1", "node2", "node3"} {
		if n := strings.Count(svg, "<title>"+node+"</title>"); n != 2 {
			t.Errorf("%s has %d lines, want one per chart", node, n)
		}
	}
	if !strings.Contains(svg, "flow control: the fraction of each interval every node was paused") {
		t.Error("no flow control chart")
	}
	for _, n := range series.nodes {
		if len(n.x) == 0 || n.x[0] < 0 || len(n.pausedX) == 0 || n.pausedX[0] < 0 {
			t.Errorf("%s's lines start at %v and %v: before the run's measured phase", n.name, n.x[:min(1, len(n.x))], n.pausedX[:min(1, len(n.pausedX))])
		}
	}
	// node3's line dips in the throttled window: the series are the run's.
	n3 := series.nodes[2]
	for i, x := range n3.x {
		if x > 13 && x < 16 && n3.qps[i] > 60 || x > 3 && x < 10 && n3.qps[i] < 90 {
			t.Errorf("node3 at %.1f s: %.0f executions/s", x, n3.qps[i])
		}
	}
}

// The dose page shades each throttle by its percentage, judged as its row
// judges it.
func TestDoseFigureNamesEachThrottle(t *testing.T) {
	warn := func(err error) { t.Log(err) }
	dir := writeSlowRun(t, t.TempDir(), results.ActionOK)
	wins, err := report.ActionWindows(dir, report.QuietOptions{}, warn)
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := results.ReadActions(dir, warn)
	o := Options{Node: "node3", Percents: []float64{0, 20}, Resource: "io", Repetitions: 1}
	p := dosePage(o, throttledWindows([]float64{0, 20}, wins, rows), results.ReadRunInfo(dir, warn), readRunSeries(dir, warn))
	if len(p.Figures) != 2 {
		t.Fatalf("%d figures, want the scatter and the run", len(p.Figures))
	}
	action := bandTitles(string(p.Figures[1].SVG), shadeAction)
	if len(action) != 4 || !strings.HasPrefix(action[0], "throttle 1: node3 0% slower") || !strings.HasPrefix(action[1], "throttle 2: node3 20% slower") {
		t.Errorf("action bands %q", action)
	}
}

// A method's figure shades the quiet window and the action's window its
// row was measured in.
func TestMethodsFigureShadesTheRowsWindow(t *testing.T) {
	w := report.ActionWindow{Quiet: [2]time.Time{t0.Add(time.Second), t0.Add(10 * time.Second)}, Window: [2]time.Time{t0.Add(10 * time.Second), t0.Add(14 * time.Second)}}
	s := &runSeries{start: t0, nodes: []nodeSeries{{name: "node1", x: []float64{0, 10, 20}, qps: []float64{100, 10, 100}}}}
	p := methodsPage("t", "w", []methodCost{{name: "TOI", outcome: "ok", before: 100, during: 10, series: s, window: &w},
		{name: "RSU", outcome: "failed"}})
	if len(p.Figures) != 1 {
		t.Fatalf("%d figures, want one per method measured", len(p.Figures))
	}
	svg := string(p.Figures[0].SVG)
	if got := bandTitles(svg, shadeQuiet); len(got) != 1 || got[0] != "quiet window before TOI (ok): 1.0 to 10.0 s" {
		t.Errorf("quiet bands %q", got)
	}
	if got := bandTitles(svg, shadeAction); len(got) != 1 || got[0] != "TOI (ok): 10.0 to 14.0 s" {
		t.Errorf("action bands %q", got)
	}
	if strings.Contains(svg, "flow control") {
		t.Error("a flow control chart without flow control counters")
	}
}

// The recovery figure has a bar per node brought back, of every crash,
// its phases in the order they came and each starting where the one
// before ended.
func TestRecoveryFigureBarPerNodeInOrder(t *testing.T) {
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	one := results.RecoveryTimeline([]results.Action{
		{Action: 1, Step: 1, Kind: "crash", Spec: "10s@node3: crash", Node: "node3", Start: at(0), Outcome: "ok",
			Recovery: &results.Recovery{ClusterSize: 3, KilledTime: at(0), StartedTime: at(2), TransferStartTime: at(3), TransferEndTime: at(4),
				WritableTime: at(4.5), SyncedTime: at(5), Method: "ist"}},
	})
	all := results.RecoveryTimeline([]results.Action{
		{Action: 1, Step: 1, Kind: "crash", Spec: "50s@all: crash", Node: "node1", Start: at(40), Outcome: "ok",
			Recovery: &results.Recovery{ClusterSize: 3, KilledTime: at(40), StartedTime: at(44), WritableTime: at(46), SyncedTime: at(46), Method: "bootstrap"}},
		{Action: 1, Step: 2, Kind: "crash", Spec: "50s@all: crash", Node: "node2", Start: at(40), Outcome: "ok",
			Recovery: &results.Recovery{ClusterSize: 3, KilledTime: at(40), StartedTime: at(47), TransferStartTime: at(48), TransferEndTime: at(53),
				WritableTime: at(54), SyncedTime: at(55), Method: "sst"}},
		{Action: 1, Step: 3, Kind: "crash", Spec: "50s@all: crash", Node: "node3", Start: at(40), Outcome: "ok",
			Recovery: &results.Recovery{ClusterSize: 3, KilledTime: at(40), StartedTime: at(47)}},
	})
	crashes := append(stall.Recoveries(one), stall.Recoveries(all)...)
	bars := recoveryBars(crashes)
	want := []struct {
		label string
		kinds []string
		ends  []float64
		note  string
	}{
		{"10s@node3: crash node3", []string{phaseDown, phaseStarting, phaseIST, phaseStarting, phaseWritable}, []float64{2, 3, 4, 4.5, 5}, "ist"},
		{"50s@all: crash node1", []string{phaseDown, phaseStarting, phaseWritable}, []float64{4, 6, 6}, "bootstrap"},
		{"50s@all: crash node2", []string{phaseDown, phaseStarting, phaseSST, phaseStarting, phaseWritable}, []float64{7, 8, 13, 14, 15}, "sst"},
		{"50s@all: crash node3", []string{phaseDown}, []float64{7}, "never writable"},
	}
	if len(bars) != len(want) {
		t.Fatalf("%d bars, want one per node brought back: %+v", len(bars), bars)
	}
	for i, w := range want {
		b := bars[i]
		var kinds []string
		var ends []float64
		from := 0.0
		for _, s := range b.Spans {
			if s.From != from {
				t.Errorf("%s: %s starts at %.1f, not where the phase before ended (%.1f)", b.Label, s.Kind, s.From, from)
			}
			kinds, ends, from = append(kinds, s.Kind), append(ends, s.To), s.To
		}
		if b.Label != w.label || strings.Join(kinds, "|") != strings.Join(w.kinds, "|") || fmt.Sprint(ends) != fmt.Sprint(w.ends) || b.Note != w.note {
			t.Errorf("bar %d: %s %q ending at %v (%s), want %s %q ending at %v (%s)", i, b.Label, kinds, ends, b.Note, w.label, w.kinds, w.ends, w.note)
		}
	}
	// The figure is on the page, beside the table of the same crashes.
	p := recoveryPage(Options{Node: "node3"}, 3, crashes, nil)
	if len(p.Figures) != 1 || strings.Count(string(p.Figures[0].SVG), `<g class="bar">`) != 4 {
		t.Errorf("recovery page figures: %d", len(p.Figures))
	}
}

// The restore figure stacks each restore's phases in the order they ran,
// a bar per restore of every --use-memory value.
func TestRestoreFigureStacksThePhases(t *testing.T) {
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	r := sandbox.Restore{Node: "node3", UseMemory: "100M", BackupStart: at(0), BackupEnd: at(5), PrepareStart: at(5), PrepareEnd: at(7), CopyStart: at(7), CopyEnd: at(8)}
	r.Join.Synced, r.Join.Transfer = at(12), "ist"
	unfinished := r
	unfinished.Join.Synced = time.Time{}
	res := []restoreResult{{useMemory: "100M", restores: []sandbox.Restore{r, unfinished}}, {useMemory: "2G", restores: []sandbox.Restore{r}}}
	bars := restoreBars(res)
	if len(bars) != 3 || bars[0].Label != "100M #1" || bars[1].Label != "100M #2" || bars[2].Label != "2G #1" {
		t.Fatalf("bars %+v", bars)
	}
	var kinds []string
	for _, s := range bars[0].Spans {
		kinds = append(kinds, fmt.Sprintf("%s %g-%g", s.Kind, s.From, s.To))
	}
	want := []string{restoreBackup + " 0-5", restorePrepare + " 5-7", restoreCopy + " 7-8", restoreJoin + " 8-12"}
	if strings.Join(kinds, "|") != strings.Join(want, "|") || bars[0].Note != "ist" {
		t.Errorf("spans %q (%s), want %q", kinds, bars[0].Note, want)
	}
	if len(bars[1].Spans) != 3 {
		t.Errorf("a restore that never joined has %d spans, want the three it ran", len(bars[1].Spans))
	}
	// Two values: their share against --use-memory first, then the bars;
	// one value has no line to draw.
	p := restorePage(Options{Node: "node3"}, res)
	if len(p.Figures) != 2 || !strings.Contains(string(p.Figures[0].SVG), "redo share") || strings.Count(string(p.Figures[1].SVG), `<g class="bar">`) != 3 ||
		len(restorePage(Options{}, nil).Figures) != 0 || len(restorePage(Options{Node: "node3"}, res[1:]).Figures) != 1 {
		t.Errorf("restore page figures: %d", len(p.Figures))
	}
}

// The hot-vs-uniform figure's rows are the table's changes.
func TestHotUniformFigureRowsAreTheTablesChanges(t *testing.T) {
	mixes := []mixResult{{writePercent: 0, uniform: []float64{100, 110}, hot: []float64{200, 230}}, {writePercent: 50, uniform: []float64{100}, hot: []float64{120}}}
	rows := hotUniformRows(mixes)
	if len(rows) != 2 || rows[0].Label != "0% writes" || fmt.Sprintf("%.1f", rows[0].Mid) != "2.0" || rows[0].Low <= 0 || rows[0].High <= rows[0].Low {
		t.Errorf("rows %+v", rows)
	}
	if rows[1].Low != 0 || rows[1].High != 0 {
		t.Errorf("one pair has no interval: %+v", rows[1])
	}
	p := hotUniformPage(Options{WritePercents: []int{0, 50}}, mixes)
	if len(p.Figures) != 1 || !strings.HasPrefix(p.Table.Rows[0][3], "+104%") {
		t.Errorf("%d figures, rows %q", len(p.Figures), p.Table.Rows)
	}
}
