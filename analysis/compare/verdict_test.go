package compare

import (
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/analysis/metrics"
	"github.com/joinbench/joinbench/analysis/stats"
	"github.com/joinbench/joinbench/results"
)

// drift is how much each round's latencies are off the scenario's, so that
// rounds vary as real ones do (an interval over identical rounds would be
// a point).
var drift = []float64{1, 1.03, 0.97, 1.01, 0.99, 1.02}

// roundSamples are n rounds of 50 successful executions around ms milliseconds
// each, the latencies of round i scaled by drift[i].
func roundSamples(n int, ms float64) []*stats.Reservoir {
	out := make([]*stats.Reservoir, n)
	for i := range out {
		r := stats.NewReservoir(1000, uint64(i+1))
		for k := range 50 {
			r.Add(int64(ms * drift[i%len(drift)] * 1e6 * (0.8 + 0.4*float64(k)/50)))
		}
		out[i] = r
	}
	return out
}

// pairs are the rounds of both sides paired by number, as an ab series
// gives them.
func pairs(base, cand []*stats.Reservoir) [][2]*stats.Reservoir {
	out := make([][2]*stats.Reservoir, len(base))
	for i := range base {
		out[i] = [2]*stats.Reservoir{base[i], cand[i]}
	}
	return out
}

// failing adds n failed executions (error code 1146) to m.
func failing(m *metrics.Metrics, n int) *metrics.Metrics {
	start := time.Date(2025, 3, 1, 13, 0, 0, 0, time.UTC)
	for i := range n {
		m.Add(&metrics.Execution{Start: start.Add(time.Duration(i) * time.Millisecond), LatencyNs: 1e6, ErrorCode: 1146})
	}
	return m
}

// workOf are n paired work samples that each examined rows rows.
func workOf(n int, rows int64) []*results.Work {
	out := make([]*results.Work, n)
	for i := range out {
		r := rows
		out[i] = &results.Work{Source: results.SourceSessionStatus, Event: int64(i), RowsExamined: &r}
	}
	return out
}

// A verdictCase is one branch of the rule, on typed inputs: the step of
// Steps it exercises (by verdict and code), the options, the scenario,
// and what the verdict must be and say.
type verdictCase struct {
	name         string
	verdict      string // Step.Verdict
	code         string // Step.Code
	opt          Options
	in           Scenario
	want         string // the scenario's verdict
	method       string // the method, when it matters
	reason       string // a part of one of its reasons, when it matters
	wantNoReason string // a part no reason may have
}

// calibrated is a calibration whose scenario "x" varies by 30% from one
// single round to another.
var calibrated = &Noise{Path: "noise.json", Scenarios: map[string]ScenarioNoise{"x": {SingleRound: 0.3}}}

