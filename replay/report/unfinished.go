package report

import (
	"fmt"
	"math"
	"slices"

	"github.com/joinbench/joinbench/replay/results"
)

// A candidate many times slower (a dropped index) may not complete a
// single execution of a scenario within a round: a round ends by killing
// the statements in flight, which are not recorded, and the scenarios after
// the slow one in the same events are never reached. Such a scenario has
// no candidate executions at all and no latency to judge, yet it is the
// clearest regression there is: the candidate ran it (its run.json lists
// it) and completed nothing in the time the base completed it n times.
//
// With the same speed on both sides, each completed execution is as likely
// to be the base's as the candidate's, so all n on the base happen with
// chance 0.5^n; the verdict needs that below the error each scenario's
// tests get in the simultaneous intervals, (1-C)/(2k) for k scenarios: 11
// executions for 38 scenarios at 95%.

// neverCompleted returns the reason to call a scenario with successful
// base executions and no candidate executions a regression ("" when
// that is not established). cand is the run.json of a candidate run.
func neverCompleted(name string, b *scenarioAcc, cand *results.Run, scenarios int, confidence float64) string {
	if b == nil || cand == nil || !slices.Contains(cand.Scenarios, name) {
		return ""
	}
	n := b.m.Executions - b.m.Errors
	if n < 1 || math.Pow(0.5, float64(n)) > (1-confidence)/float64(2*max(scenarios, 1)) {
		return ""
	}
	return fmt.Sprintf("no execution completed on the candidate, which ran the scenario, against %d on the base: "+
		"it, or a scenario ahead of it in the same events, ran longer than the run or round", n)
}
