package compare

import (
	"fmt"
	"math"
	"time"

	"github.com/joinbench/joinbench/analysis/stats"
)

// A candidate many times slower (a dropped index) may not complete a
// single execution of a scenario within a round: a round ends by stopping
// the statements in flight, which are recorded as cut at the end (cut.go),
// and the scenarios after the slow one in the same events are never
// reached. Such a scenario has no candidate latency to judge, yet it is
// the clearest regression there is. Two pieces of evidence make it one,
// each at the error each scenario's tests get in the simultaneous
// intervals, (1-C)/(2k) for k scenarios:
//
//   - Counting: the candidate ran the scenario (its run.json lists it, or
//     a statement of it was cut) and completed nothing in the time the base
//     completed it n times. With the same speed on both sides, each
//     completed execution is as likely to be the base's as the
//     candidate's, so all n on the base happen with chance 0.5^n: 11
//     executions for 38 scenarios at 95%.
//   - Censored ranks: m candidate statements were cut after running longer
//     than every one of the n base executions, by more than the threshold.
//     With the same speed on both sides the n+m latencies are exchangeable,
//     and the m being the m longest has chance 1/C(n+m, m): a slow
//     scenario cut in each of 6 rounds against 30 base executions, 5e-7.
//     What the cut statements had run is a lower bound of their latency,
//     so their true ranks can only be higher.

// neverCompleted returns the reason to call a scenario with successful
// base executions and no candidate executions a regression ("" when
// that is not established).
func (j *Judge) neverCompleted(in Scenario) string {
	b, cut := in.Base.Metrics, in.Candidate.Cut
	ran := cut != nil || in.Candidate.Listed
	if b == nil || !ran {
		return ""
	}
	n := b.Successes()
	if n < 1 {
		return ""
	}
	alpha := (1 - j.opt.Confidence) / float64(2*max(j.scenarios, 1))
	b.Close()
	baseMax := b.Latencies.Max
	bound := 1 + max(j.opt.Threshold, j.opt.NoiseFloor)
	var m int64 // cut statements that outran every base execution by the bound
	if cut != nil {
		for _, r := range cut.Ran {
			if float64(r) > bound*float64(baseMax) {
				m++
			}
		}
	}
	counted := math.Pow(0.5, float64(n)) <= alpha
	ranked := m > 0 && -stats.LogChoose(n+m, m) <= math.Log(alpha)
	if !counted && !ranked {
		return ""
	}
	why := fmt.Sprintf("no execution completed on the candidate, which ran the scenario, against %d on the base", n)
	switch {
	case cut != nil && ranked:
		why += fmt.Sprintf("; %d of its statements were cut at the end of a run or round after running more than %.3gx the base's longest execution (%s)",
			m, bound, baseMax.Round(time.Microsecond))
	case cut != nil:
		why += fmt.Sprintf("; %d of its statements were cut at the end of a run or round, the longest after %s (at least that slow), "+
			"where the base's longest execution took %s", cut.N, time.Duration(cut.LongestNs).Round(time.Millisecond), baseMax.Round(time.Microsecond))
	default:
		why += ": it, or a scenario ahead of it in the same events, ran longer than the run or round"
	}
	return why
}
