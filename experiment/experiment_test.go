package experiment

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/analysis/report"
	"github.com/joinbench/joinbench/analysis/stall"
	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/results"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

var clusterRun = &results.Run{Endpoints: []string{"h:1", "h:2", "h:3"},
	Nodes: []results.Node{{Name: "node1", Endpoint: "h:1"}, {Name: "node2", Endpoint: "h:2"}, {Name: "node3", Endpoint: "h:3"}}}

// window is one repetition: each endpoint's rate before and during (the
// cluster's is their sum), the quiet halves alike, node3 paused fc.
func window(before, during float64, fc float64) report.ActionWindow {
	w := report.ActionWindow{Endpoints: []string{"h:1", "h:2", "h:3", "(all)"}, Outcome: "ok",
		PausedBaseline: map[string]float64{"node1": 0, "node2": 0, "node3": 0},
		PausedDuring:   map[string]float64{"node1": fc, "node2": fc, "node3": fc},
		SentDuring:     map[string]float64{"node1": 0, "node2": 1, "node3": 100 * fc}}
	for range 3 {
		w.Baseline, w.During = append(w.Baseline, before), append(w.During, during)
		w.QuietHalves[0], w.QuietHalves[1] = append(w.QuietHalves[0], before), append(w.QuietHalves[1], before*1.01)
	}
	w.Baseline, w.During = append(w.Baseline, 3*before), append(w.During, 3*during)
	w.QuietHalves[0], w.QuietHalves[1] = append(w.QuietHalves[0], 3*before), append(w.QuietHalves[1], 3*before*1.01)
	return w
}

func TestSlowNodePageShowsTheDropAndFlowControl(t *testing.T) {
	o := Options{Node: "node3", Percents: []float64{20}, Resource: "io", Threads: 6, Window: 10 * time.Second}
	p := slowNodePage(o, []report.ActionWindow{window(100, 80, 0.3), window(100, 82, 0.32), window(100, 79, 0.31)}, clusterRun, nil)
	if got := p.Table.Header; len(got) != 8 || got[3] != "change [95% CI]" {
		t.Fatalf("header %q", got)
	}
	var names []string
	for _, r := range p.Table.Rows {
		names = append(names, r[0])
	}
	if strings.Join(names, ",") != "node1,node2,node3,cluster" {
		t.Errorf("rows %q, want the nodes then the cluster", names)
	}
	cluster := p.Table.Rows[3]
	if cluster[1] != "300" || cluster[2] != "241" || !strings.HasPrefix(cluster[3], "-20% [") {
		t.Errorf("cluster row %q", cluster)
	}
	if node3 := p.Table.Rows[2]; node3[6] != "31%" || node3[5] != "0%" || node3[7] != "31" {
		t.Errorf("node3 flow control %q, want 0%% before, 31%% throttled, 31 messages sent", node3[5:])
	}
	for _, want := range []string{"one node 20% slower on disk: cluster throughput -20% [", "a drop (its interval lies below zero; A/A noise of the quiet windows ±3%)", "flow control paused the cluster 31% of the time, asked for by node3 (97% of the messages)"} {
		if !strings.Contains(p.Verdict, want) {
			t.Errorf("verdict %q lacks %q", p.Verdict, want)
		}
	}
}

func TestSlowNodeAtZeroIsNoDrop(t *testing.T) {
	o := Options{Node: "node3", Percents: []float64{0}, Resource: "io"}
	p := slowNodePage(o, []report.ActionWindow{window(100, 99, 0), window(100, 101, 0), window(100, 100, 0)}, clusterRun, nil)
	if !strings.Contains(p.Verdict, "no drop (A/A noise") || !strings.Contains(p.Verdict, "no flow control") {
		t.Errorf("verdict %q, want no drop and no flow control", p.Verdict)
	}
}

