package analyzer

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// JoinWithoutIndex reports join predicates whose columns lead no index on
// either side: the join then reads one side in full for each row of the
// other (or builds a hash table of it), which is rarely what a join
// scenario means to measure.
var JoinWithoutIndex = register(&Analyzer{
	Name: "join-without-index",
	Doc:  "An equality of an ON clause must have, on at least one side, a column that leads an index of its table.",
	Explanation: Explanation{
		Text:  "An equality of an ON clause with no index led by either column makes the server read one side in full for each row of the other (or hash it): rarely what a join scenario means to measure.",
		Wrong: "SELECT m.id FROM {{m}} AS m JOIN level2 ON level2.record_value = m.myvalue;",
		Right: "SELECT m.id FROM {{m}} AS m JOIN level2 ON level2.id = m.l2_id;",
	},
	Severity: Warning,
	Run: func(p *Pass) {
		for _, jc := range p.Names.conds {
			for _, c := range conjuncts(jc.expr) {
				b, ok := isEq(unparen(c))
				if !ok {
					continue
				}
				l, ok1 := unparen(b.L).(*ast.ColumnNameExpr)
				r, ok2 := unparen(b.R).(*ast.ColumnNameExpr)
				if !ok1 || !ok2 {
					continue
				}
				lr, rr := p.Names.cols[l], p.Names.cols[r]
				if lr == nil || rr == nil || lr.src == rr.src || lr.col == nil || rr.col == nil {
					continue // unresolved, same table, or a computed derived column
				}
				if len(lr.tab.IndexesLedBy(lr.col.Name)) > 0 || len(rr.tab.IndexesLedBy(rr.col.Name)) > 0 {
					continue
				}
				p.Reportf(p.SourceOffset(l.OriginTextPosition()),
					"join predicate %s = %s: neither %s.%s nor %s.%s leads an index; add an index on one of them",
					l.Name.String(), r.Name.String(), lr.tab.Name, lr.col.Name, rr.tab.Name, rr.col.Name)
			}
		}
	},
})
