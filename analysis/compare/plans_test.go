package compare

import (
	"slices"
	"strings"
	"testing"
)

func TestLineDiff(t *testing.T) {
	got := LineDiff("a\nb\nc", "a\nx\nc")
	if got != "  a\n- b\n+ x\n  c\n" {
		t.Errorf("diff:\n%s", got)
	}
}

// A plan change is said, with each side's most used plan, and does not by
// itself change the verdict; a side without plans says nothing.
func TestComparePlans(t *testing.T) {
	texts := map[string]string{"p": "index lookup", "q": "table scan"}
	text := func(h string) string { return texts[h] }
	for _, tc := range []struct {
		name        string
		base, cand  map[string]int64
		planText    func(string) string
		changed     bool
		diffHas     string
		wantVerdict string
	}{
		{"the same plan", map[string]int64{"p": 400}, map[string]int64{"p": 400}, text, false, "", NoChange},
		{"another plan", map[string]int64{"p": 400}, map[string]int64{"q": 400}, text, true, "- index lookup\n+ table scan", NoChange},
		{"a second plan on the candidate", map[string]int64{"p": 400}, map[string]int64{"p": 300, "q": 100}, text, true,
			"+++ candidate plan p (300 of 400)", NoChange},
		{"a plan missing from plans.parquet", map[string]int64{"p": 400}, map[string]int64{"r": 400}, text, true,
			"(plan r not in plans.parquet)", NoChange},
		{"no plans on the base", nil, map[string]int64{"q": 400}, text, false, "", NoChange},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := NewJudge(Options{}.WithDefaults(), 1, nil)
			sc := j.Scenario(Scenario{Name: "x",
				Base:      Observed{Metrics: executions(400, 2), Plans: tc.base, PlanText: tc.planText},
				Candidate: Observed{Metrics: executions(400, 2), Plans: tc.cand, PlanText: tc.planText}})
			if sc.PlanChanged != tc.changed || !strings.Contains(sc.PlanDiff, tc.diffHas) || sc.Verdict != tc.wantVerdict {
				t.Errorf("changed %v, verdict %s, diff:\n%s", sc.PlanChanged, sc.Verdict, sc.PlanDiff)
			}
			if said := slices.Contains(sc.Reasons, "plan changed"); said != tc.changed {
				t.Errorf("reasons %q", sc.Reasons)
			}
		})
	}
}