// A repetition whose quiet stretch had no traffic (the workload started
// late on a busy machine) is named and left out of every column, not
// only of the change: the table cannot contradict its verdict.
func TestSlowNodeWindowWithoutQuietTrafficIsNamed(t *testing.T) {
	o := Options{Node: "node3", Percents: []float64{50}, Resource: "io", Window: 5 * time.Second}
	p := slowNodePage(o, []report.ActionWindow{window(0, 300, 0.3), window(100, 50, 0.3), window(100, 52, 0.3)}, clusterRun, nil)
	cluster := p.Table.Rows[3]
	if cluster[1] != "300" || cluster[2] != "153" {
		t.Errorf("cluster row %q: want the means of the two judged windows (300 before, 153 throttled)", cluster)
	}
	if p.Tally.Judged != 2 {
		t.Errorf("%d windows judged, want 2", p.Tally.Judged)
	}
	notes := strings.Join(p.Notes, "\n")
	if want := "not judged: repetition 1, whose quiet stretch (or a half of it) had no successful execution"; !strings.Contains(notes, want) {
		t.Errorf("notes lack %q:\n%s", want, notes)
	}
	if !strings.Contains(p.Verdict, "over 2 window(s), a drop") {
		t.Errorf("verdict %q", p.Verdict)
	}
	none := slowNodePage(o, []report.ActionWindow{window(0, 300, 0.3)}, clusterRun, nil)
	if !strings.HasPrefix(none.Verdict, "no window could be judged") || len(none.Table.Rows) != 0 {
		t.Errorf("no judged window: verdict %q, %d rows", none.Verdict, len(none.Table.Rows))
	}
}

func TestSlowNodeWithoutWindowSaysSo(t *testing.T) {
	p := slowNodePage(Options{Node: "node3", Resource: "cpu"}, nil, clusterRun, nil)
	if !strings.Contains(p.Verdict, "no throttled window") {
		t.Errorf("verdict %q", p.Verdict)
	}
}

func TestChangeInterval(t *testing.T) {
	c := changeOf([]float64{100, 100, 100}, []float64{80, 82, 78})
	if math.Abs(c.Mean+0.2) > 0.01 || c.Low >= c.Mean || c.High <= c.Mean || c.N != 3 {
		t.Errorf("change %+v", c)
	}
	if one := changeOf([]float64{100}, []float64{90}); one.String() != "-10%" {
		t.Errorf("one repetition: %q", one.String())
	}
	if none := changeOf([]float64{0}, []float64{90}); none.String() != "no traffic" {
		t.Errorf("no rate before: %q", none.String())
	}
	aa := changeOf([]float64{100, 100, 100}, []float64{95, 108, 101})
	if b := noiseBound([]float64{100, 100, 100}, []float64{95, 108, 101}); b != math.Max(-aa.Low, aa.High) || b < 0.08 {
		t.Errorf("noise bound %.3f, want the outer end of the A/A interval %+v", b, aa)
	}
	if b := noiseBound([]float64{100, 100}, []float64{100, 100}); b != minNoise {
		t.Errorf("noise bound %.3f of identical windows, want the floor", b)
	}
}

func TestMethodsPageJudgesStallAndWindowThroughput(t *testing.T) {
	costs := []methodCost{
		{name: "TOI", outcome: "ok", seconds: 3, stallNode: 2300, stallCluster: 2300, before: 400, during: 100, paused: map[string]float64{"node1": 0.1, "node2": 0.05}},
		{name: "RSU", outcome: "ok", seconds: 9, stallNode: 300, stallCluster: 0, before: 400, during: 360, paused: map[string]float64{"node1": 0, "node2": 0}},
		{name: "pt-osc", outcome: "failed"},
	}
	p := methodsPage("t", "w", costs)
	if len(p.Table.Rows) != 3 || p.Table.Rows[0][7] != "-75%" || p.Table.Rows[0][8] != "10% (node1)" {
		t.Errorf("rows %q", p.Table.Rows)
	}
	want := "RSU stalled the workload least (longest stretch without a write on a node: 300 ms; TOI 2300 ms) and kept the most throughput while it ran (-10%); did not complete: pt-osc failed"
	if p.Verdict != want {
		t.Errorf("verdict\n got %q\nwant %q", p.Verdict, want)
	}
	if p.Table.Rows[0][9] != "-" {
		t.Errorf("disk cell %q of an action without disk samples, want -", p.Table.Rows[0][9])
	}
}

