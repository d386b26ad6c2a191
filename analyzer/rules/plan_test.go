package rules

import (
	"os"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/analyzer/analyzertest"
	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/explain"
)

// planDiagnostics runs the plan rules on a testdata file against the plan
// captured for it (<name>.plan.json, EXPLAIN FORMAT=JSON from a sandbox).
func planDiagnostics(t *testing.T, path, src string, opts *analyzer.Options) []analyzer.Diagnostic {
	t.Helper()
	b, err := os.ReadFile(strings.TrimSuffix(path, ".sql") + ".plan.json")
	if err != nil {
		t.Fatalf("a plan rule's testdata needs the plan: %v", err)
	}
	return analyzer.CheckPlan(path, src, opts, testPlan(t, string(b)))
}

func testPlan(t *testing.T, jsonPlan string) *analyzer.Plan {
	t.Helper()
	acc, err := explain.Accesses(jsonPlan)
	if err != nil {
		t.Fatal(err)
	}
	p := &analyzer.Plan{}
	for _, a := range acc {
		p.Tables = append(p.Tables, analyzer.PlanTable{SelectID: a.SelectID, Name: a.Table, Access: a.Type, Keys: a.Keys})
	}
	return p
}

// The plan rules never run in a static analysis, and a static analysis
// does not call a suppression of one unused: only the plan check can
// tell.
func TestPlanRulesAreNotStatic(t *testing.T) {
	src, err := os.ReadFile("testdata/plan-ignores-index-hint/suppressed.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range analyzer.AnalyzeFile("suppressed.sql", string(src), &analyzer.Options{Rules: All(), Schema: analyzertest.Schema()}) {
		if strings.HasPrefix(d.Rule, "plan-") || d.Rule == analyzer.LintIgnore.Name {
			t.Errorf("static analysis: %s", d)
		}
	}
}

// A plan check reports only the findings of the plan rules, nothing the
// static rules say of the same file.
func TestCheckPlanReportsPlanRulesOnly(t *testing.T) {
	src := "-- scenario: s\n-- param m: table(main)\nSELECT m.id FROM {{m}} AS m RIGHT JOIN level1 FORCE INDEX (idx_record_status) ON level1.parent_id = m.id;\n"
	plan := &analyzer.Plan{Tables: []analyzer.PlanTable{{SelectID: 1, Name: "level1", Access: "ALL"}, {SelectID: 1, Name: "m", Access: "eq_ref", Keys: []string{"PRIMARY"}}}}
	diags := analyzer.CheckPlan("s.sql", src, &analyzer.Options{Rules: All(), Schema: analyzertest.Schema()}, plan)
	if len(diags) != 1 || diags[0].Rule != PlanIgnoresIndexHint.Name {
		t.Fatalf("got %v, want one plan-ignores-index-hint", diags)
	}
	if d := diags[0]; d.Line != 3 || d.Col != 47 {
		t.Errorf("finding at %d:%d, want 3:47 (the FORCE INDEX)", d.Line, d.Col)
	}
	off := &analyzer.Options{Rules: All(), Schema: analyzertest.Schema(), Severity: map[string]analyzer.Severity{PlanIgnoresIndexHint.Name: analyzer.Off}}
	if diags := analyzer.CheckPlan("s.sql", src, off, plan); len(diags) != 0 {
		t.Errorf("rule turned off: %v", diags)
	}
}

// A table the plan cannot be matched with (a self-join under one name, a
// name the plan does not hold) draws no finding: the rules say nothing
// they cannot tell.
func TestPlanUnmatchedTablesAreLeftAlone(t *testing.T) {
	src := "-- scenario: s\nSELECT a.id FROM level1 AS a FORCE INDEX (idx_parent_id) JOIN level2 ON level2.parent_id = a.id;\n"
	plan := &analyzer.Plan{Tables: []analyzer.PlanTable{{SelectID: 1, Name: "level2", Access: "ALL"}, {SelectID: 1, Name: "x", Access: "ALL"}}}
	if diags := analyzer.CheckPlan("s.sql", src, &analyzer.Options{Rules: All(), Schema: analyzertest.Schema()}, plan); len(diags) != 0 {
		t.Errorf("got %v", diags)
	}
}

// The plan check silences its findings with the file's suppressions and
// reports a suppression of a plan rule that silences nothing.
func TestCheckPlanSuppressions(t *testing.T) {
	path := "testdata/plan-ignores-index-hint/suppressed.sql"
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	diags := planDiagnostics(t, path, string(src), &analyzer.Options{Rules: All(), Schema: analyzertest.Schema()})
	if len(diags) != 1 || diags[0].Rule != analyzer.LintIgnore.Name || diags[0].Line != 9 || !strings.Contains(diags[0].Message, "unused lint:ignore plan-ignores-index-hint") {
		t.Fatalf("got %v, want the unused suppression of line 9 only", diags)
	}
}

// SELECT STRAIGHT_JOIN fixes the FROM order, with a RIGHT JOIN's
// preserved side first (servers read it as the LEFT JOIN it is): the
// built-in scenarios' orders are checked, not skipped.
func TestStraightJoinOrderOfBuiltins(t *testing.T) {
	c, err := corpus.LoadBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	tab := func(name, access string) analyzer.PlanTable {
		return analyzer.PlanTable{SelectID: 1, Name: name, Access: access}
	}
	for _, tc := range []struct {
		scenario string
		plan     []analyzer.PlanTable
		want     bool
	}{
		{"simple_inner_straight", []analyzer.PlanTable{tab("level1", "range"), tab("m", "eq_ref")}, false},
		{"simple_inner_straight", []analyzer.PlanTable{tab("m", "ref"), tab("level1", "ref")}, true},
		// a table read as a constant says nothing of the order
		{"simple_inner_straight", []analyzer.PlanTable{tab("m", "const"), tab("level1", "ref")}, false},
		{"simple_right_straight", []analyzer.PlanTable{tab("m", "ref"), tab("level1", "ref")}, false},
		{"simple_right_straight", []analyzer.PlanTable{tab("level1", "ALL"), tab("m", "ref")}, true},
	} {
		s := c.Get(tc.scenario)
		diags := analyzer.CheckPlan(s.Path, s.Source, &analyzer.Options{Rules: All(), Schema: analyzertest.Schema()}, &analyzer.Plan{Tables: tc.plan})
		got := false
		for _, d := range diags {
			got = got || d.Rule == PlanIgnoresJoinOrder.Name
		}
		if got != tc.want {
			t.Errorf("%s with plan %v: %v, want a plan-ignores-join-order finding: %v", tc.scenario, tc.plan, diags, tc.want)
		}
	}
}
