package analyzer

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/joinbench/joinbench/ddl"
)

// JoinIndexUnusable reports join equalities that keep the server from
// using the index that would have served the join: columns of different
// type families, signedness or character sets, or an expression around
// the indexed column.
var JoinIndexUnusable = register(&Analyzer{
	Name: "join-index-unusable",
	Doc: "A join equality between columns of different types (string and number, number and date), signedness or character sets, " +
		"or with a function or expression around an indexed column, cannot look rows up through that column's index.",
	Explanation: Explanation{
		Text: "An index serves a join when the joined value can be looked up as it is stored. Comparing a string column with a number converts " +
			"every string to a number (the index of the string column cannot be used); columns of different character sets are converted to one of them; " +
			"a function or arithmetic around the indexed column hides it from the optimizer. The join then scans. The message names the index that would have served.",
		Wrong: "SELECT m.id FROM {{m}} AS m JOIN level1 ON level1.id + 0 = m.l1_id;",
		Right: "SELECT m.id FROM {{m}} AS m JOIN level1 ON level1.id = m.l1_id;",
	},
	Severity: Warning,
	Run:      runJoinIndexUnusable,
})

func runJoinIndexUnusable(p *Pass) {
	u := p.u
	for _, jc := range u.res.conds {
		for _, c := range conjuncts(jc.expr) {
			b, ok := isEq(unparen(c))
			if !ok {
				continue
			}
			l, r := unparen(b.L), unparen(b.R)
			lc, lok := l.(*ast.ColumnNameExpr)
			rc, rok := r.(*ast.ColumnNameExpr)
			switch {
			case lok && rok:
				checkJoinTypes(p, lc, rc)
			case lok:
				checkWrapped(p, r, lc)
			case rok:
				checkWrapped(p, l, rc)
			}
		}
	}
}

// typeFamily groups types that compare without converting to another
// family.
func typeFamily(t ddl.Type) string {
	switch {
	case t.IsInteger() || t.Base == "decimal" || t.Base == "float" || t.Base == "double":
		return "number"
	case t.Base == "date" || t.Base == "datetime" || t.Base == "timestamp" || t.Base == "time":
		return "temporal"
	case t.Base == "binary" || t.Base == "varbinary" || strings.HasSuffix(t.Base, "blob"):
		return "binary"
	case t.IsString() || t.Base == "enum" || t.Base == "set":
		return "string"
	}
	return t.Base
}

func leadIndex(ref *colRef) *ddl.Index {
	if ref == nil || ref.col == nil || ref.tab == nil {
		return nil
	}
	if ix := ref.tab.IndexesLedBy(ref.col.Name); len(ix) > 0 {
		return ix[0]
	}
	return nil
}

func checkJoinTypes(p *Pass, l, r *ast.ColumnNameExpr) {
	u := p.u
	lr, rr := u.res.cols[l], u.res.cols[r]
	if lr == nil || rr == nil || lr.col == nil || rr.col == nil || lr.src == rr.src {
		return
	}
	li, ri := leadIndex(lr), leadIndex(rr)
	if li == nil && ri == nil {
		return // join-without-index
	}
	lt, rt := lr.col.Type, rr.col.Type
	var why string
	switch {
	case typeFamily(lt) != typeFamily(rt):
		why = fmt.Sprintf("%s is %s and %s is %s: the values are converted before they compare", l.Name, strings.ToUpper(lt.Base), r.Name, strings.ToUpper(rt.Base))
	case lt.IsInteger() && rt.IsInteger() && lt.Unsigned != rt.Unsigned:
		why = fmt.Sprintf("%s and %s differ in signedness: values outside the other's range never match and the lookup may convert", l.Name, r.Name)
	case typeFamily(lt) == "string" && lt.Charset != "" && rt.Charset != "" && !strings.EqualFold(lt.Charset, rt.Charset):
		why = fmt.Sprintf("%s is %s and %s is %s: one side is converted to the other's character set", l.Name, lt.Charset, r.Name, rt.Charset)
	default:
		return
	}
	var idx []string
	for _, x := range []struct {
		ref *colRef
		ix  *ddl.Index
	}{{lr, li}, {rr, ri}} {
		if x.ix != nil {
			idx = append(idx, x.ix.Name+" on "+x.ref.tab.Name+"("+x.ref.col.Name+")")
		}
	}
	start := u.srcOffset(l.OriginTextPosition())
	p.ReportRangef(start, u.spanEnd(u.srcOffset(r.OriginTextPosition())), "join predicate %s = %s: %s; %s cannot serve the join as it would between columns of one type; give both columns the same type",
		l.Name, r.Name, why, strings.Join(idx, " or "))
}

// checkWrapped reports an indexed column of one table inside an expression
// compared with an unindexed column of another: the expression hides the
// only index that could serve the join.
func checkWrapped(p *Pass, wrapped ast.ExprNode, other *ast.ColumnNameExpr) {
	u := p.u
	or := u.res.cols[other]
	if or == nil || leadIndex(or) != nil {
		return // the bare side's index can still serve the join
	}
	wrapped.Accept(&visitFunc{f: func(n ast.Node) {
		cn, ok := n.(*ast.ColumnNameExpr)
		if !ok {
			return
		}
		ref := u.res.cols[cn]
		ix := leadIndex(ref)
		if ix == nil || ref.src == or.src {
			return
		}
		off := u.srcOffset(cn.OriginTextPosition())
		p.Reportf(off, "join predicate on %s wraps the column in an expression: its index %s on %s(%s) cannot look the rows up; compare the bare column (move the expression to the other side)",
			cn.Name, ix.Name, ref.tab.Name, ref.col.Name)
	}})
}
