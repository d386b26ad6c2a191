package report

import (
	"math"
	"testing"
	"time"

	"github.com/joinbench/joinbench/analysis/internal/fixture"
)

func TestActionWindowsAgainstQuietStretch(t *testing.T) {
	dir := fixture.MethodRun(t, t.TempDir(), "w", fixture.Method{Spec: "2s@1: slow 20% io for 1s", StallMs: 1000, PausedNs: 400_000_000})
	wins, err := ActionWindows(dir, QuietOptions{}, func(err error) { t.Log(err) })
	if err != nil {
		t.Fatal(err)
	}
	if len(wins) != 1 {
		t.Fatalf("%d windows, want 1", len(wins))
	}
	w := wins[0]
	if got := w.Quiet[1].Sub(w.Quiet[0]).Seconds(); got != 1 {
		t.Errorf("quiet stretch %.1fs, want 1s (a second after the first execution to the action)", got)
	}
	want := map[string][2]float64{"127.0.0.1:1": {200, 200}, "127.0.0.1:2": {200, 0}, "(all)": {400, 200}}
	for i, ep := range w.Endpoints {
		if got := [2]float64{w.Baseline[i], w.During[i]}; got != want[ep] {
			t.Errorf("%s: baseline, during = %v, want %v", ep, got, want[ep])
		}
	}
	if p := w.PausedDuring["node2"]; math.Abs(p-0.4) > 1e-9 {
		t.Errorf("node2 paused %.2f of the window, want 0.40", p)
	}
	if p := w.PausedBaseline["node2"]; p != 0 {
		t.Errorf("node2 paused %.2f of the quiet stretch, want 0", p)
	}
}

func TestActionWindowsTrimTheQuietStretch(t *testing.T) {
	dir := fixture.MethodRun(t, t.TempDir(), "w", fixture.Method{Spec: "2s@1: slow 20% io for 1s"})
	wins, err := ActionWindows(dir, QuietOptions{Lead: 400 * time.Millisecond}, func(err error) { t.Log(err) })
	if err != nil || len(wins) != 1 {
		t.Fatalf("%d windows, %v", len(wins), err)
	}
	if got := wins[0].Window[0].Sub(wins[0].Quiet[1]); got != 400*time.Millisecond {
		t.Errorf("quiet stretch ends %s before the action, want the lead, 400ms", got)
	}
}
