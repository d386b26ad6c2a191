package compare

import (
	"fmt"
	"slices"
	"strings"

	"github.com/joinbench/joinbench/analysis/metrics"
	"github.com/joinbench/joinbench/analysis/stats"
	"github.com/joinbench/joinbench/results"
)

// Scenario judges one scenario. It reads only what in holds, and draws
// from a generator seeded by the scenario's name, so that scenarios can be
// judged in parallel and the output is the same.
func (j *Judge) Scenario(in Scenario) ScenarioComparison {
	sc := j.judge(in)
	if sc.Verdict == OnlyInBase && in.Candidate.NotReached != "" {
		// Not the scenario's own slowness: the one ahead of it stalled the
		// events, and is judged for it.
		sc.Reasons = append(sc.Reasons, results.SideCandidate+": "+in.Candidate.NotReached)
	} else if sc.Verdict == OnlyInBase {
		if why := j.neverCompleted(in); why != "" {
			// Judged now: a regression, no longer data missing.
			sc.Verdict, sc.Reasons, sc.Unmeasured = Regression, []string{why}, ""
		}
	}
	if in.Work != nil && j.opt.WorkBound > 1 {
		j.judgeWork(&sc, in.Work)
	}
	noteCut(&sc, in.Base.Cut, in.Candidate.Cut)
	return sc
}

// judge compares what both sides executed of the scenario: the statement,
// the results, the errors, the plans and the latency, in that order of
// precedence for the verdict.
func (j *Judge) judge(in Scenario) (sc ScenarioComparison) {
	b, c := &in.Base, &in.Candidate
	sc = ScenarioComparison{Scenario: in.Name, Base: summaryOf(b), Candidate: summaryOf(c)}
	defer markUnmeasured(&sc, b.Metrics, c.Metrics)
	switch {
	case c.Metrics == nil:
		sc.Verdict = OnlyInBase
		return sc
	case b.Metrics == nil:
		sc.Verdict = OnlyInCandidate
		return sc
	}
	if statementChanged(b, c) {
		sc.StatementChanged = true
		sc.Reasons = append(sc.Reasons, "the scenario's statement differs between the runs")
	}
	limit := max(b.Limit, c.Limit)
	if in.CheckResults {
		sc.Checksums = compareChecksums(b.Checksums, c.Checksums, limit, in.Examples)
	}
	er := j.errorRates(b.Metrics, c.Metrics)
	if b.Metrics.Errors > 0 || c.Metrics.Errors > 0 {
		sc.Errors = er
	}
	comparePlans(&sc, b, c)
	latency := j.latencyVerdict(&sc, in)
	j.verdict(&sc, er, latency, limit)
	j.compareWarnings(&sc, b, c)
	return sc
}

// summaryOf is the latency summary of a side's executions, nil when it has
// none.
func summaryOf(o *Observed) *metrics.Summary {
	if o.Metrics == nil {
		return nil
	}
	o.Metrics.Close()
	s := metrics.SummaryOf(o.Metrics)
	return &s
}

// statementChanged reports whether the candidate ran a statement text the
// base did not (when the base knows its texts).
func statementChanged(b, c *Observed) bool {
	for h := range c.Templates {
		if len(b.Templates) > 0 && !b.Templates[h] {
			return true
		}
	}
	return false
}

// compareChecksums compares the result checksums of the parameter sets
// both sides ran: correctness first, a different result for the same
// parameters. A difference where both results filled the final LIMIT is
// counted apart (limit: the statement's, 0 for none).
func compareChecksums(b, c map[uint64]ResultSum, limit int64, examples map[uint64][]string) ChecksumCheck {
	var cc ChecksumCheck
	for k, bv := range b {
		cv, ok := c[k]
		if !ok || bv.Hash == 0 || cv.Hash == 0 {
			continue
		}
		cc.Compared++
		if bv.Hash != cv.Hash && limit > 0 && bv.Rows >= limit && cv.Rows >= limit {
			cc.CutByLimit++
			continue
		}
		if bv.Hash != cv.Hash {
			cc.Mismatched++
			if ex, ok := examples[k]; ok && len(cc.Examples) < 3 {
				cc.Examples = append(cc.Examples, ex)
			}
		}
	}
	slices.SortFunc(cc.Examples, func(x, y []string) int { return strings.Compare(strings.Join(x, "\x00"), strings.Join(y, "\x00")) })
	return cc
}