func TestMethodsPageShowsTheTableCopysDisk(t *testing.T) {
	none, copied := int64(0), int64(48_000_000)
	costs := []methodCost{
		{name: "TOI", outcome: "ok", stallNode: 2300, before: 400, during: 100, diskBytes: &none},
		{name: "pt-osc", outcome: "ok", stallNode: 100, before: 400, during: 380, diskBytes: &copied},
	}
	p := methodsPage("t", "w", costs)
	if p.Table.Header[9] != "peak extra disk MB" || p.Table.Rows[0][9] != "0.0" || p.Table.Rows[1][9] != "48.0" {
		t.Errorf("header %q rows %q", p.Table.Header, p.Table.Rows)
	}
	if !strings.HasSuffix(p.Verdict, "; pt-osc took the most extra disk (48.0 MB at its peak)") {
		t.Errorf("verdict %q", p.Verdict)
	}
}

func TestHotUniformPage(t *testing.T) {
	p := hotUniformPage(Options{TableSize: 1000, Threads: 2, Window: time.Second, Repetitions: 2}, []mixResult{
		{writePercent: 0, uniform: []float64{100, 110}, hot: []float64{200, 220}},
		{writePercent: 50, uniform: []float64{100, 100}, hot: []float64{120, 121}},
	})
	if len(p.Table.Rows) != 2 || p.Table.Rows[0][0] != "0%" || !strings.HasPrefix(p.Table.Rows[0][3], "+100%") {
		t.Errorf("rows %q", p.Table.Rows)
	}
	if !strings.Contains(p.Verdict, "the gap shrinks as writes grow") {
		t.Errorf("verdict %q", p.Verdict)
	}
	checkHotVerdictAgrees(t, p)
}

// The verdict of hot-vs-uniform agrees with its table whatever the
// figures: it quotes every row's change, says which way each interval
// points as the interval does, and names the trend the table's last
// column and the intervals of the lowest and highest shares give.
func TestHotUniformVerdictAgreesWithTable(t *testing.T) {
	reps := func(base float64, ratios ...float64) (u, h []float64) {
		for i, r := range ratios {
			b := base + float64(i)
			u, h = append(u, b), append(h, b*r)
		}
		return u, h
	}
	mix := func(wp int, ratios ...float64) mixResult {
		u, h := reps(1000, ratios...)
		return mixResult{writePercent: wp, uniform: u, hot: h}
	}
	for name, tc := range map[string]struct {
		mixes []mixResult
		trend string // in the verdict
		last  string // the table's last cell of the last row
	}{
		"shrinks":  {[]mixResult{mix(0, 3.5, 3.6, 3.4), mix(10, 2.5, 2.6, 2.4), mix(50, 1.3, 1.35, 1.25)}, "the gap shrinks as writes grow", "smaller"},
		"overlaps": {[]mixResult{mix(0, 3.5, 2, 5), mix(50, 3, 4, 2.5)}, "no clear change of the gap", "no clear change"},
		"grows":    {[]mixResult{mix(0, 1.1, 1.12, 1.09), mix(50, 2, 2.1, 1.9)}, "the gap grows as writes grow", "larger"},
		// Given out of order, judged from the lowest share to the highest.
		"unordered":      {[]mixResult{mix(50, 1.3, 1.35, 1.25), mix(0, 3.5, 3.6, 3.4)}, "the gap shrinks as writes grow", "smaller"},
		"one repetition": {[]mixResult{mix(0, 3), mix(50, 1.2)}, "cannot be judged from one repetition", "no interval"},
		"zero held":      {[]mixResult{mix(0, 0.9, 1.2, 1.05), mix(50, 0.95, 1.1, 1)}, "no clear change of the gap", "no clear change"},
	} {
		t.Run(name, func(t *testing.T) {
			o := Options{TableSize: 1000, Threads: 2, Window: time.Second, Repetitions: len(tc.mixes[0].uniform)}
			for _, m := range tc.mixes {
				o.WritePercents = append(o.WritePercents, m.writePercent)
			}
			p := hotUniformPage(o, tc.mixes)
			if !strings.Contains(p.Verdict, tc.trend) {
				t.Errorf("verdict %q lacks %q", p.Verdict, tc.trend)
			}
			if got := p.Table.Rows[len(p.Table.Rows)-1][4]; got != tc.last {
				t.Errorf("last row's trend %q, want %q", got, tc.last)
			}
			checkHotVerdictAgrees(t, p)
		})
	}
}