var verdictCases = []verdictCase{
	// Missing data.
	{name: "no execution on the candidate", verdict: OnlyInBase + ", " + OnlyInCandidate, code: "scenario.go: judge",
		in: Scenario{Base: Observed{Metrics: executions(40, 2)}}, want: OnlyInBase},
	{name: "no execution on the base", verdict: OnlyInBase + ", " + OnlyInCandidate, code: "scenario.go: judge",
		in: Scenario{Candidate: Observed{Metrics: executions(40, 2)}}, want: OnlyInCandidate},
	{name: "not reached: another scenario stalled the events", verdict: OnlyInBase + ", " + OnlyInCandidate, code: "scenario.go: judge",
		in:   Scenario{Base: Observed{Metrics: executions(40, 2)}, Candidate: Observed{NotReached: "every event stalled on y"}},
		want: OnlyInBase, reason: "candidate: every event stalled on y"},

	// Results.
	{name: "a parameter set returns another result", verdict: WrongResults, code: "scenario.go: verdict",
		in: Scenario{CheckResults: true,
			Base:      Observed{Metrics: executions(400, 2), Checksums: map[uint64]ResultSum{1: {Hash: 10, Rows: 3}, 2: {Hash: 20, Rows: 3}}},
			Candidate: Observed{Metrics: executions(400, 2), Checksums: map[uint64]ResultSum{1: {Hash: 11, Rows: 3}, 2: {Hash: 20, Rows: 3}}}},
		want: WrongResults, reason: "1 of 2 parameter sets return different results"},
	{name: "another result where LIMIT cut ties is not wrong", verdict: WrongResults, code: "scenario.go: verdict",
		in: Scenario{CheckResults: true,
			Base:      Observed{Metrics: executions(400, 2), Limit: 3, Checksums: map[uint64]ResultSum{1: {Hash: 10, Rows: 3}}},
			Candidate: Observed{Metrics: executions(400, 2), Limit: 3, Checksums: map[uint64]ResultSum{1: {Hash: 11, Rows: 3}}}},
		want: NoChange, reason: "LIMIT 3 cut the result"},
	{name: "a checksum that varied within a run is not compared", verdict: WrongResults, code: "scenario.go: verdict",
		in: Scenario{CheckResults: true,
			Base:      Observed{Metrics: executions(400, 2), Checksums: map[uint64]ResultSum{1: {Hash: 0, Rows: 3}}},
			Candidate: Observed{Metrics: executions(400, 2), Checksums: map[uint64]ResultSum{1: {Hash: 11, Rows: 3}}}},
		want: NoChange},

	// Errors.
	{name: "error rate up by 10 points", verdict: Regression, code: "scenario.go: errorRates",
		in:   Scenario{Base: Observed{Metrics: executions(400, 2)}, Candidate: Observed{Metrics: failing(executions(400, 2), 45)}},
		want: Regression, reason: "error rate up from 0.00% to"},
	{name: "a few errors more, not significant", verdict: Regression, code: "scenario.go: errorRates",
		in:   Scenario{Base: Observed{Metrics: executions(400, 2)}, Candidate: Observed{Metrics: failing(executions(400, 2), 1)}},
		want: NoChange, reason: "new error codes: 1146", wantNoReason: "error rate up"},

	// Too little data.
	{name: "a single round of 10 executions", verdict: InsufficientData, code: "scenario.go: latencyVerdict",
		in:   Scenario{Base: Observed{Metrics: executions(10, 2)}, Candidate: Observed{Metrics: executions(400, 2)}},
		want: InsufficientData, reason: "fewer than 30 successful executions on a side (10 base, 400 candidate)"},
	{name: "10 executions, but rounds enough", verdict: InsufficientData, code: "scenario.go: latencyVerdict",
		in: Scenario{Base: Observed{Metrics: executions(10, 2)}, Candidate: Observed{Metrics: executions(400, 2)},
			Rounds: &ScenarioRounds{Base: roundSamples(4, 2), Candidate: roundSamples(4, 2)}},
		want: NoChange, method: MethodWelch},

	// Latency, over rounds and with a single round.
	{name: "3x slower with a single round: beyond the noise floor", verdict: Regression, code: "decide.go",
		in:   Scenario{Base: Observed{Metrics: executions(400, 2)}, Candidate: Observed{Metrics: executions(400, 6)}},
		want: Regression, method: MethodBootstrap, reason: "median 3.00x slower"},
	{name: "1.3x slower with a single round: within the noise floor", verdict: Regression, code: "decide.go",
		in:   Scenario{Base: Observed{Metrics: executions(400, 2)}, Candidate: Observed{Metrics: executions(400, 2.6)}},
		want: NoChange, method: MethodBootstrap},
	{name: "1.3x slower with a single round and a 25% floor", verdict: Regression, code: "decide.go", opt: Options{NoiseFloor: 0.25},
		in:   Scenario{Base: Observed{Metrics: executions(400, 2)}, Candidate: Observed{Metrics: executions(400, 2.6)}},
		want: Regression, method: MethodBootstrap},
	{name: "1.3x slower in every one of 4 rounds (Welch)", verdict: Regression, code: "decide.go",
		in: Scenario{Base: Observed{Metrics: executions(200, 2)}, Candidate: Observed{Metrics: executions(200, 2.6)},
			Rounds: &ScenarioRounds{Base: roundSamples(4, 2), Candidate: roundSamples(4, 2.6)}},
		want: Regression, method: MethodWelch, reason: "1.30x slower (95% CI"},
	{name: "1.3x slower in every one of 4 paired rounds", verdict: Regression, code: "decide.go",
		in: Scenario{Base: Observed{Metrics: executions(200, 2)}, Candidate: Observed{Metrics: executions(200, 2.6)},
			Rounds: func() *ScenarioRounds {
				b, c := roundSamples(4, 2), roundSamples(4, 2.6)
				return &ScenarioRounds{Base: b, Candidate: c, Pairs: pairs(b, c)}
			}()},
		want: Regression, method: MethodPaired},
	{name: "1.05x slower over rounds: within the threshold", verdict: Regression, code: "decide.go",
		in: Scenario{Base: Observed{Metrics: executions(200, 2)}, Candidate: Observed{Metrics: executions(200, 2.1)},
			Rounds: &ScenarioRounds{Base: roundSamples(4, 2), Candidate: roundSamples(4, 2.1)}},
		want: NoChange, method: MethodWelch},
	{name: "rounds alike, pooled executions 3x slower: beyond the floor", verdict: Regression, code: "decide.go",
		in: Scenario{Base: Observed{Metrics: executions(200, 2)}, Candidate: Observed{Metrics: executions(200, 6)},
			Rounds: &ScenarioRounds{Base: roundSamples(2, 2), Candidate: roundSamples(2, 2)}},
		want: Regression, method: MethodWelch, reason: "beyond the 50% noise floor: pooled executions"},
	{name: "3x faster with a single round", verdict: Improvement, code: "decide.go",
		in:   Scenario{Base: Observed{Metrics: executions(400, 6)}, Candidate: Observed{Metrics: executions(400, 2)}},
		want: Improvement, method: MethodBootstrap, reason: "median 3.00x faster"},
	{name: "1.3x faster over rounds", verdict: Improvement, code: "decide.go",
		in: Scenario{Base: Observed{Metrics: executions(200, 2.6)}, Candidate: Observed{Metrics: executions(200, 2)},
			Rounds: &ScenarioRounds{Base: roundSamples(4, 2.6), Candidate: roundSamples(4, 2)}},
		want: Improvement, method: MethodWelch},
	{name: "rounds alike, pooled executions 3x faster", verdict: Improvement, code: "decide.go",
		in: Scenario{Base: Observed{Metrics: executions(200, 6)}, Candidate: Observed{Metrics: executions(200, 2)},
			Rounds: &ScenarioRounds{Base: roundSamples(2, 2), Candidate: roundSamples(2, 2)}},
		want: Improvement, reason: "faster, beyond the 50% noise floor"},
	{name: "calibrated noise of 30% above a 10% threshold", verdict: TooNoisy, code: "decide.go", opt: Options{Noise: calibrated},
		in:   Scenario{Base: Observed{Metrics: executions(400, 2)}, Candidate: Observed{Metrics: executions(400, 2.3)}},
		want: TooNoisy, reason: "±30% (calibration), more than the 10% threshold"},
	{name: "calibrated noise of 30%, 2x slower: beyond it", verdict: TooNoisy, code: "decide.go", opt: Options{Noise: calibrated},
		in:   Scenario{Base: Observed{Metrics: executions(400, 2)}, Candidate: Observed{Metrics: executions(400, 4)}},
		want: Regression},
	{name: "the same latencies", verdict: NoChange, code: "decide.go",
		in:   Scenario{Base: Observed{Metrics: executions(400, 2)}, Candidate: Observed{Metrics: executions(400, 2)}},
		want: NoChange, method: MethodBootstrap},

	// Never completed on the candidate.
	{name: "listed, never completed, cut far beyond the base", verdict: Regression, code: "unfinished.go",
		in: Scenario{Base: Observed{Metrics: executions(40, 2)},
			Candidate: Observed{Listed: true, Cut: &Cut{N: 2, LongestNs: int64(time.Second), Ran: []int64{int64(time.Second), int64(time.Second)}}}},
		want: Regression, reason: "never completed"},
	{name: "listed, never completed, the base completed it twice", verdict: Regression, code: "unfinished.go",
		in:   Scenario{Base: Observed{Metrics: executions(2, 2)}, Candidate: Observed{Listed: true}},
		want: OnlyInBase},

	// Work.
	{name: "twice the rows examined, the same time", verdict: Regression, code: "work.go",
		in: Scenario{Base: Observed{Metrics: executions(400, 2)}, Candidate: Observed{Metrics: executions(400, 2)},
			Work: &WorkPairs{Base: workOf(5, 1000), Candidate: workOf(5, 2000)}},
		want: Regression, reason: "work "},
	{name: "twice the rows, but fewer than 100 more", verdict: Regression, code: "work.go",
		in: Scenario{Base: Observed{Metrics: executions(400, 2)}, Candidate: Observed{Metrics: executions(400, 2)},
			Work: &WorkPairs{Base: workOf(5, 50), Candidate: workOf(5, 100)}},
		want: NoChange},
	{name: "twice the rows, work not judged", verdict: Regression, code: "work.go", opt: Options{WorkBound: NoWork},
		in: Scenario{Base: Observed{Metrics: executions(400, 2)}, Candidate: Observed{Metrics: executions(400, 2)},
			Work: &WorkPairs{Base: workOf(5, 1000), Candidate: workOf(5, 2000)}},
		want: NoChange},
	{name: "half the rows examined, the same time", verdict: Improvement, code: "work.go",
		in: Scenario{Base: Observed{Metrics: executions(400, 2)}, Candidate: Observed{Metrics: executions(400, 2)},
			Work: &WorkPairs{Base: workOf(5, 2000), Candidate: workOf(5, 1000)}},
		want: Improvement, reason: "work "},
	{name: "half the rows, but wrong results", verdict: Improvement, code: "work.go",
		in: Scenario{CheckResults: true,
			Base:      Observed{Metrics: executions(400, 2), Checksums: map[uint64]ResultSum{1: {Hash: 10, Rows: 3}}},
			Candidate: Observed{Metrics: executions(400, 2), Checksums: map[uint64]ResultSum{1: {Hash: 11, Rows: 3}}},
			Work:      &WorkPairs{Base: workOf(5, 2000), Candidate: workOf(5, 1000)}},
		want: WrongResults},
}

