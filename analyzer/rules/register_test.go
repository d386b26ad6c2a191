package rules

import (
	"bytes"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/analyzer/analyzertest"
)

// TestBrokenFileGetsOnlyRulesThatRunDespiteErrors: a file that does not
// parse gets its syntax error and nothing a parse would have had to tell.
func TestBrokenFileGetsOnlyRulesThatRunDespiteErrors(t *testing.T) {
	src := "-- scenario: broken\n-- param m: table(main)\nSELECT {{m}}.id FROM {{m}}\nJION level1 ON {{m}}.l1_id = level1.id\nWHERE {{m}}.id = = 3;\n"
	diags := analyzer.AnalyzeFile("broken.sql", src, &analyzer.Options{Rules: All(), Schema: analyzertest.Schema()})
	if len(diags) == 0 {
		t.Fatal("no finding")
	}
	for _, d := range diags {
		if a := Lookup(d.Rule); a == nil || !a.RunDespiteErrors {
			t.Errorf("finding of a rule that needs a parse: %s", d)
		}
	}

	// Nor are its suppressions of rules that need a parse unused: those
	// rules did not run. A malformed suppression is still one.
	src = "-- scenario: broken\n-- param m: table(main)\n-- lint:file-ignore large-dml one big update on purpose\n" +
		"-- lint:ignore right-join measures RIGHT JOIN\n-- lint:ignore outer-join-nullified\n" +
		"UPDATE level1 RIGHT JOIN {{m}} AS m ON m.l1_id = level1.id SET level1.record_value = 1\nWEHRE m.id = 1;\n"
	var syntax, reasons int
	for _, d := range analyzer.AnalyzeFile("broken.sql", src, &analyzer.Options{Rules: All(), Schema: analyzertest.Schema()}) {
		switch {
		case d.Rule == Syntax.Name:
			syntax++
		case strings.Contains(d.Message, "needs a reason"):
			reasons++
		default:
			t.Errorf("file with a syntax error: %s", d)
		}
	}
	if syntax != 1 || reasons != 1 {
		t.Errorf("%d syntax errors and %d suppressions without a reason, want 1 and 1", syntax, reasons)
	}
}

// TestEveryRuleIsExplained: lint --explain-rule has something to say about
// every rule, with a wrong and a right example.
func TestEveryRuleIsExplained(t *testing.T) {
	for _, a := range All() {
		e := a.Explanation
		if e.Text == "" || e.Wrong == "" || e.Right == "" || e.Wrong == e.Right {
			t.Errorf("rule %s: explanation, wrong and right examples needed", a.Name)
		}
		var b bytes.Buffer
		if err := a.WriteExplanation(&b); err != nil || !strings.Contains(b.String(), "## Wrong") {
			t.Errorf("rule %s: explanation %q, %v", a.Name, b.String(), err)
		}
	}
}
