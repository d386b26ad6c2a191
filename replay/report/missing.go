package report

import (
	"fmt"
	"strings"

	"github.com/joinbench/joinbench/replay/results"
)

// A comparison is only as good as the data on both sides: a scenario the
// base measured and the candidate did not (its run died, or every
// execution of it failed) is not "no change", and a side that holds no
// execution at all compares nothing. Both fail the comparison; the first
// can be accepted (CompareOptions.AllowMissing) when the corpus changed on
// purpose between the runs.

// NoExecutionsError is a side of a comparison without a single readable
// execution: its runs recorded nothing, or none of their files can be
// read. It always fails the comparison.
type NoExecutionsError struct {
	Side string   // results.SideBase or results.SideCandidate
	Dirs []string // the side's run folders
	// Failed holds what the side's run.json files say went wrong, if
	// anything.
	Failed []string
	// Cut says what its statements cut at the end ran, if any: the side
	// ran but completed nothing (cut.go).
	Cut string
}

func (e *NoExecutionsError) Error() string {
	msg := fmt.Sprintf("%s %s holds no readable executions: nothing to compare (the run recorded nothing, or its files cannot be read)",
		e.Side, strings.Join(e.Dirs, ", "))
	if len(e.Failed) > 0 {
		msg += "; " + strings.Join(e.Failed, "; ")
	}
	if e.Cut != "" {
		msg += "; it completed nothing: " + e.Cut
	}
	return msg
}

// measured reports whether a side has a successful execution of a
// scenario: a latency to compare.
func measured(a *scenarioAcc) bool {
	return a != nil && a.m.Executions > a.m.Errors
}

// markUnmeasured sets sc.Unmeasured when the scenario was measured on one
// side only, and says why in its reasons.
func markUnmeasured(sc *ScenarioComparison, b, c *scenarioAcc) {
	var side string
	var acc *scenarioAcc
	switch {
	case measured(b) && !measured(c):
		side, acc = results.SideCandidate, c
	case measured(c) && !measured(b):
		side, acc = results.SideBase, b
	default:
		return
	}
	sc.Unmeasured = side
	if acc == nil {
		sc.Reasons = append(sc.Reasons, fmt.Sprintf("no execution in the %s", side))
		return
	}
	sc.Reasons = append(sc.Reasons, fmt.Sprintf("not measured in the %s: all %d of its executions failed", side, acc.m.Executions))
}

// unmeasured counts the scenarios measured on one side only.
func (c *Comparison) unmeasured() int {
	n := 0
	for _, s := range c.Scenarios {
		if s.Unmeasured != "" {
			n++
		}
	}
	return n
}

// failures lists what fails the comparison, one phrase each; none when it
// passes.
func (c *Comparison) failures() []string {
	var out []string
	if n := c.Counts[WrongResults]; n > 0 {
		out = append(out, fmt.Sprintf("%d scenario(s) with wrong results", n))
	}
	if n := c.Counts[Regression]; n > 0 {
		out = append(out, fmt.Sprintf("%d regression(s)", n))
	}
	if c.OverallRegressed() {
		out = append(out, "a regression over all scenarios")
	}
	if n := c.unmeasured(); n > 0 && !c.AllowMissing {
		out = append(out, fmt.Sprintf("%d scenario(s) measured on one side only (--allow-missing accepts them)", n))
	}
	return out
}
