package report

import (
	"fmt"
	"math"
)

// OverallName is the scenario name of Comparison.Overall.
const OverallName = "(all scenarios)"

// overallComparison judges the geometric mean over scenarios of each
// round's median latency. Noise of one scenario's executions averages out
// over the scenarios, so a slowdown of the whole server shows there
// before it shows in any one scenario; what the scenarios share (the
// machine busier during one round) does not average out, and the spread
// between rounds holds it. Only scenarios judged over rounds that have an
// execution in every round of both sides take part, so that every round
// averages the same ones. Nil when the sides were not read as rounds or
// fewer than two scenarios qualify.
func overallComparison(rs *sideRounds, scs []ScenarioComparison, opt CompareOptions) *ScenarioComparison {
	if rs == nil {
		return nil
	}
	inAll := func(name string, side []*round) bool {
		for _, r := range side {
			if s := r.scen[name]; s == nil || len(s.vals) < minRoundSamples {
				return false
			}
		}
		return true
	}
	var names []string
	for _, s := range scs {
		if (s.Method == MethodPaired || s.Method == MethodWelch) && inAll(s.Scenario, rs.base) && inAll(s.Scenario, rs.cand) {
			names = append(names, s.Scenario)
		}
	}
	if len(names) < 2 {
		return nil
	}
	meanLog := func(r *round) float64 {
		sum := 0.0
		for _, n := range names {
			sum += math.Log(float64(max(sampleQuantile(r.scen[n].vals, 0.5), 1)))
		}
		return sum / float64(len(names))
	}
	execs := func(side []*round) int64 {
		n := int64(0)
		for _, r := range side {
			for _, name := range names {
				n += r.scen[name].seen
			}
		}
		return n
	}
	oc := &ScenarioComparison{Scenario: OverallName, BaseRounds: len(rs.base), CandidateRounds: len(rs.cand),
		BaseExecutions: execs(rs.base), CandidateExecutions: execs(rs.cand), Bound: 1 + opt.Threshold}
	var iv Interval
	if commonSeries(rs.base, rs.cand) != "" && !opt.Unpaired {
		byRound := map[int]float64{}
		for _, r := range rs.base {
			byRound[r.rep.Round] = meanLog(r)
		}
		var d []float64
		for _, r := range rs.cand {
			if b, ok := byRound[r.rep.Round]; ok {
				d = append(d, meanLog(r)-b)
			}
		}
		if len(d) >= 2 {
			oc.Method = MethodPaired
			oc.BaseRounds, oc.CandidateRounds = len(d), len(d)
			iv = pairedInterval(d, 0, opt.Confidence)
		}
	}
	if oc.Method == "" {
		if len(rs.base) < 2 || len(rs.cand) < 2 {
			return nil
		}
		var yb, yc []float64
		for _, r := range rs.base {
			yb = append(yb, meanLog(r))
		}
		for _, r := range rs.cand {
			yc = append(yc, meanLog(r))
		}
		oc.Method = MethodWelch
		iv = welchInterval(yb, yc, 0, opt.Confidence)
	}
	oc.Median = &iv
	how := fmt.Sprintf("%.0f%% CI %.2f-%.2f, %s", opt.Confidence*100, iv.Low, iv.High, methodLabel(oc))
	over := fmt.Sprintf("geometric mean of the per-round median over the %d scenarios with an execution in every round", len(names))
	switch up := oc.Bound; {
	case iv.Low > up:
		oc.Verdict = Regression
		oc.Reasons = []string{fmt.Sprintf("%.2fx slower (%s)", iv.Ratio, how), over}
	case iv.High < 1/up:
		oc.Verdict = Improvement
		oc.Reasons = []string{fmt.Sprintf("%.2fx faster (%s)", 1/iv.Ratio, how), over}
	default:
		oc.Verdict = NoChange
		oc.Reasons = []string{over}
	}
	return oc
}
