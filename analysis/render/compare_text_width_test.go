package render

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/joinbench/joinbench/analysis/compare"
)

// TestSummaryLinesFitATerminal: with the longest built-in scenario names,
// the summary lines leave out the method and rounds rather than pass a
// terminal's width; with short names every column stays.
func TestSummaryLinesFitATerminal(t *testing.T) {
	row := func(name string) compare.ScenarioComparison {
		return compare.ScenarioComparison{Scenario: name, Verdict: compare.Regression, Method: compare.MethodBootstrap,
			BaseRounds: 1, CandidateRounds: 1, BaseExecutions: 200, CandidateExecutions: 200,
			Work: &compare.WorkComparison{Change: compare.WorkMore, Figures: []compare.WorkFigure{
				{Name: "lookups", Base: 2873, Candidate: 6652, Ratio: 2.32, Change: compare.WorkMore}}}}
	}
	for _, c := range []struct {
		name   string
		method bool
	}{{"simple_inner_index", true}, {"multilevel_inner_forcing_order_index", false}} {
		var b bytes.Buffer
		writeSummaryLines(&b, []compare.ScenarioComparison{row(c.name)})
		for _, l := range strings.Split(b.String(), "\n") {
			if n := utf8.RuneCountInString(l); n > textWidth {
				t.Errorf("%s: line of %d characters: %s", c.name, n, l)
			}
		}
		if got := strings.Contains(b.String(), "bootstrap"); got != c.method {
			t.Errorf("%s: method shown %v, want %v:\n%s", c.name, got, c.method, b.String())
		}
	}
}