// errorRates compares the failed fractions of the two sides' executions.
func (j *Judge) errorRates(b, c *metrics.Metrics) *ErrorRates {
	er := &ErrorRates{}
	er.Base, er.Candidate, er.PValue, er.Increased, er.Decreased = j.proportions(b.Errors, b.Executions, c.Errors, c.Executions)
	for code := range c.ErrorCodes {
		if b.ErrorCodes[code] == 0 {
			er.NewCodes = append(er.NewCodes, code)
		}
	}
	slices.Sort(er.NewCodes)
	return er
}

// proportions compares the fractions bk/bn and ck/cn of the two sides
// (0 for an empty side): each fraction, the two-proportion p-value, and
// whether the candidate's is significantly (at the confidence) at least
// ErrorRateStep above, or below, the base's. Error and warning rates are
// both compared so.
func (j *Judge) proportions(bk, bn, ck, cn int64) (base, cand, p float64, above, below bool) {
	if bn > 0 {
		base = float64(bk) / float64(bn)
	}
	if cn > 0 {
		cand = float64(ck) / float64(cn)
	}
	p = stats.TwoProportionP(bk, bn, ck, cn)
	sig := p < 1-j.opt.Confidence
	return base, cand, p, sig && cand-base >= ErrorRateStep, sig && base-cand >= ErrorRateStep
}

// latencyVerdict judges the latency, or says the data is insufficient:
// fewer than MinSamples successful executions on a side, unless both have
// the rounds to be judged over rounds.
func (j *Judge) latencyVerdict(sc *ScenarioComparison, in Scenario) string {
	nb, nc := in.Base.Metrics.Successes(), in.Candidate.Metrics.Successes()
	if w := stats.NeedSamples(j.opt.MinSamples, nb, nc); w != nil && !in.Rounds.enough() {
		sc.Reasons = append(sc.Reasons, fmt.Sprintf("fewer than %d successful executions on a side (%d base, %d candidate)",
			w.Need, w.Have[0], w.Have[1]))
		return InsufficientData
	}
	return j.judgeLatency(sc, in)
}

// verdict settles the scenario's verdict from its results, its error
// rates and its latency verdict, and says why.
func (j *Judge) verdict(sc *ScenarioComparison, er *ErrorRates, latency string, limit int64) {
	if n := sc.Checksums.CutByLimit; n > 0 {
		sc.Reasons = append(sc.Reasons, fmt.Sprintf("%d of %d parameter sets return different rows where LIMIT %d cut the result: "+
			"rows tying under the ORDER BY may be kept by one plan and not another (not counted as wrong results)", n, sc.Checksums.Compared, limit))
	}
	switch {
	case sc.Checksums.Mismatched > 0:
		sc.Verdict = WrongResults
		sc.Reasons = append([]string{fmt.Sprintf("%d of %d parameter sets return different results", sc.Checksums.Mismatched, sc.Checksums.Compared)}, sc.Reasons...)
	case er.Increased:
		sc.Verdict = Regression
		sc.Reasons = append(sc.Reasons, fmt.Sprintf("error rate up from %.2f%% to %.2f%%", er.Base*100, er.Candidate*100))
	default:
		sc.Verdict = latency
	}
	if er.Decreased && sc.Verdict != Regression && sc.Verdict != WrongResults {
		sc.Reasons = append(sc.Reasons, fmt.Sprintf("error rate down from %.2f%% to %.2f%%", er.Base*100, er.Candidate*100))
	}
	if len(er.NewCodes) > 0 {
		codes := make([]string, len(er.NewCodes))
		for i, c := range er.NewCodes {
			codes[i] = fmt.Sprint(c)
		}
		sc.Reasons = append(sc.Reasons, "new error codes: "+strings.Join(codes, ", "))
	}
	if sc.PlanChanged {
		sc.Reasons = append(sc.Reasons, "plan changed")
	}
}
