package analyzer

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestRegisterRejectsDuplicateNames: two rules with one name stop the
// program at start-up.
func TestRegisterRejectsDuplicateNames(t *testing.T) {
	dup := &Analyzer{Name: Syntax.Name, Run: func(*Pass) {}}
	if err := checkRegister(registry, dup); err == nil {
		t.Fatal("a second rule named syntax was accepted")
	}
	defer func() {
		if recover() == nil {
			t.Error("register did not panic on a duplicate name")
		}
		for _, a := range registry {
			if a == dup {
				t.Error("the duplicate was registered")
			}
		}
	}()
	register(dup)
}

// TestBrokenFileGetsOnlyRulesThatRunDespiteErrors: a file that does not
// parse gets its syntax error and nothing a parse would have had to tell.
func TestBrokenFileGetsOnlyRulesThatRunDespiteErrors(t *testing.T) {
	src := "-- scenario: broken\n-- param m: table(main)\nSELECT {{m}}.id FROM {{m}}\nJION level1 ON {{m}}.l1_id = level1.id\nWHERE {{m}}.id = = 3;\n"
	diags := AnalyzeFile("broken.sql", src, &Options{Schema: testSchema()})
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
	for _, d := range AnalyzeFile("broken.sql", src, &Options{Schema: testSchema()}) {
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

// TestSARIFRegionsHaveEnds: code scanning underlines the finding's text.
func TestSARIFRegionsHaveEnds(t *testing.T) {
	src := "-- scenario: r\n-- param m: table(main)\nSELECT m.nosuch FROM {{m}} AS m;\n"
	diags := AnalyzeFile("r.sql", src, &Options{Schema: testSchema()})
	var b bytes.Buffer
	if err := WriteSARIF(&b, diags, OutputOptions{Version: "test"}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string
				Locations []struct {
					PhysicalLocation struct {
						Region struct{ StartLine, StartColumn, EndLine, EndColumn int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range log.Runs[0].Results {
		if r.RuleID != UnknownColumn.Name {
			continue
		}
		found = true
		got := r.Locations[0].PhysicalLocation.Region
		if got.StartLine != 3 || got.StartColumn != 8 || got.EndLine != 3 || got.EndColumn != 16 {
			t.Errorf("region %+v, want 3:8-3:16 (m.nosuch)", got)
		}
	}
	if !found {
		t.Fatalf("no unknown-column result in\n%s", b.String())
	}
	if !strings.Contains(b.String(), `"endColumn"`) {
		t.Error("no endColumn in the SARIF log")
	}
}

// TestEveryRuleIsExplained: lint --explain-rule has something to say about
// every rule, with a wrong and a right example.
func TestEveryRuleIsExplained(t *testing.T) {
	for _, a := range Analyzers() {
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

// TestUnsafeFixesNeedAsking: a fix that changes the results is offered
// but FixFile applies it only with UnsafeFixes.
func TestUnsafeFixesNeedAsking(t *testing.T) {
	src := "-- scenario: f\n-- param m: table(main)\nSELECT m.id FROM {{m}} AS m\nLEFT JOIN level1 ON m.l1_id = level1.id AND m.small_number > 3\nLIMIT 10;\n"
	opts := &Options{Schema: testSchema()}
	if got, n := FixFile("f.sql", src, opts); n != 0 || got != src {
		t.Errorf("applied %d unsafe edit(s) without being asked:\n%s", n, got)
	}
	opts.UnsafeFixes = true
	got, n := FixFile("f.sql", src, opts)
	if n == 0 || !strings.Contains(got, "WHERE m.small_number > 3") || strings.Contains(got, "AND m.small_number") {
		t.Errorf("with UnsafeFixes: %d edit(s)\n%s", n, got)
	}
}