// checkHotVerdictAgrees checks the verdict against the page's table: the
// rows in increasing share, each one's change quoted with the side its
// interval shows, and the trend between the first and last rows as
// their intervals give it.
func checkHotVerdictAgrees(t *testing.T, p *Page) {
	t.Helper()
	var changes []Change
	prev := -1
	for _, row := range p.Table.Rows {
		var wp int
		if _, err := fmt.Sscanf(row[0], "%d%%", &wp); err != nil || wp <= prev {
			t.Fatalf("rows not in increasing share of writes: %q", p.Table.Rows)
		}
		prev = wp
		c := parseChange(t, row[3])
		changes = append(changes, c)
		side := "no difference shown"
		switch {
		case c.N < 2:
			side = "one repetition"
		case c.Low > 0:
			side = "hot faster"
		case c.High < 0:
			side = "hot slower"
		}
		if want := fmt.Sprintf("%s at %d%% writes (%s", row[3], wp, side); !strings.Contains(p.Verdict, want) {
			t.Errorf("verdict %q does not say %q", p.Verdict, want)
		}
	}
	if len(changes) < 2 {
		return
	}
	first, last := changes[0], changes[len(changes)-1]
	want := "no clear change of the gap"
	switch {
	case first.N < 2 || last.N < 2:
		want = "cannot be judged"
	case last.High < first.Low:
		want = "the gap shrinks"
	case last.Low > first.High:
		want = "the gap grows"
	}
	if !strings.Contains(p.Verdict, want) {
		t.Errorf("verdict %q, whose table's first and last changes are %q and %q, lacks %q", p.Verdict, p.Table.Rows[0][3], p.Table.Rows[len(p.Table.Rows)-1][3], want)
	}
}

// parseChange reads a change as Change.String writes it: "+91% [-6,
// +290]", or "+91%" alone (one repetition).
func parseChange(t *testing.T, s string) Change {
	t.Helper()
	var c Change
	if n, _ := fmt.Sscanf(s, "%f%% [%f, %f]", &c.Mean, &c.Low, &c.High); n == 3 {
		c.Mean, c.Low, c.High, c.N = c.Mean/100, c.Low/100, c.High/100, 2
		return c
	}
	if _, err := fmt.Sscanf(s, "%f%%", &c.Mean); err != nil {
		t.Fatalf("change %q: %v", s, err)
	}
	c.Mean /= 100
	c.Low, c.High, c.N = c.Mean, c.Mean, 1
	return c
}

