package experiment

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/analysis/report"
	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/results"
)

// rendered is the page as the command prints it, and as its two files.
func rendered(t *testing.T, p *Page) (text, md, html string) {
	t.Helper()
	var a, b, c bytes.Buffer
	if err := p.WriteText(&a); err != nil {
		t.Fatal(err)
	}
	if err := p.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	if err := p.WriteHTML(&c); err != nil {
		t.Fatal(err)
	}
	return a.String(), b.String(), c.String()
}

// slowNodeOptions are slow-node's, five repetitions planned.
var slowNodeOptions = Options{Node: "node3", Percents: []float64{50}, Resource: "io", Threads: 6, Window: 5 * time.Second, Repetitions: 5}

// settled is the slow-node page of wins as Run finishes it.
func settled(wins []report.ActionWindow, interrupted bool) *Page {
	p := slowNodePage(slowNodeOptions, wins, clusterRun, nil)
	p.Lesson = "slow-node"
	p.settle(Tally{Unit: "windows", Planned: 5, Judged: p.Tally.Judged, Interrupted: interrupted})
	return p
}

// A slow-node stopped by SIGTERM after one of its five windows, its
// second throttle cut: the page says 1 of 5 judged and interrupted, in
// the text, the markdown and the HTML, and draws no verdict, a drop
// from one window only a note that says it is from a partial run.
func TestInterruptedSlowNodeDrawsNoVerdict(t *testing.T) {
	cut := window(100, 60, 0.3)
	cut.Outcome = results.ActionCancelled
	p := settled([]report.ActionWindow{window(100, 50, 0.3), cut}, true)
	if p.Tally.Judged != 1 || p.Tally.Planned != 5 || !p.Tally.Interrupted {
		t.Fatalf("tally %+v, want 1 of 5 judged, interrupted", p.Tally)
	}
	if want := "none: interrupted after 1 of 5 windows"; !strings.HasPrefix(p.Verdict, want) || strings.Contains(p.Verdict, "drop") {
		t.Errorf("verdict %q, want %q and no drop", p.Verdict, want)
	}
	notes := strings.Join(p.Notes, "\n")
	for _, want := range []string{"from a partial run (1 of 5 windows), not a verdict: one node 50% slower on disk", "not judged: repetition 2, whose throttle did not run to its end (cancelled)"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	text, md, html := rendered(t, p)
	line := "windows judged: 1 of 5 (interrupted)"
	for name, out := range map[string]string{"text": text, "markdown": md, "html": html} {
		if !strings.Contains(out, line) {
			t.Errorf("the %s page lacks %q:\n%s", name, line, out)
		}
	}
	if !strings.Contains(text, "verdict: none: interrupted after 1 of 5 windows") {
		t.Errorf("text:\n%s", text)
	}
	if p.Err() != nil {
		t.Errorf("a page with a judged window is an error: %v", p.Err())
	}
}

// Interrupted before the first throttle ended: the page says none was
// judged, and the command fails.
func TestInterruptedBeforeAnyWindow(t *testing.T) {
	cut := window(100, 60, 0.3)
	cut.Outcome = results.ActionCancelled
	for _, wins := range [][]report.ActionWindow{nil, {cut}} {
		p := settled(wins, true)
		if want := "none: interrupted before any of the 5 windows was judged"; p.Verdict != want {
			t.Errorf("%d window(s): verdict %q, want %q", len(wins), p.Verdict, want)
		}
		if err := p.Err(); err == nil || !strings.Contains(err.Error(), "none of the 5 windows was judged") {
			t.Errorf("%d window(s): error %v", len(wins), err)
		}
	}
}

// A run that ended, some of whose windows could not be judged (no
// traffic before them), keeps its verdict, saying how few it is from;
// none judged is no verdict and an error, the lesson's reason kept.
func TestUnjudgedWindowsOfACompleteRun(t *testing.T) {
	p := settled([]report.ActionWindow{window(0, 50, 0.3), window(100, 50, 0.3), window(100, 52, 0.3), window(100, 49, 0.3), window(100, 51, 0.3)}, false)
	if !strings.HasPrefix(p.Verdict, "from 4 of 5 windows only: one node 50% slower on disk") {
		t.Errorf("verdict %q", p.Verdict)
	}
	if text, _, _ := rendered(t, p); !strings.Contains(text, "windows judged: 4 of 5\n") {
		t.Errorf("text:\n%s", text)
	}
	none := settled([]report.ActionWindow{window(0, 50, 0.3)}, false)
	if !strings.HasPrefix(none.Verdict, "none: no windows of the 5 planned could be judged (no window could be judged") || none.Err() == nil {
		t.Errorf("verdict %q, error %v", none.Verdict, none.Err())
	}
}

// Every window judged: the verdict is the lesson's own, the tally says
// all of them.
func TestCompleteLessonKeepsItsVerdict(t *testing.T) {
	wins := []report.ActionWindow{window(100, 50, 0.3), window(100, 52, 0.3), window(100, 49, 0.3), window(100, 51, 0.3), window(100, 50, 0.3)}
	p := settled(wins, false)
	if !strings.HasPrefix(p.Verdict, "one node 50% slower on disk") || p.Tally.String() != "windows judged: 5 of 5" || p.Err() != nil {
		t.Errorf("verdict %q, tally %q, error %v", p.Verdict, p.Tally, p.Err())
	}
}

// hot-vs-uniform interrupted in its second mix: the first mix's pairs
// are in the table, the mix without a pair and the one never started
// are named, and the tally counts pairs.
func TestInterruptedHotUniformPage(t *testing.T) {
	o := Options{TableSize: 1000, Threads: 2, Window: time.Second, Repetitions: 2, WritePercents: []int{0, 10, 50}}
	p := hotUniformPage(o, []mixResult{
		{writePercent: 0, uniform: []float64{100, 110}, hot: []float64{200, 220}},
		{writePercent: 10},
	})
	p.settle(Tally{Unit: "pairs of runs", Planned: 6, Judged: p.Tally.Judged, Interrupted: true})
	if len(p.Table.Rows) != 1 || p.Table.Rows[0][0] != "0%" {
		t.Errorf("rows %q, want the 0%% mix alone", p.Table.Rows)
	}
	if want := "none: interrupted after 2 of 6 pairs of runs"; !strings.HasPrefix(p.Verdict, want) {
		t.Errorf("verdict %q, want %q", p.Verdict, want)
	}
	if notes := strings.Join(p.Notes, "\n"); !strings.Contains(notes, "not measured: 10% and 50% writes") {
		t.Errorf("notes:\n%s", notes)
	}
}

// Every lesson says what it judges and plans at least one of it with
// the command's defaults, so that every page has its tally.
func TestEveryLessonHasATally(t *testing.T) {
	o := Options{Repetitions: 5, WritePercents: []int{0, 10, 50}, UseMemory: []string{"100M", "2G"}}
	for _, l := range Lessons() {
		if l.unit == "" || l.plan == nil {
			t.Errorf("%s: unit %q, no plan", l.Name, l.unit)
		} else if n := l.plan(o); n < 1 {
			t.Errorf("%s plans %d %s", l.Name, n, l.unit)
		}
	}
}

// A lesson interrupted before it measured anything (here before its
// tables were read) still has a page: none judged, interrupted, and the
// command fails. No server is reached: the context is over already.
func TestRunInterruptedBeforeAnythingPagesNone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tgt := server.New([]server.Endpoint{{Name: "nowhere", DSN: "root@tcp(127.0.0.1:1)/jb"}}, "jb", nil)
	o := Options{Out: t.TempDir(), Threads: 1, TableSize: 10, Window: time.Second, Repetitions: 3, WritePercents: []int{0, 50}}
	p, err := Run(ctx, "hot-vs-uniform", tgt, o)
	if err != nil {
		t.Fatalf("interrupted lesson: %v", err)
	}
	if want := "none: interrupted before any of the 6 pairs of runs was judged"; p.Verdict != want {
		t.Errorf("verdict %q, want %q", p.Verdict, want)
	}
	if p.Err() == nil || !p.Tally.Interrupted {
		t.Errorf("tally %+v, error %v: want interrupted and an error", p.Tally, p.Err())
	}
}

// What a step cut by the interruption said beyond it (a node left down)
// is kept for the page; the interruption itself, or any error of a lesson
// not interrupted, is not.
func TestInterruptedKeepsWhatTheStepSaid(t *testing.T) {
	e := &env{}
	if e.interrupted(context.Background(), errors.New("boom")) || len(e.cut) != 0 {
		t.Errorf("a lesson not interrupted read as one: %q", e.cut)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if !e.interrupted(ctx, fmt.Errorf("prepare: %w", context.Canceled)) || len(e.cut) != 0 {
		t.Errorf("the interruption itself noted: %q", e.cut)
	}
	if !e.interrupted(ctx, errors.New("the run left node3 down")) || len(e.cut) != 1 {
		t.Errorf("what the step said was lost: %q", e.cut)
	}
}
