package compare

import (
	"fmt"

	"github.com/joinbench/joinbench/analysis/metrics"
	"github.com/joinbench/joinbench/results"
)

// A comparison is only as good as the data on both sides: a scenario the
// base measured and the candidate did not (its run died, or every
// execution of it failed) is not "no change". It fails the comparison,
// unless accepted (Options.AllowMissing) when the corpus changed on
// purpose between the runs.

// measured reports whether a side has a successful execution of a
// scenario: a latency to compare.
func measured(m *metrics.Metrics) bool {
	return m != nil && m.Executions > m.Errors
}

// markUnmeasured sets sc.Unmeasured when the scenario was measured on one
// side only (b and c are each side's executions, nil when none), and says
// why in its reasons.
func markUnmeasured(sc *ScenarioComparison, b, c *metrics.Metrics) {
	var side string
	var m *metrics.Metrics
	switch {
	case measured(b) && !measured(c):
		side, m = results.SideCandidate, c
	case measured(c) && !measured(b):
		side, m = results.SideBase, b
	default:
		return
	}
	sc.Unmeasured = side
	if m == nil {
		sc.Reasons = append(sc.Reasons, fmt.Sprintf("no execution in the %s", side))
		return
	}
	sc.Reasons = append(sc.Reasons, fmt.Sprintf("not measured in the %s: all %d of its executions failed", side, m.Executions))
}
