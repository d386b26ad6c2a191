package judge

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/analysis/internal/fixture"
	"github.com/joinbench/joinbench/results"
)

func TestRoundsPairedAA(t *testing.T) {
	base, cand := fixture.RoundsSeries(t, t.TempDir(), "s1", 6, nil,
		fixture.Scen{Name: "fast", N: 200, MedianMs: 2, Plan: "p"},
		fixture.Scen{Name: "slow", N: 60, MedianMs: 40, Plan: "p"})
	c, err := Compare(base, cand, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range c.Scenarios {
		if s.Verdict != compare.NoChange || s.Method != compare.MethodPaired || s.BaseRounds != 6 || s.CandidateRounds != 6 {
			t.Errorf("%s: %s by %s over %d/%d rounds, median %+v", s.Scenario, s.Verdict, s.Method, s.BaseRounds, s.CandidateRounds, s.Median)
		}
		if s.Median.Low > 1 || s.Median.High < 1 || s.BaseExecutions != s.Base.Executions {
			t.Errorf("%s: median %+v, executions %d", s.Scenario, s.Median, s.BaseExecutions)
		}
	}
	if c.Base.Rounds != 6 || c.Candidate.Rounds != 6 || len(c.Notes) != 0 {
		t.Errorf("sides %+v %+v, notes %v", c.Base, c.Candidate, c.Notes)
	}

	// The same rounds as independent samples: no pairing, wider intervals,
	// still no false alarm.
	w, err := Compare(base, cand, compare.Options{Unpaired: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range w.Scenarios {
		if s.Verdict != compare.NoChange || s.Method != compare.MethodWelch {
			t.Errorf("unpaired %s: %s by %s", s.Scenario, s.Verdict, s.Method)
		}
		if p := c.Scenarios[i].Median; s.Median.High-s.Median.Low <= p.High-p.Low {
			t.Errorf("%s: Welch interval %+v not wider than the paired %+v despite the drift", s.Scenario, s.Median, p)
		}
	}
}

// TestRoundsPooledWouldFalseAlarm is the case the rounds exist for: two
// single runs made at different speeds of the machine. Pooled executions
// give a narrow interval around 1.3; the noise floor keeps it from being
// a regression, and says why.
func TestRoundsSingleRoundNoiseFloor(t *testing.T) {
	dir := t.TempDir()
	b := fixture.Run{ID: "b", Execs: fixture.Gen(1, 5, fixture.Scen{Name: "x", N: 2000, MedianMs: 10, Plan: "p"})}.Write(t, dir)
	c := fixture.Run{ID: "c", Execs: fixture.Gen(2, 5, fixture.Scen{Name: "x", N: 2000, MedianMs: 13, Plan: "p"}),
		Plans: nil}.Write(t, dir)
	cmp, err := Compare([]string{b}, []string{c}, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := cmp.Scenarios[0]
	if s.Verdict != compare.NoChange || s.Method != compare.MethodBootstrap || s.Median.Low < 1.2 || s.Bound != 1.5 || s.NoiseSource != "default floor" {
		t.Errorf("drifted single run: %s by %s, median %+v, bound %v (%s)", s.Verdict, s.Method, s.Median, s.Bound, s.NoiseSource)
	}
	if len(cmp.Notes) != 1 || !strings.Contains(cmp.Notes[0], "single round") || !strings.Contains(cmp.Notes[0], "50%") {
		t.Errorf("notes %q", cmp.Notes)
	}
	// A 2x slowdown is still caught from one run, and so is a 1.3x one
	// with a lower floor.
	c2 := fixture.Run{ID: "c2", Execs: fixture.Gen(3, 5, fixture.Scen{Name: "x", N: 2000, MedianMs: 20, Plan: "p"})}.Write(t, dir)
	if cmp, _ := Compare([]string{b}, []string{c2}, compare.Options{}); cmp.Scenarios[0].Verdict != compare.Regression {
		t.Errorf("2x from single runs: %s %+v", cmp.Scenarios[0].Verdict, cmp.Scenarios[0].Median)
	}
	if cmp, _ := Compare([]string{b}, []string{c}, compare.Options{NoiseFloor: 0.1}); cmp.Scenarios[0].Verdict != compare.Regression {
		t.Errorf("1.3x with a 10%% floor: %s", cmp.Scenarios[0].Verdict)
	}
}

// A single run's p95 moves with one burst of load: only its median counts
// against the noise floor.
func TestSingleRoundP95NotJudged(t *testing.T) {
	dir := t.TempDir()
	b := fixture.Run{ID: "b", Execs: fixture.Gen(1, 5, fixture.Scen{Name: "x", N: 2000, MedianMs: 10, Plan: "p"})}.Write(t, dir)
	c := fixture.Run{ID: "c", Execs: fixture.Gen(2, 5, fixture.Scen{Name: "x", N: 2000, MedianMs: 10, Sigma: 0.8, Plan: "p"})}.Write(t, dir)
	cmp, err := Compare([]string{b}, []string{c}, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := cmp.Scenarios[0]
	if s.Method != compare.MethodBootstrap || s.P95 == nil || s.P95.Low < 1.5 {
		t.Fatalf("fixture: want a single-round p95 interval beyond the 50%% floor, got %s %+v", s.Method, s.P95)
	}
	if s.Verdict != compare.NoChange || cmp.Failed() {
		t.Errorf("heavier tail, same median, single runs: %s (%q), want no change", s.Verdict, s.Reasons)
	}
}

func TestRoundsRegression(t *testing.T) {
	base, cand := fixture.RoundsSeries(t, t.TempDir(), "s2", 5, map[string]float64{"index_gone": 2, "bit_slower": 1.3},
		fixture.Scen{Name: "index_gone", N: 150, MedianMs: 5, Plan: "p"},
		fixture.Scen{Name: "bit_slower", N: 300, MedianMs: 5, Sigma: 0.1, Plan: "p"},
		fixture.Scen{Name: "same", N: 150, MedianMs: 5, Plan: "p"})
	c, err := Compare(base, cand, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := byName(c)
	for name, want := range map[string]string{"index_gone": compare.Regression, "bit_slower": compare.Regression, "same": compare.NoChange} {
		if got := s[name]; got.Verdict != want || got.Method != compare.MethodPaired {
			t.Errorf("%s: %s by %s (median %+v), want %s", name, got.Verdict, got.Method, got.Median, want)
		}
	}
	if r := s["index_gone"].Reasons; len(r) == 0 || !strings.Contains(r[0], "paired t") {
		t.Errorf("reasons %q do not name the method", r)
	}
	if !c.Failed() {
		t.Error("comparison with regressions did not fail")
	}
}

func TestRoundsWithoutSeriesAreWelch(t *testing.T) {
	base, cand := fixture.RoundsSeries(t, t.TempDir(), "", 4, map[string]float64{"x": 3},
		fixture.Scen{Name: "x", N: 100, MedianMs: 5, Plan: "p"})
	c, err := Compare(base, cand, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := c.Scenarios[0]; s.Method != compare.MethodWelch || s.Verdict != compare.Regression || s.BaseRounds != 4 {
		t.Errorf("runs without series: %s by %s over %d rounds", s.Verdict, s.Method, s.BaseRounds)
	}
}

func TestCalibrateAndTooNoisy(t *testing.T) {
	dir := t.TempDir()
	aaBase, aaCand := fixture.RoundsSeries(t, filepath.Join(dir, "aa"), "aa", 5, nil,
		fixture.Scen{Name: "steady", N: 400, MedianMs: 5, Sigma: 0.05, Plan: "p"},
		fixture.Scen{Name: "jumpy", N: 8, MedianMs: 5, Sigma: 1.5, Plan: "p"})
	if _, _, err := Calibrate(aaBase[:1], aaCand, compare.Options{}); !errors.Is(err, compare.ErrNoRounds) {
		t.Errorf("calibration from one base round: %v", err)
	}
	noise, aa, err := Calibrate(aaBase, aaCand, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if aa.Failed() || len(noise.Scenarios) != 2 {
		t.Fatalf("A/A %v, calibrated %v", aa.Counts, noise.Scenarios)
	}
	st, jp := noise.Scenarios["steady"], noise.Scenarios["jumpy"]
	if st.Rounds != 10 || st.Pairs != 5 || st.Median.Sigma <= 0 || st.Median.SigmaPaired <= 0 || jp.Median.Sigma <= st.Median.Sigma ||
		math.Abs(st.ExecutionsPerRound-400) > 1 || st.SingleRound <= 0 {
		t.Errorf("calibration: steady %+v, jumpy %+v", st, jp)
	}
	if o := noise.Overall; o == nil || o.Rounds != 10 || o.Pairs != 5 || o.Median.Sigma <= 0 || o.Median.SigmaPaired <= 0 {
		t.Errorf("overall calibration %+v", o)
	}
	path := filepath.Join(dir, "noise.json")
	if err := noise.Write(path); err != nil {
		t.Fatal(err)
	}
	read, err := compare.ReadNoise(path)
	if err != nil || read.Scenarios["jumpy"] != jp || read.Path != path || *read.Overall != *noise.Overall {
		t.Fatalf("read back: %v %+v", err, read)
	}
	if _, err := compare.ReadNoise(filepath.Join(dir, "aa")); err == nil {
		t.Error("ReadNoise of a folder: no error")
	}

	// A/B on the same setup with the calibration: jumpy cannot be judged
	// at 10% with 5 rounds, unless the change is far beyond its noise.
	base, cand := fixture.RoundsSeries(t, filepath.Join(dir, "ab"), "ab", 5, map[string]float64{"steady": 1.5},
		fixture.Scen{Name: "steady", N: 400, MedianMs: 5, Sigma: 0.05, Plan: "p"},
		fixture.Scen{Name: "jumpy", N: 8, MedianMs: 5, Sigma: 1.5, Plan: "p"})
	c, err := Compare(base, cand, compare.Options{Noise: read})
	if err != nil {
		t.Fatal(err)
	}
	s := byName(c)
	if s["steady"].Verdict != compare.Regression || s["steady"].NoiseSource != "calibration" {
		t.Errorf("steady: %s (%s)", s["steady"].Verdict, s["steady"].NoiseSource)
	}
	if j := s["jumpy"]; j.Verdict != compare.TooNoisy || j.Noise <= 0.1 || len(j.Reasons) == 0 {
		t.Errorf("jumpy: %s, noise %v, reasons %q", j.Verdict, j.Noise, j.Reasons)
	}
	if c.Overall == nil || c.Overall.NoiseSource != "calibration" || c.Overall.Noise <= 0 {
		t.Errorf("overall with the calibration: %+v", c.Overall)
	}
	if c.NoiseFile != path || c.Counts[compare.TooNoisy] != 1 || c.Failed() != true {
		t.Errorf("comparison: noise file %q, counts %v", c.NoiseFile, c.Counts)
	}

	// Single rounds with the calibration: the floor is the scenario's own
	// single-round noise.
	c1, err := Compare(base[:1], cand[:1], compare.Options{Noise: read})
	if err != nil {
		t.Fatal(err)
	}
	s1 := byName(c1)
	if st := s1["steady"]; st.Method != compare.MethodBootstrap || math.Abs(st.Bound-(1+math.Max(0.1, read.Scenarios["steady"].SingleRound))) > 1e-9 {
		t.Errorf("single round steady: %s bound %v", st.Method, st.Bound)
	}
}

// TestSimultaneousConfidenceOfComparison: a comparison over rounds gives
// its scenarios' and overall row's confidences (the rule's split is
// compare's TestSimultaneousConfidence).
func TestSimultaneousConfidenceOfComparison(t *testing.T) {
	base, cand := fixture.RoundsSeries(t, t.TempDir(), "s", 3, nil, fixture.Scen{Name: "x", N: 50, MedianMs: 5, Plan: "p"}, fixture.Scen{Name: "y", N: 50, MedianMs: 5, Plan: "p"})
	c, err := Compare(base, cand, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(c.RoundsConfidence-(1-0.025/4)) > 1e-12 || c.OverallConfidence != 0.9875 || !strings.Contains(c.Method, "simultaneous") {
		t.Errorf("comparison confidences %v, %v; method %q", c.RoundsConfidence, c.OverallConfidence, c.Method)
	}
	if s := c.Scenarios[0]; s.Median.High-s.Median.Low <= 0 {
		t.Errorf("interval %+v", s.Median)
	}
}

// TestRoundsHugeChangeFewRounds: with two rounds per side the interval
// over rounds is too wide to say anything, but a change far beyond the
// noise floor shows in the pooled executions, as with a single round.
func TestRoundsHugeChangeFewRounds(t *testing.T) {
	base, cand := fixture.RoundsSeries(t, t.TempDir(), "s", 2, map[string]float64{"scan": 20, "drifty": 1.3},
		fixture.Scen{Name: "scan", N: 10, MedianMs: 5, Plan: "p"},
		fixture.Scen{Name: "drifty", N: 200, MedianMs: 5, Plan: "p"},
		fixture.Scen{Name: "same", N: 200, MedianMs: 5, Plan: "p"})
	c, err := Compare(base, cand, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := byName(c)
	if sc := s["scan"]; sc.Verdict != compare.Regression || sc.Method != compare.MethodPaired || sc.Median.Low > 1.1 || sc.FloorBound != 1.5 ||
		len(sc.Reasons) == 0 || !strings.Contains(sc.Reasons[0], "beyond the 50% noise floor") {
		t.Errorf("scan: %s, rounds %+v, pooled %+v, reasons %q", sc.Verdict, sc.Median, sc.PooledMedian, sc.Reasons)
	}
	if v := s["drifty"].Verdict; v == compare.Regression {
		t.Errorf("drifty 1.3x over two rounds: %s", v)
	}
	if v := s["same"].Verdict; v != compare.NoChange {
		t.Errorf("same: %s", v)
	}
}

// TestLockstepSlicesAreRounds: a run in lockstep holds its side's rounds,
// one per time slice, paired with the other side's slices.
func TestLockstepSlicesAreRounds(t *testing.T) {
	dir := t.TempDir()
	scs := []fixture.Scen{{Name: "slower", N: 100, MedianMs: 5, Plan: "p"}, {Name: "same", N: 100, MedianMs: 5, Plan: "p"}}
	slow := map[string]float64{"slower": 1.3}
	base := fixture.LockstepSide(t, dir, results.SideBase, 6, slow, scs...)
	cand := fixture.LockstepSide(t, dir, results.SideCandidate, 6, slow, scs...)
	c, err := Compare([]string{base}, []string{cand}, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := byName(c)
	for name, want := range map[string]string{"slower": compare.Regression, "same": compare.NoChange} {
		if got := s[name]; got.Verdict != want || got.Method != compare.MethodPaired || got.BaseRounds != 6 || got.CandidateRounds != 6 {
			t.Errorf("%s: %s by %s over %d/%d rounds (median %+v), want %s by paired t over 6/6",
				name, got.Verdict, got.Method, got.BaseRounds, got.CandidateRounds, got.Median, want)
		}
	}
	if c.Base.Rounds != 6 || c.Candidate.Rounds != 6 || c.Overall == nil {
		t.Errorf("sides have %d and %d rounds, overall %+v", c.Base.Rounds, c.Candidate.Rounds, c.Overall)
	}
	// An A/A pair of runs in lockstep calibrates: its slices are rounds.
	aaDir := t.TempDir()
	aaBase := fixture.LockstepSide(t, aaDir, results.SideBase, 6, nil, scs...)
	aaCand := fixture.LockstepSide(t, aaDir, results.SideCandidate, 6, nil, scs...)
	noise, _, err := Calibrate([]string{aaBase}, []string{aaCand}, compare.Options{})
	if err != nil {
		t.Fatalf("calibration from runs in lockstep: %v", err)
	}
	if n := noise.Scenarios["same"]; n.Rounds != 12 || n.Pairs != 6 {
		t.Errorf("calibrated %+v, want 12 rounds in 6 pairs", n)
	}
}

// TestLockstepDeadCandidate: a candidate whose server died in the third
// of six slices in lockstep (its last statements failed with a lost
// connection, its later slices empty while the base ran on alone) fails
// the comparison, whatever its verdicts on the slices it completed.
func TestLockstepDeadCandidate(t *testing.T) {
	dir := t.TempDir()
	scs := []fixture.Scen{{Name: "a", N: 100, MedianMs: 5, Plan: "p"}, {Name: "b", N: 100, MedianMs: 5, Plan: "p"}}
	base := fixture.LockstepSide(t, dir, results.SideBase, 6, nil, scs...)
	cand := fixture.LockstepSide(t, dir, results.SideCandidate, 6, nil, scs...)
	var kept []results.Execution
	_, err := results.ScanExecutions(cand, nil, func(e *results.Execution) error {
		switch at := e.Start.Sub(fixture.T0); {
		case at < 25*time.Second:
			kept = append(kept, *e)
		case at < 26*time.Second:
			e.ErrorCode, e.ErrorMessage, e.LatencyNs = -1, "connection reset by peer", 1e6
			kept = append(kept, *e)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(cand, "executions-*"))
	for _, f := range files {
		os.Remove(f)
	}
	fixture.WriteParquet(t, filepath.Join(cand, "executions-client0-0.parquet"), kept)

	c, err := Compare([]string{base}, []string{cand}, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.SideFailures) != 1 || c.SideFailures[0].Side != results.SideCandidate || c.Pass ||
		!strings.Contains(c.SideFailures[0].Reason, "it completed no statement in slices 4-6 of 6 while the base did") ||
		!strings.Contains(c.SideFailures[0].Reason, "failed with a lost connection, none of the base's") {
		t.Errorf("side failures %+v, pass %v", c.SideFailures, c.Pass)
	}
}
