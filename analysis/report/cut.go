package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/joinbench/joinbench/analysis/metrics"
	"github.com/joinbench/joinbench/results"
)

// Statements cut at the end of a run or round.
//
// A statement still running when its run or round ended was stopped and
// recorded with how long it had run (results.Execution.CutAtEnd). That is a
// censored observation: its latency is at least that, and nothing more is
// known. It would bias every figure it entered (a latency too low, an error
// that is not the server's), so the reader hands such statements over apart
// (results.ExecutionColumns.Cut) and they are kept out of the latencies,
// the error rates and the executions. They are counted and shown instead
// ("N cut at the end, the longest after X s"), and a comparison takes them
// as evidence where a scenario never completed (analysis/compare).

// cutAcc is one scenario's statements cut at the end, on one side or in
// one run.
type cutAcc struct {
	n     int64 // statements cut
	ranNs int64 // the longest time one had run
	// ran holds how long each had run, for the never-completed rule; at
	// most maxCutKept.
	ran []int64
}

// maxCutKept bounds the times kept per scenario: a run cuts at most one
// statement per thread.
const maxCutKept = 4096

// cutTallies are the statements cut at the end, by scenario.
type cutTallies map[string]*cutAcc

// add counts a row group's statements cut at the end.
func (t *cutTallies) add(cut []results.CutExecution) {
	if len(cut) == 0 {
		return
	}
	if *t == nil {
		*t = cutTallies{}
	}
	for _, c := range cut {
		a := (*t)[c.Scenario]
		if a == nil {
			a = &cutAcc{}
			(*t)[c.Scenario] = a
		}
		a.n++
		a.ranNs = max(a.ranNs, c.RanNs)
		if len(a.ran) < maxCutKept {
			a.ran = append(a.ran, c.RanNs)
		}
	}
}

// merge adds the statements of o, a worker's share of the same run
// (collect_parallel.go), into t.
func (t *cutTallies) merge(o cutTallies) {
	for name, oa := range o {
		if *t == nil {
			*t = cutTallies{}
		}
		a := (*t)[name]
		if a == nil {
			(*t)[name] = oa
			continue
		}
		a.n += oa.n
		a.ranNs = max(a.ranNs, oa.ranNs)
		a.ran = append(a.ran, oa.ran[:min(len(oa.ran), maxCutKept-len(a.ran))]...)
	}
}

// total is the number of statements cut, over all scenarios.
func (t cutTallies) total() (n, ranNs int64) {
	for _, a := range t {
		n += a.n
		ranNs = max(ranNs, a.ranNs)
	}
	return n, ranNs
}

// setCut puts a scenario's cut statements into its summary.
func setCut(s *metrics.Summary, a *cutAcc) {
	if a != nil {
		s.SetCut(a.n, time.Duration(a.ranNs))
	}
}

// addCut puts the run's cut statements into its report: into the summary
// of their scenarios, and as scenarios of their own (no execution, only
// statements cut) for those that never completed one.
func (rr *RunReport) addCut(t cutTallies) {
	for name, a := range t {
		i := slices.IndexFunc(rr.Scenarios, func(s ScenarioReport) bool { return s.Scenario == name })
		if i < 0 {
			rr.Scenarios = append(rr.Scenarios, ScenarioReport{Scenario: name})
			i = len(rr.Scenarios) - 1
		}
		setCut(&rr.Scenarios[i].Summary, a)
	}
	slices.SortFunc(rr.Scenarios, func(a, b ScenarioReport) int { return strings.Compare(a.Scenario, b.Scenario) })
	n, longest := t.total()
	rr.Total.CutAtEnd, rr.Total.CutRanMs = n, ms(longest)
}

// stalledAhead names, for each scenario of a run that has neither an
// execution nor a statement cut at the end, the scenarios ahead of it in
// the run's events (listed: run.json's scenarios, in the order an event
// runs them) that had statements cut at the end: its events stalled on
// them and never reached it. A scenario not reached is otherwise only
// absent, and a comparison cannot tell it from one that never ran.
func stalledAhead(listed []string, ran func(string) bool, t cutTallies) map[string][]string {
	var out map[string][]string
	var ahead []string
	for _, name := range listed {
		if t[name] != nil {
			ahead = append(ahead, name)
			continue
		}
		if len(ahead) == 0 || ran(name) {
			continue
		}
		if out == nil {
			out = map[string][]string{}
		}
		out[name] = slices.Clone(ahead)
	}
	return out
}

// notReachedText says which scenarios ahead of one stalled its events.
func notReachedText(ahead []string, t cutTallies) string {
	parts := make([]string, len(ahead))
	for i, name := range ahead {
		a := t[name]
		parts[i] = fmt.Sprintf("%s (%d cut at the end, the longest after %s)", name, a.n, time.Duration(a.ranNs).Round(time.Millisecond))
	}
	return "not reached: every event stalled on " + strings.Join(parts, ", ") + " ahead of it"
}

// addNotReached lists the scenarios of the run that its events never
// reached, each with the scenarios that stalled them.
func (rr *RunReport) addNotReached(t cutTallies, has map[string]*scenarioAcc) {
	if rr.Info == nil {
		return
	}
	hidden := stalledAhead(rr.Info.Scenarios, func(name string) bool { return has[name] != nil }, t)
	for name, ahead := range hidden {
		rr.Scenarios = append(rr.Scenarios, ScenarioReport{Scenario: name, NotReached: notReachedText(ahead, t)})
	}
	slices.SortFunc(rr.Scenarios, func(a, b ScenarioReport) int { return strings.Compare(a.Scenario, b.Scenario) })
}

// describe says what the statements cut at the end ran ("" when none).
func (t cutTallies) describe() string {
	n, longest := t.total()
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d statement(s) were cut at the end of its runs, the longest after %s (%s)",
		n, time.Duration(longest).Round(time.Millisecond), strings.Join(slices.Sorted(maps.Keys(t)), ", "))
}
