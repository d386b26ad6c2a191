package rules

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/internal/flavor"
)

// LargeDML reports UPDATE and DELETE statements that change an unbounded
// set of rows in one transaction.
var LargeDML = &analyzer.Analyzer{
	Name: "large-dml",
	Doc: "UPDATE and DELETE must touch a bounded set of rows (LIMIT, or equality on a unique key); a multi-table UPDATE ... JOIN takes a LIMIT only on MariaDB. " +
		"One big transaction holds locks for its whole length and, on Galera/PXC, replicates as one writeset that triggers flow control and stalls every node: chunk it.",
	Explanation: analyzer.Explanation{
		Text:  "An UPDATE or DELETE without LIMIT or a unique-key equality, or a multi-table UPDATE (bounded only by MariaDB's ORDER BY ... LIMIT, which MySQL refuses), changes an unbounded number of rows in one transaction: on Galera/PXC the writeset stalls the cluster.",
		Wrong: "UPDATE {{m}} SET myvalue = 1 WHERE color = 'red';",
		Right: "UPDATE {{m}} SET myvalue = 1 WHERE color = 'red' LIMIT 100;",
	},
	Severity: analyzer.Warning,
	Run: func(p *analyzer.Pass) {
		offs := p.StmtOffsets()
		for i, st := range p.Stmts {
			switch s := st.(type) {
			case *ast.UpdateStmt:
				multi := s.MultipleTable || isJoin(s.TableRefs)
				mariadb := p.Flavor.Name == flavor.MariaDB
				switch {
				case multi && s.Limit != nil && mariadb:
					// bounded: MariaDB takes ORDER BY and LIMIT in a
					// multi-table UPDATE
				case multi && s.Limit != nil:
					p.Reportf(offs[i], "multi-table UPDATE ... JOIN cannot take a LIMIT on %s (error 1221; MariaDB takes one): update in primary-key chunks instead, each a transaction of its own", p.Flavor.Name.Title())
				case multi && mariadb:
					p.Reportf(offs[i], "multi-table UPDATE ... JOIN without LIMIT changes every matching row in one transaction: on Galera/PXC the writeset stalls the cluster (flow control); add ORDER BY and LIMIT and loop, or update in primary-key chunks")
				case multi:
					p.Reportf(offs[i], "multi-table UPDATE ... JOIN changes every matching row in one transaction and cannot take a LIMIT: on Galera/PXC the writeset stalls the cluster (flow control); update in primary-key chunks instead")
				case s.Limit == nil && !boundedByKey(p, s.TableRefs, s.Where):
					p.Reportf(offs[i], "UPDATE without LIMIT or a unique-key equality may change any number of rows in one transaction (on Galera/PXC: one large writeset, flow control); add LIMIT and loop, or chunk by primary key")
				}
			case *ast.DeleteStmt:
				if s.IsMultiTable && isJoin(s.TableRefs) {
					p.Reportf(offs[i], "multi-table DELETE ... JOIN deletes every matching row in one transaction: on Galera/PXC the writeset stalls the cluster (flow control); delete in primary-key chunks instead")
				} else if s.Limit == nil && !boundedByKey(p, s.TableRefs, s.Where) {
					p.Reportf(offs[i], "DELETE without LIMIT or a unique-key equality may remove any number of rows in one transaction (on Galera/PXC: one large writeset, flow control); add LIMIT and loop, or chunk by primary key")
				}
			}
		}
	},
}

func isJoin(refs *ast.TableRefsClause) bool {
	if refs == nil || refs.TableRefs == nil {
		return false
	}
	return refs.TableRefs.Right != nil
}

// boundedByKey reports whether WHERE holds `col = value` for every column
// of a unique index of the (single) target table.
func boundedByKey(p *analyzer.Pass, refs *ast.TableRefsClause, where ast.ExprNode) bool {
	if refs == nil || refs.TableRefs == nil {
		return false
	}
	eq := map[string]bool{}
	var table string
	for _, c := range analyzer.Conjuncts(where) {
		b, ok := analyzer.IsEq(analyzer.Unparen(c))
		if !ok {
			continue
		}
		for _, side := range []ast.ExprNode{b.L, b.R} {
			if cn, ok := analyzer.Unparen(side).(*ast.ColumnNameExpr); ok {
				if ref := p.Names.Cols[cn]; ref != nil && ref.Col != nil {
					eq[ref.Col.Name] = true
					table = ref.Tab.Name
				}
			}
		}
	}
	t := p.Schema.Table(table)
	if t == nil {
		return false
	}
	for _, ix := range t.Indexes {
		if !ix.Unique && !ix.Primary {
			continue
		}
		all := len(ix.Columns) > 0
		for _, c := range ix.Columns {
			if col := t.Column(c); col == nil || !eq[col.Name] {
				all = false
			}
		}
		if all {
			return true
		}
	}
	return false
}
