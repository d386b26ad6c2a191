package compare

import (
	"cmp"
	"fmt"

	"github.com/joinbench/joinbench/analysis/stats"
)

// OverallName is the scenario name of Comparison.Overall.
const OverallName = "(all scenarios)"

// The overall verdict judges the geometric mean over scenarios of each
// round's median latency, and of each round's p95: a server whose tail
// alone got slower (a throttled one) moves every scenario's p95 and no
// median. Noise of one scenario's executions averages out
// over the scenarios, so a slowdown of the whole server shows there
// before it shows in any one scenario; what the scenarios share (the
// machine busier during one round) does not average out, and the spread
// between rounds holds it. Only scenarios with an execution in every
// round of both sides take part, so that every round averages the same
// ones.

// overallSeries keeps the candidates with an execution in every round of
// both sides and returns them with the per-round mean log quantile q over
// them (paired by round number when the rounds form one series).
func overallSeries(rs *Rounds, candidates []string, q float64) ([]string, roundSeries) {
	inAll := func(name string, side []Round) bool {
		for _, r := range side {
			if s := r.Samples[name]; s == nil || s.Len() < MinRoundSamples {
				return false
			}
		}
		return true
	}
	var names []string
	for _, n := range candidates {
		if inAll(n, rs.Base) && inAll(n, rs.Candidate) {
			names = append(names, n)
		}
	}
	meanLog := func(r Round) float64 {
		sum := 0.0
		for _, n := range names {
			sum += stats.LogQuantile(r.Samples[n].Sorted(), q)
		}
		return sum / float64(len(names))
	}
	var s roundSeries
	byRound := map[int]float64{}
	for _, r := range rs.Base {
		y := meanLog(r)
		s.base = append(s.base, y)
		byRound[r.Number] = y
	}
	for _, r := range rs.Candidate {
		y := meanLog(r)
		s.cand = append(s.cand, y)
		if !rs.Paired {
			continue
		}
		if b, ok := byRound[r.Number]; ok {
			s.diffs = append(s.diffs, y-b)
		}
	}
	return names, s
}

// overall is the overall verdict; nil when the sides were not read as
// rounds, or fewer than two scenarios judged over rounds have an
// execution in every round.
func (j *Judge) overall(rs *Rounds, scs []ScenarioComparison) *ScenarioComparison {
	if rs == nil || len(rs.Base) < 2 || len(rs.Candidate) < 2 {
		return nil
	}
	var candidates []string
	for _, s := range scs {
		if s.Method == MethodPaired || s.Method == MethodWelch {
			candidates = append(candidates, s.Scenario)
		}
	}
	names, series := overallSeries(rs, candidates, 0.5)
	if len(names) < 2 {
		return nil
	}
	_, tail := overallSeries(rs, candidates, 0.95)
	oc := &ScenarioComparison{Scenario: OverallName}
	var sigma, sigma95 *NoiseSigma
	if n := j.opt.Noise; n != nil && n.Overall != nil {
		sigma = &n.Overall.Median
		if n.Overall.P95.Sigma > 0 {
			sigma95 = &n.Overall.P95
		}
		oc.NoiseSource = "calibration"
	}
	conf := cmp.Or(j.overallConfidence, j.opt.Confidence)
	iv, method, noise := j.roundsInterval(series, sigma, conf)
	iv95, _, _ := j.roundsInterval(tail, sigma95, conf)
	oc.Median, oc.P95, oc.Method = &iv, &iv95, method
	oc.BaseRounds, oc.CandidateRounds = len(series.base), len(series.cand)
	if method == MethodPaired {
		oc.BaseRounds, oc.CandidateRounds = len(series.diffs), len(series.diffs)
	}
	oc.BaseExecutions, oc.CandidateExecutions = seenIn(rs.Base, names), seenIn(rs.Candidate, names)
	oc.Verdict = j.decide(oc, 1+j.opt.Threshold, noise)
	oc.Reasons = append(oc.Reasons, fmt.Sprintf("geometric mean of the per-round median (and p95) over the %d scenarios with an execution in every round", len(names)))
	return oc
}

// seenIn is the successful executions of the scenarios names over rounds.
func seenIn(rounds []Round, names []string) int64 {
	n := int64(0)
	for _, r := range rounds {
		for _, name := range names {
			n += r.Samples[name].Seen()
		}
	}
	return n
}
