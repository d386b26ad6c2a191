package rules

import (
	"github.com/joinbench/joinbench/analyzer"
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// JoinWithoutIndex reports join predicates whose columns lead no index on
// either side: the join then reads one side in full for each row of the
// other (or builds a hash table of it), which is rarely what a join
// scenario means to measure.
var JoinWithoutIndex = &analyzer.Analyzer{
	Name: "join-without-index",
	Doc:  "An equality of an ON clause must have, on at least one side, a column that leads an index of its table.",
	Explanation: analyzer.Explanation{
		Text:  "An equality of an ON clause with no index led by either column makes the server read one side in full for each row of the other (or hash it): rarely what a join scenario means to measure.",
		Wrong: "SELECT m.id FROM {{m}} AS m JOIN level2 ON level2.record_value = m.myvalue;",
		Right: "SELECT m.id FROM {{m}} AS m JOIN level2 ON level2.id = m.l2_id;",
	},
	Severity: analyzer.Warning,
	Run: func(p *analyzer.Pass) {
		for _, jc := range p.Names.Conds {
			for _, c := range analyzer.Conjuncts(jc.Expr) {
				b, ok := analyzer.IsEq(analyzer.Unparen(c))
				if !ok {
					continue
				}
				l, ok1 := analyzer.Unparen(b.L).(*ast.ColumnNameExpr)
				r, ok2 := analyzer.Unparen(b.R).(*ast.ColumnNameExpr)
				if !ok1 || !ok2 {
					continue
				}
				lr, rr := p.Names.Cols[l], p.Names.Cols[r]
				if lr == nil || rr == nil || lr.Source == rr.Source || lr.Col == nil || rr.Col == nil {
					continue // unresolved, same table, or a computed derived column
				}
				if lr.Tab.IndexLedBy(lr.Col.Name) != nil || rr.Tab.IndexLedBy(rr.Col.Name) != nil {
					continue
				}
				p.Reportf(p.SourceOffset(l.OriginTextPosition()),
					"join predicate %s = %s: neither %s.%s nor %s.%s leads an index; add an index on one of them",
					l.Name.String(), r.Name.String(), lr.Tab.Name, lr.Col.Name, rr.Tab.Name, rr.Col.Name)
			}
		}
	},
}