// The regime needs a named sandbox's servers, and sizes in range: refused
// before anything is loaded; with every part of it turned off, any
// server will do.
func TestCheckRegime(t *testing.T) {
	tgt := server.New([]server.Endpoint{{Name: "db:3306"}}, "j", nil)
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{FlushMethod: "O_DIRECT"}, "named sandbox"},
		{Options{ReadIOPS: 1500}, "named sandbox"},
		{Options{PoolShare: 0.5}, "named sandbox"},
		{Options{ReadIOPS: -1}, "--read-iops -1"},
		{Options{PoolShare: 2}, "--pool-share 2"},
		{Options{BufferPool: "lots"}, "--buffer-pool-size"},
		{Options{FlushMethod: "O_DIRCT"}, "--flush-method"},
		{Options{}, ""},
	} {
		err := checkRegime(tgt, tc.o)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !usage.Is(err)) {
			t.Errorf("%+v: %v, want %q", tc.o, err, tc.want)
		}
	}
}

// The lesson sizes the pool against the clustered index: a share of it
// in whole MiB, 16 MiB at least; --buffer-pool-size wins; 0 leaves it.
func TestPoolSize(t *testing.T) {
	for _, tc := range []struct {
		o    Options
		want int64
	}{
		{Options{PoolShare: 0.5}, 200 << 20},
		{Options{PoolShare: 0.5, BufferPool: "192M"}, 192 << 20},
		{Options{PoolShare: 0.01}, 16 << 20},
		{Options{}, 0},
	} {
		e := &env{o: tc.o}
		if got := e.poolSize(401<<20 + 12345); got != tc.want {
			t.Errorf("%+v: %d, want %d", tc.o, got, tc.want)
		}
	}
}

func TestMixScenarios(t *testing.T) {
	for wp, want := range map[int]string{0: "point_select=1", 10: "point_select=9 point_update=1", 50: "point_select=1 point_update=1", 100: "point_update=1"} {
		got, err := mixScenarios(wp)
		if err != nil || strings.Join(got, " ") != want {
			t.Errorf("%d%%: %q, %v; want %q", wp, got, err, want)
		}
	}
	if _, err := mixScenarios(101); err == nil {
		t.Error("101% accepted")
	}
}

