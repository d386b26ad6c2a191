package compare

import (
	"fmt"
	"time"

	"github.com/joinbench/joinbench/analysis/metrics"
	"github.com/joinbench/joinbench/results"
)

// A statement still running when its run or round ended was stopped and
// recorded with how long it had run: a censored observation, kept out of
// the latencies and the error rates. A comparison shows them per side, and
// takes them as evidence where a scenario never completed (unfinished.go).

// noteCut puts each side's cut statements of a scenario into its
// comparison: into the sides' summaries (made for a side that has only
// cut statements) and, as a reason, what they say.
func noteCut(sc *ScenarioComparison, base, cand *Cut) {
	if sc.Base == nil && sc.Candidate == nil && (base != nil || cand != nil) {
		sc.Verdict = InsufficientData
		sc.Reasons = append(sc.Reasons, "no execution completed on either side")
	}
	for _, s := range []struct {
		name string
		sum  **metrics.Summary
		cut  *Cut
	}{{results.SideBase, &sc.Base, base}, {results.SideCandidate, &sc.Candidate, cand}} {
		if s.cut == nil {
			continue
		}
		if *s.sum == nil {
			*s.sum = &metrics.Summary{}
		}
		(*s.sum).SetCut(s.cut.N, time.Duration(s.cut.LongestNs))
		sc.Reasons = append(sc.Reasons, fmt.Sprintf("%s: %s (at least that slow; not in the latency figures)", s.name, CutText(*s.sum)))
	}
}

// CutText says how long a scenario's statements cut at the end had run.
func CutText(s *metrics.Summary) string {
	txt := fmt.Sprintf("%d cut at the end, the longest after %s", s.CutAtEnd, msDuration(s.CutRanMs))
	if s.Executions == 0 {
		txt += fmt.Sprintf(": never completed, ran at least %s", msDuration(s.CutRanMs))
	}
	return txt
}

func msDuration(v float64) string {
	return time.Duration(v * 1e6).Round(time.Millisecond).String()
}

// cutNote says how many statements each side had cut at the end, if any.
func cutNote(base, cand int64) []string {
	if base+cand == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%d statement(s) were still running when a run or round ended (base %d, candidate %d): "+
		"they are counted apart as cut at the end, at least as slow as they had run, and kept out of the latencies and error rates", base+cand, base, cand)}
}
