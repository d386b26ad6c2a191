package rules

import (
	"github.com/joinbench/joinbench/analyzer"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
)

// OuterJoinNullified reports WHERE conditions that reject NULL on the
// optional side of an outer join: rows the join added with NULLs are
// filtered out again, so the outer join is an inner join in disguise and
// the optimizer treats it as one.
var OuterJoinNullified = &analyzer.Analyzer{
	Name: "outer-join-nullified",
	Doc: "A WHERE condition that rejects NULL on the optional side of a LEFT or RIGHT JOIN turns it into an INNER JOIN; " +
		"move the condition into the ON clause, or write INNER JOIN.",
	Explanation: analyzer.Explanation{
		Text:  "A WHERE condition that rejects NULL on the optional side of an outer join removes every row the join added with NULLs: the outer join is an inner join, and the optimizer treats it as one.",
		Wrong: "SELECT m.id FROM {{m}} AS m LEFT JOIN level1 ON m.l1_id = level1.id WHERE level1.record_priority > 3;",
		Right: "SELECT m.id FROM {{m}} AS m LEFT JOIN level1 ON m.l1_id = level1.id AND level1.record_priority > 3;",
	},
	Severity: analyzer.Warning,
	Run: func(p *analyzer.Pass) {
		seen := map[*ast.ColumnNameExpr]bool{}
		for _, oj := range p.Names.Outer {
			if oj.Block == nil || oj.Block.Where == nil {
				continue
			}
			optional := map[*analyzer.Source]bool{}
			for _, s := range oj.Optional {
				optional[s] = true
			}
			kind := "LEFT JOIN"
			if oj.Join.Tp == ast.RightJoin {
				kind = "RIGHT JOIN"
			}
			for _, c := range analyzer.Conjuncts(oj.Block.Where) {
				if cn := nullRejected(c); cn != nil {
					if ref := p.Names.Cols[cn]; ref != nil && optional[ref.Source] && !seen[cn] {
						seen[cn] = true
						p.Reportf(p.SourceOffset(cn.OriginTextPosition()),
							"WHERE condition on %s rejects NULL on the optional side of the %s: the join is an INNER JOIN in effect; move the condition into the ON clause or write INNER JOIN",
							cn.Name.String(), kind)
					}
				}
			}
		}
	},
}

// nullRejected returns the column a condition rejects NULL for, if it is
// a plain comparison, IN, BETWEEN, LIKE or IS NOT NULL on a column.
func nullRejected(e ast.ExprNode) *ast.ColumnNameExpr {
	col := func(x ast.ExprNode) *ast.ColumnNameExpr {
		c, _ := analyzer.Unparen(x).(*ast.ColumnNameExpr)
		return c
	}
	switch x := analyzer.Unparen(e).(type) {
	case *ast.BinaryOperationExpr:
		switch x.Op {
		case opcode.EQ, opcode.NE, opcode.LT, opcode.LE, opcode.GT, opcode.GE:
			if c := col(x.L); c != nil {
				return c
			}
			return col(x.R)
		}
	case *ast.PatternInExpr:
		if !x.Not {
			return col(x.Expr)
		}
	case *ast.BetweenExpr:
		if !x.Not {
			return col(x.Expr)
		}
	case *ast.PatternLikeOrIlikeExpr:
		if !x.Not {
			return col(x.Expr)
		}
	case *ast.IsNullExpr:
		if x.Not {
			return col(x.Expr)
		}
	}
	return nil
}
