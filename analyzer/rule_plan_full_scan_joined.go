package analyzer

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// PlanFullScanJoined reports a table the server's plan reads in full for
// each row (or buffer of rows) of a table read before it, although the
// column it is joined on leads an index. It needs a live server: lint
// --check-plans.
var PlanFullScanJoined = register(&Analyzer{
	Name: "plan-full-scan-joined",
	Doc:  "With --check-plans: a table joined after another must not be read by a full scan when its join column leads an index.",
	Explanation: Explanation{
		Text: "When the plan reads a table after another and finds its rows by a full scan (access type ALL, usually with a join buffer " +
			"or a hash join), although the column it is joined on leads an index, the index that would serve the join is not used: " +
			"the optimizer judged the scan cheaper, or could not use the index (a type or collation mismatch, a function around the " +
			"column, an index hint that excludes it). A scenario meant to measure an indexed join then measures a scan. This rule " +
			"compares the join conditions with EXPLAIN on a live server (lint --dsn ... --check-plans) and names the index; " +
			"join-index-unusable explains the static causes. Fix the join condition, or say in the scenario that the scan is meant " +
			"(-- lint:ignore plan-full-scan-joined REASON).",
		Wrong: "-- the IGNORE INDEX leaves the join on parent_id nothing but a scan of level1 for each row of m\n" +
			"SELECT m.id FROM {{m}} AS m\nSTRAIGHT_JOIN level1 IGNORE INDEX (idx_parent_id) ON level1.parent_id = m.id\nWHERE m.continent = 'Asia';",
		Right: "SELECT m.id FROM {{m}} AS m\nSTRAIGHT_JOIN level1 ON level1.parent_id = m.id\nWHERE m.continent = 'Asia';",
	},
	Severity:  Warning,
	NeedsPlan: true,
	Run:       runPlanFullScanJoined,
})

// joinEq is an equality between columns of two tables.
type joinEq struct {
	a, b *ast.ColumnNameExpr
}

func runPlanFullScanJoined(p *Pass) {
	v := newPlanView(p)
	eqs := joinEqualities(p.Names)
	reported := map[*tableRef]bool{}
	for _, eq := range eqs {
		for _, side := range [2][2]*ast.ColumnNameExpr{{eq.a, eq.b}, {eq.b, eq.a}} {
			inner, outer := p.Names.cols[side[0]], p.Names.cols[side[1]]
			if inner == nil || outer == nil || inner.col == nil || inner.tab == nil || inner.src.ref == nil || outer.src.ref == nil {
				continue
			}
			ir, or := inner.src.ref, outer.src.ref
			if ir == or || reported[ir] {
				continue
			}
			ii, oi := v.find(ir), v.find(or)
			if ii < 0 || oi < 0 || oi > ii || v.plan.Tables[ii].Access != "ALL" {
				continue // not found, or the scanned table is read before the other: the index could not have served
			}
			ixs := inner.tab.IndexesLedBy(inner.col.Name)
			if len(ixs) == 0 {
				continue
			}
			reported[ir] = true
			name := ir.visible()
			p.ReportRangef(ir.start, ir.end, "the plan reads %s by a full table scan for each row of %s, though its join column %s.%s leads index %s (join on %s = %s)",
				name, or.visible(), name, inner.col.Name, ixs[0].Name, side[0].Name.String(), side[1].Name.String())
		}
	}
}

// joinEqualities returns the column equalities of the ON clauses and the
// WHERE clauses of the statement.
func joinEqualities(names *resolution) []joinEq {
	var out []joinEq
	add := func(e ast.ExprNode) {
		for _, c := range conjuncts(e) {
			b, ok := isEq(unparen(c))
			if !ok {
				continue
			}
			l, ok1 := unparen(b.L).(*ast.ColumnNameExpr)
			r, ok2 := unparen(b.R).(*ast.ColumnNameExpr)
			if ok1 && ok2 {
				out = append(out, joinEq{l, r})
			}
		}
	}
	for _, jc := range names.conds {
		add(jc.expr)
	}
	for _, b := range names.blocks {
		if b.stmt.Where != nil {
			add(b.stmt.Where)
		}
	}
	return out
}