// Every branch of the rule, on typed inputs: no run folder, no file.
func TestVerdicts(t *testing.T) {
	for _, tc := range verdictCases {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in
			in.Name = "x"
			j := NewJudge(tc.opt.WithDefaults(), 1, nil)
			sc := j.Scenario(in)
			reasons := strings.Join(sc.Reasons, " | ")
			if sc.Verdict != tc.want {
				t.Errorf("verdict %s, want %s (reasons %q)", sc.Verdict, tc.want, reasons)
			}
			if tc.method != "" && sc.Method != tc.method {
				t.Errorf("method %s, want %s", sc.Method, tc.method)
			}
			if tc.reason != "" && !strings.Contains(reasons, tc.reason) {
				t.Errorf("reasons %q, want one with %q", reasons, tc.reason)
			}
			if tc.wantNoReason != "" && strings.Contains(reasons, tc.wantNoReason) {
				t.Errorf("reasons %q say %q", reasons, tc.wantNoReason)
			}
		})
	}
}

// Every step of the rule (rule.go) has a case above, but the overall
// row's, which TestOverallVerdict judges: a new step comes with its test.
func TestEveryStepHasACase(t *testing.T) {
	for _, s := range Steps {
		if s.Code == "overall.go" {
			continue
		}
		n := 0
		for _, c := range verdictCases {
			if c.verdict == s.Verdict && c.code == s.Code {
				n++
			}
		}
		if n == 0 {
			t.Errorf("no case of the step %q (%s)", s.Verdict, s.Code)
		}
	}
	for _, c := range verdictCases {
		found := false
		for _, s := range Steps {
			found = found || (c.verdict == s.Verdict && c.code == s.Code)
		}
		if !found {
			t.Errorf("case %q names no step: %q (%s)", c.name, c.verdict, c.code)
		}
	}
}