func TestRecoveryPageTimeline(t *testing.T) {
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	// Each run's recovery.parquet, as the run writes it from its crash
	// actions' rows; each run numbers its actions from 1.
	one := results.RecoveryTimeline([]results.Action{
		{Action: 1, Step: 1, Kind: "crash", Spec: "10s@node3: crash", Node: "node3", Start: at(0), Outcome: "ok",
			Recovery: &results.Recovery{ClusterSize: 3, KilledTime: at(0), WritableTime: at(4), SyncedTime: at(5), Method: "ist"}},
	})
	all := results.RecoveryTimeline([]results.Action{
		{Action: 1, Step: 1, Kind: "crash", Spec: "50s@all: crash", Node: "node1", Start: at(40), Outcome: "ok",
			Recovery: &results.Recovery{ClusterSize: 3, KilledTime: at(40), WritableTime: at(46), SyncedTime: at(46), Method: "bootstrap"}},
		{Action: 1, Step: 2, Kind: "crash", Spec: "50s@all: crash", Node: "node2", Start: at(40), Outcome: "ok",
			Recovery: &results.Recovery{ClusterSize: 3, KilledTime: at(40), WritableTime: at(50), SyncedTime: at(50), Method: "ist"}},
		{Action: 1, Step: 3, Kind: "crash", Spec: "50s@all: crash", Node: "node3", Start: at(40), Outcome: "ok",
			Recovery: &results.Recovery{ClusterSize: 3, KilledTime: at(40), WritableTime: at(55), SyncedTime: at(55), Method: "sst"}},
	})
	crashes := append(stall.Recoveries(one), stall.Recoveries(all)...)
	outcomes := map[string]string{outcomeKey("10s@node3: crash", "node3"): "ok", outcomeKey("50s@all: crash", "node1"): "ok",
		outcomeKey("50s@all: crash", "node2"): "ok", outcomeKey("50s@all: crash", "node3"): "ok"}
	p := recoveryPage(Options{Node: "node3"}, 3, crashes, outcomes)
	want := [][]string{
		{"10s@node3: crash", "", "", "0.0", "0.0", "5.0", ""},
		{"", "node3", "ist", "4.0", "", "5.0", "ok"},
		{"50s@all: crash", "", "", "6.0", "10.0", "15.0", ""},
		{"", "node1", "bootstrap", "6.0", "", "6.0", "ok"},
		{"", "node2", "ist", "10.0", "", "10.0", "ok"},
		{"", "node3", "sst", "15.0", "", "15.0", "ok"},
	}
	if len(p.Table.Rows) != len(want) {
		t.Fatalf("rows %q", p.Table.Rows)
	}
	for i := range want {
		if strings.Join(p.Table.Rows[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("row %d: %q, want %q", i, p.Table.Rows[i], want[i])
		}
	}
	if !strings.Contains(p.Verdict, "50s@all: crash: first writable after 6.0 s, 2 of 3 Synced after 10.0 s, all after 15.0 s") {
		t.Errorf("verdict %q", p.Verdict)
	}
	if none := recoveryPage(Options{}, 3, nil, nil); !strings.Contains(none.Verdict, "no crash was recorded") {
		t.Errorf("verdict %q", none.Verdict)
	}
}

func TestPageRenders(t *testing.T) {
	p := &Page{Lesson: "slow-node", Title: "T <x>", Verdict: "v", What: "w", Table: Table{Header: []string{"a", "b"}, Rows: [][]string{{"x|y", "1"}}},
		Notes: []string{"n"}, Runs: []string{"r"}}
	var text, md, html bytes.Buffer
	if err := p.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := p.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := p.WriteHTML(&html); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "verdict: v") || !strings.Contains(md.String(), `| x\|y | 1 |`) || !strings.Contains(html.String(), "T &lt;x&gt;") {
		t.Errorf("text:\n%s\nmarkdown:\n%s\nhtml:\n%s", text.String(), md.String(), html.String())
	}
	paths, err := p.Write(t.TempDir())
	if err != nil || len(paths) != 2 {
		t.Errorf("write: %v %v", paths, err)
	}
}

