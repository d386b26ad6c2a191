package rules

import (
	"github.com/joinbench/joinbench/analyzer"
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// PlanFullScanJoined reports a table the server's plan reads in full for
// each row (or buffer of rows) of a table read before it, although the
// column it is joined on leads an index. It needs a live server: lint
// --check-plans.
var PlanFullScanJoined = &analyzer.Analyzer{
	Name: "plan-full-scan-joined",
	Doc:  "With --check-plans: a table joined after another must not be read by a full scan when its join column leads an index.",
	Explanation: analyzer.Explanation{
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
	Severity:  analyzer.Warning,
	NeedsPlan: true,
	Run:       runPlanFullScanJoined,
}

// joinEq is an equality between columns of two tables.
type joinEq struct {
	a, b *ast.ColumnNameExpr
}

func runPlanFullScanJoined(p *analyzer.Pass) {
	v := NewPlanView(p)
	eqs := joinEqualities(p.Names)
	reported := map[*analyzer.TableRef]bool{}
	for _, eq := range eqs {
		for _, side := range [2][2]*ast.ColumnNameExpr{{eq.a, eq.b}, {eq.b, eq.a}} {
			inner, outer := p.Names.Cols[side[0]], p.Names.Cols[side[1]]
			if inner == nil || outer == nil || inner.Col == nil || inner.Tab == nil || inner.Source.Ref == nil || outer.Source.Ref == nil {
				continue
			}
			ir, or := inner.Source.Ref, outer.Source.Ref
			if ir == or || reported[ir] {
				continue
			}
			ii, oi := v.Find(ir), v.Find(or)
			if ii < 0 || oi < 0 || oi > ii || v.Plan.Tables[ii].Access != "ALL" {
				continue // not found, or the scanned table is read before the other: the index could not have served
			}
			ixs := inner.Tab.IndexesLedBy(inner.Col.Name)
			if len(ixs) == 0 {
				continue
			}
			reported[ir] = true
			name := ir.Visible()
			p.ReportRangef(ir.Start, ir.End, "the plan reads %s by a full table scan for each row of %s, though its join column %s.%s leads index %s (join on %s = %s)",
				name, or.Visible(), name, inner.Col.Name, ixs[0].Name, side[0].Name.String(), side[1].Name.String())
		}
	}
}

// joinEqualities returns the column equalities of the ON clauses and the
// WHERE clauses of the statement.
func joinEqualities(names *analyzer.Resolution) []joinEq {
	var out []joinEq
	add := func(e ast.ExprNode) {
		for _, c := range analyzer.Conjuncts(e) {
			b, ok := analyzer.IsEq(analyzer.Unparen(c))
			if !ok {
				continue
			}
			l, ok1 := analyzer.Unparen(b.L).(*ast.ColumnNameExpr)
			r, ok2 := analyzer.Unparen(b.R).(*ast.ColumnNameExpr)
			if ok1 && ok2 {
				out = append(out, joinEq{l, r})
			}
		}
	}
	for _, jc := range names.Conds {
		add(jc.Expr)
	}
	for _, b := range names.Blocks {
		if b.Stmt.Where != nil {
			add(b.Stmt.Where)
		}
	}
	return out
}
