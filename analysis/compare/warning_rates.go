package compare

import (
	"fmt"
)

// Warnings are reported beside the verdicts, as pt-upgrade reports them:
// a statement the candidate answers with a warning the base did not give
// (a truncated value, a deprecated syntax, a conversion in a join) is
// worth a look whatever its time, but it is not by itself slower or
// wrong, so it is said, never a verdict. They are compared only when
// every run of both sides counted them (results.Run.WarningsCounted: the
// direct exec path reads the count from each reply; the driver path
// cannot).

// WarningRates compares the fractions of executions answered with
// warnings.
type WarningRates struct {
	Base      float64 `json:"base"`
	Candidate float64 `json:"candidate"`
	PValue    float64 `json:"p_value"`
	// More and Fewer: the candidate's fraction is at least ErrorRateStep
	// above (below) the base's, significantly (two-proportion z test at
	// the comparison's confidence).
	More  bool `json:"more"`
	Fewer bool `json:"fewer"`
}

// Changed reports whether the candidate gave warnings significantly more
// or less often.
func (w *WarningRates) Changed() bool { return w != nil && (w.More || w.Fewer) }

// compareWarnings sets sc.Warnings when both sides counted warnings and
// either gave some, with a reason when they differ.
func (j *Judge) compareWarnings(sc *ScenarioComparison, b, c *Observed) {
	if !b.WarningsCounted || !c.WarningsCounted || b.Metrics.Warned == 0 && c.Metrics.Warned == 0 {
		return
	}
	bm, cm := b.Metrics, c.Metrics
	w := &WarningRates{}
	w.Base, w.Candidate, w.PValue, w.More, w.Fewer = j.proportions(bm.Warned, bm.Executions, cm.Warned, cm.Executions)
	sc.Warnings = w
	if w.Changed() {
		sc.Reasons = append(sc.Reasons, fmt.Sprintf("warnings: %s of executions answered with warnings on the base, %s on the candidate "+
			"(SHOW WARNINGS after the statement lists them; said, not a verdict)", PercentText(w.Base), PercentText(w.Candidate)))
	}
}

// PercentText prints a fraction as a percentage, whole, with one decimal
// under 10%: "0.5%", "56%".
func PercentText(f float64) string {
	if f < 0.1 {
		return fmt.Sprintf("%.1f%%", f*100)
	}
	return fmt.Sprintf("%.0f%%", f*100)
}

// WarningsChanged counts the scenarios whose warnings differ between the
// sides.
func (c *Comparison) WarningsChanged() int {
	n := 0
	for i := range c.Scenarios {
		if c.Scenarios[i].Warnings.Changed() {
			n++
		}
	}
	return n
}