// The overall row: the same rule over the per-round geometric means of the
// scenarios judged over rounds.
func TestOverallVerdict(t *testing.T) {
	for _, tc := range []struct {
		name     string
		slowdown float64
		want     string
	}{
		{"every scenario 1.3x slower in every round", 1.3, Regression},
		{"the same", 1, NoChange},
		{"every scenario 1.3x faster", 1 / 1.3, Improvement},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := &Rounds{Scenarios: map[string]*ScenarioRounds{}}
			for i := range 4 {
				rs.Base = append(rs.Base, Round{Number: i + 1, Samples: map[string]*stats.Reservoir{}})
				rs.Candidate = append(rs.Candidate, Round{Number: i + 1, Samples: map[string]*stats.Reservoir{}})
			}
			var scs []ScenarioComparison
			names := []string{"a", "b", "c"}
			j := NewJudge(Options{}.WithDefaults(), len(names), nil)
			for k, name := range names {
				ms := float64(k + 1)
				b, c := roundSamples(4, ms), roundSamples(4, ms*tc.slowdown)
				for i := range 4 {
					rs.Base[i].Samples[name], rs.Candidate[i].Samples[name] = b[i], c[i]
				}
				rs.Scenarios[name] = &ScenarioRounds{Base: b, Candidate: c}
				scs = append(scs, j.Scenario(Scenario{Name: name, Base: Observed{Metrics: executions(200, ms)},
					Candidate: Observed{Metrics: executions(200, ms*tc.slowdown)}, Rounds: rs.Scenarios[name]}))
			}
			j = NewJudge(Options{}.WithDefaults(), len(names), rs)
			oc := j.overall(rs, scs)
			if oc == nil {
				t.Fatal("no overall row over 3 scenarios of 4 rounds")
			}
			if oc.Verdict != tc.want {
				t.Errorf("overall %s, want %s (%q)", oc.Verdict, tc.want, oc.Reasons)
			}
			if j.overall(rs, scs[:1]) != nil {
				t.Error("an overall row over a single scenario")
			}
		})
	}
}
