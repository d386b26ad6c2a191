package rules

import (
	"strings"

	"github.com/joinbench/joinbench/analyzer"
)

// PlanIgnoresIndexHint reports a FORCE or USE INDEX whose table the
// server's plan reads without any of the indexes it names. It needs a
// live server: lint --check-plans.
var PlanIgnoresIndexHint = &analyzer.Analyzer{
	Name: "plan-ignores-index-hint",
	Doc:  "With --check-plans: the plan must read a table with FORCE or USE INDEX through one of the indexes named.",
	Explanation: analyzer.Explanation{
		Text: "FORCE INDEX and USE INDEX tell the optimizer which indexes it may use for a table, and a scenario that gives one means to " +
			"measure that access. The server does not fail when it cannot use the index for the join (the column it indexes is not the " +
			"join column, or the join condition wraps it in a function): it quietly scans the table, or reads the whole index when the index holds every column " +
			"the statement needs. " +
			"This rule compares the hint with EXPLAIN on a live server (lint --dsn ... --check-plans) and reports a table the plan " +
			"reads by another index or by a full scan. Name an index led by the join column, or drop the hint.",
		Wrong: "-- level1 is joined on parent_id; idx_record_status cannot serve that join\n" +
			"SELECT m.id FROM {{m}} AS m\nJOIN level1 FORCE INDEX (idx_record_status) ON level1.parent_id = m.id;",
		Right: "SELECT m.id FROM {{m}} AS m\nJOIN level1 FORCE INDEX (idx_parent_id) ON level1.parent_id = m.id;",
	},
	Severity:  analyzer.Warning,
	NeedsPlan: true,
	Run:       runPlanIgnoresIndexHint,
}

func runPlanIgnoresIndexHint(p *analyzer.Pass) {
	v := NewPlanView(p)
	for _, r := range p.TableRefs {
		for _, ih := range r.IndexHints {
			if ih.Kind != "FORCE" && ih.Kind != "USE" || len(ih.Names) == 0 || !indexHintForJoin(p.Tokens, ih) {
				continue
			}
			i := v.Find(r)
			if i < 0 {
				continue
			}
			t := &v.Plan.Tables[i]
			if t.Access == "system" || t.Access == "" {
				continue // a table of one row, or one the plan does not read
			}
			var names []string
			used := false
			for _, n := range ih.Names {
				names = append(names, n.Name())
				used = used || t.UsesKey(n.Name())
			}
			if used {
				continue
			}
			p.ReportRangef(ih.Start, indexHintEnd(p.Tokens, ih), "%s INDEX (%s) on %s is not followed: the plan reads %s by %s",
				ih.Kind, strings.Join(names, ", "), r.Visible(), r.Visible(), t.Describe())
		}
	}
}

// indexHintForJoin reports whether an index hint governs how rows are
// found (no FOR clause, or FOR JOIN), rather than only sorting or
// grouping (FOR ORDER BY, FOR GROUP BY).
func indexHintForJoin(toks []analyzer.Token, ih analyzer.IndexHint) bool {
	for i, t := range toks {
		if t.Start != ih.Start {
			continue
		}
		if i+2 < len(toks) && toks[i+2].Is("FOR") {
			return i+3 < len(toks) && toks[i+3].Is("JOIN")
		}
		return true
	}
	return false
}

// indexHintEnd is the end of an index hint's closing parenthesis.
func indexHintEnd(toks []analyzer.Token, ih analyzer.IndexHint) int {
	from := ih.Start
	if n := len(ih.Names); n > 0 {
		from = ih.Names[n-1].End
	}
	for _, t := range toks {
		if t.Start >= from && t.Punct(")") {
			return t.End
		}
	}
	return from
}