func TestRestorePageSharesAndVerdict(t *testing.T) {
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	// prepare for prep seconds, then the copy and the join until whole.
	restoreOf := func(mem string, prep, whole float64, transfer string) sandbox.Restore {
		r := sandbox.Restore{Node: "node3", From: "node1", UseMemory: mem, BackupBytes: 60e6, RedoBytes: 4e6,
			PrepareStart: at(0), PrepareEnd: at(prep), CopyStart: at(prep), CopyEnd: at(prep + 1)}
		r.Join.Synced, r.Join.Transfer = at(whole), transfer
		return r
	}
	p := restorePage(Options{Node: "node3", Threads: 4, Repetitions: 2}, []restoreResult{
		{useMemory: "100M", restores: []sandbox.Restore{restoreOf("100M", 2, 16, "ist"), restoreOf("100M", 2.2, 16, "ist")}},
		{useMemory: "2G", restores: []sandbox.Restore{restoreOf("2G", 2, 14, "ist"), restoreOf("2G", 2.2, 14, "sst")}},
	})
	want := [][]string{
		{"100M", "60 [60, 60]", "0 [0, 0]", "4.0 [4.0, 4.0]", "2.1 [2.0, 2.2]", "1.9", "1.0 [1.0, 1.0]", "12.9 [12.8, 13.0]", "16.0 [16.0, 16.0]", "13% [12, 14]", "0 [0, 0]", "ist"},
		{"2G", "60 [60, 60]", "0 [0, 0]", "4.0 [4.0, 4.0]", "2.1 [2.0, 2.2]", "1.9", "1.0 [1.0, 1.0]", "10.9 [10.8, 11.0]", "14.0 [14.0, 14.0]", "15% [14, 16]", "0 [0, 0]", "ist, sst"},
	}
	for i := range want {
		if i >= len(p.Table.Rows) || strings.Join(p.Table.Rows[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("rows %q, want %q", p.Table.Rows, want)
			break
		}
	}
	wantVerdict := "redo apply was 13% of the restore with 100M and 15% with 2G: at this scale the join dominates; 100M and 2G applied redo at about the same rate (1.9 and 1.9 MB/s): too little redo for the memory to matter"
	if p.Verdict != wantVerdict {
		t.Errorf("verdict\n got %q\nwant %q", p.Verdict, wantVerdict)
	}
	starved := restorePage(Options{Node: "node3"}, []restoreResult{
		{useMemory: "100M", restores: []sandbox.Restore{restoreOf("100M", 46, 50, "ist")}},
		{useMemory: "2G", restores: []sandbox.Restore{restoreOf("2G", 10, 14, "ist")}},
	})
	if !strings.Contains(starved.Verdict, "92% of the restore with 100M") || !strings.Contains(starved.Verdict, "the redo apply dominates; the redo apply ran 4.6x as fast with 2G as with 100M (0.4 against 0.1 MB of redo per second): 100M starved it") {
		t.Errorf("verdict %q", starved.Verdict)
	}
	if none := restorePage(Options{}, nil); none.Verdict != "no restore was made" {
		t.Errorf("verdict %q", none.Verdict)
	}
}

// A verdict names no method "most" or "least" on figures that all read 0
// (or alike): a page of a DELETE that grew no tablespace by a printed
// 0.1 MB said "single took the most extra disk (0.0 MB at its peak)".
func TestMethodsVerdictNamesNoMostOfZeros(t *testing.T) {
	page, zero := int64(16_384), int64(0)
	costs := []methodCost{
		{name: "single", outcome: "ok", before: 400, during: 400, diskBytes: &page},
		{name: "chunked 5000", outcome: "ok", before: 400, during: 400, diskBytes: &zero},
	}
	p := methodsPage("t", "w", costs)
	if p.Table.Rows[0][9] != "0.0" {
		t.Fatalf("disk cell %q, want 0.0", p.Table.Rows[0][9])
	}
	want := "no method stalled the workload (longest stretch without a write on a node: 0 ms for each); the methods kept the same throughput while they ran (+0%)"
	if p.Verdict != want {
		t.Errorf("verdict\n got %q\nwant %q", p.Verdict, want)
	}
	for _, bad := range []string{"most", "least"} {
		if strings.Contains(p.Verdict, bad) {
			t.Errorf("verdict %q names a %q of figures that read alike", p.Verdict, bad)
		}
	}
	// Figures that read alike but not 0 name no winner either.
	mb := int64(48_000_000)
	alike := methodsPage("t", "w", []methodCost{
		{name: "TOI", outcome: "ok", stallNode: 300, before: 400, during: 300, diskBytes: &mb},
		{name: "RSU", outcome: "ok", stallNode: 300.2, before: 400, during: 300, diskBytes: &mb},
	})
	want = "the methods stalled the workload alike (longest stretch without a write on a node: 300 ms for each); the methods kept the same throughput while they ran (-25%); TOI and RSU took the same extra disk (48.0 MB at its peak each)"
	if alike.Verdict != want {
		t.Errorf("verdict\n got %q\nwant %q", alike.Verdict, want)
	}
	// Without traffic before any action there is no throughput to name.
	quiet := methodsPage("t", "w", []methodCost{{name: "TOI", outcome: "ok", stallNode: 300}, {name: "RSU", outcome: "ok", stallNode: 100}})
	if want := "RSU stalled the workload least (longest stretch without a write on a node: 100 ms; TOI 300 ms)"; quiet.Verdict != want {
		t.Errorf("verdict\n got %q\nwant %q", quiet.Verdict, want)
	}
}
