package report

import (
	"cmp"
	"fmt"

	"github.com/joinbench/joinbench/replay/stats"
)

// OverallName is the scenario name of Comparison.Overall.
const OverallName = "(all scenarios)"

// The overall verdict judges the geometric mean over scenarios of each
// round's median latency. Noise of one scenario's executions averages out
// over the scenarios, so a slowdown of the whole server shows there
// before it shows in any one scenario; what the scenarios share (the
// machine busier during one round) does not average out, and the spread
// between rounds holds it. Only scenarios with an execution in every
// round of both sides take part, so that every round averages the same
// ones.

// overallSeries keeps the candidates with an execution in every round of
// both sides and returns them with the per-round mean log median over
// them (paired by round number when the rounds form one series).
func overallSeries(rs *sideRounds, candidates []string) ([]string, roundSeries) {
	inAll := func(name string, side []*round) bool {
		for _, r := range side {
			if s := r.scen[name]; s == nil || s.Len() < minRoundSamples {
				return false
			}
		}
		return true
	}
	var names []string
	for _, n := range candidates {
		if inAll(n, rs.base) && inAll(n, rs.cand) {
			names = append(names, n)
		}
	}
	meanLog := func(r *round) float64 {
		sum := 0.0
		for _, n := range names {
			sum += stats.LogQuantile(r.scen[n].Sorted(), 0.5)
		}
		return sum / float64(len(names))
	}
	var s roundSeries
	byRound := map[int]float64{}
	for _, r := range rs.base {
		y := meanLog(r)
		s.base = append(s.base, y)
		if r.rep != nil {
			byRound[r.rep.Round] = y
		}
	}
	paired := commonSeries(rs.base, rs.cand) != ""
	for _, r := range rs.cand {
		y := meanLog(r)
		s.cand = append(s.cand, y)
		if !paired {
			continue
		}
		if b, ok := byRound[r.rep.Round]; ok {
			s.diffs = append(s.diffs, y-b)
		}
	}
	return names, s
}

// overallComparison is the overall verdict; nil when the sides were not
// read as rounds, or fewer than two scenarios judged over rounds have an
// execution in every round.
func overallComparison(rs *sideRounds, scs []ScenarioComparison, opt CompareOptions) *ScenarioComparison {
	if rs == nil || len(rs.base) < 2 || len(rs.cand) < 2 {
		return nil
	}
	var candidates []string
	for _, s := range scs {
		if s.Method == MethodPaired || s.Method == MethodWelch {
			candidates = append(candidates, s.Scenario)
		}
	}
	names, series := overallSeries(rs, candidates)
	if len(names) < 2 {
		return nil
	}
	oc := &ScenarioComparison{Scenario: OverallName}
	var sigma *NoiseSigma
	if opt.Noise != nil && opt.Noise.Overall != nil {
		sigma = &opt.Noise.Overall.Median
		oc.NoiseSource = "calibration"
	}
	iv, method, noise := roundsInterval(series, sigma, cmp.Or(opt.overallConfidence, opt.Confidence), opt)
	oc.Median, oc.Method = &iv, method
	oc.BaseRounds, oc.CandidateRounds = len(series.base), len(series.cand)
	if method == MethodPaired {
		oc.BaseRounds, oc.CandidateRounds = len(series.diffs), len(series.diffs)
	}
	for _, r := range rs.base {
		for _, n := range names {
			oc.BaseExecutions += r.scen[n].Seen()
		}
	}
	for _, r := range rs.cand {
		for _, n := range names {
			oc.CandidateExecutions += r.scen[n].Seen()
		}
	}
	oc.Verdict = decide(oc, 1+opt.Threshold, noise, opt)
	oc.Reasons = append(oc.Reasons, fmt.Sprintf("geometric mean of the per-round median over the %d scenarios with an execution in every round", len(names)))
	return oc
}
