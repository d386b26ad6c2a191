package compare

import (
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analysis/metrics"
)

// Warnings are compared when both sides counted them: a candidate that
// answers every execution with a warning the base never gave is said,
// with a reason, and counted; without the count on a side, nothing is
// said. Either way the verdict is the latency's.
func TestWarningRates(t *testing.T) {
	j := &Judge{opt: Options{Confidence: 0.95}}
	side := func(n, warned int64, counted bool) *Observed {
		return &Observed{Metrics: &metrics.Metrics{Executions: n, Warned: warned}, WarningsCounted: counted}
	}
	cases := []struct {
		name       string
		b, c       *Observed
		set, moved bool
	}{
		{"new warnings", side(200, 0, true), side(200, 200, true), true, true},
		{"same warnings", side(200, 200, true), side(200, 199, true), true, false},
		{"none on either side", side(200, 0, true), side(200, 0, true), false, false},
		{"not counted on the base", side(200, 0, false), side(200, 200, true), false, false},
	}
	for _, tc := range cases {
		var sc ScenarioComparison
		j.compareWarnings(&sc, tc.b, tc.c)
		if (sc.Warnings != nil) != tc.set || sc.Warnings.Changed() != tc.moved {
			t.Errorf("%s: %+v", tc.name, sc.Warnings)
		}
		said := len(sc.Reasons) == 1 && strings.Contains(sc.Reasons[0], "0.0% of executions answered with warnings on the base, 100% on the candidate")
		if said != (tc.moved && tc.name == "new warnings") || !tc.moved && len(sc.Reasons) > 0 {
			t.Errorf("%s: reasons %q", tc.name, sc.Reasons)
		}
	}
	c := &Comparison{Scenarios: []ScenarioComparison{{Warnings: &WarningRates{More: true}}, {}, {Warnings: &WarningRates{}}}}
	if n := c.WarningsChanged(); n != 1 {
		t.Errorf("WarningsChanged %d, want 1", n)
	}
}
