package rules

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/flavor"
)

// JoinIndexUnusable reports join equalities that keep the server from
// using the index that would have served the join: columns of different
// type families, signedness, character sets or collations, or an
// expression around the indexed column.
var JoinIndexUnusable = &analyzer.Analyzer{
	Name: "join-index-unusable",
	Doc: "A join equality between columns of different types (string and number, number and date), signedness, character sets or collations, " +
		"or with a function or expression around an indexed column, cannot look rows up through that column's index.",
	Explanation: analyzer.Explanation{
		Text: "An index serves a join when the joined value can be looked up as it is stored. Comparing a string column with a number converts " +
			"every string to a number (the index of the string column cannot be used); a function or arithmetic around the indexed column hides it from the optimizer. " +
			"The join then scans. The message names the index that would have served.\n\n" +
			"Strings compare by collation. A column's collation is its COLLATE, else the default of its CHARACTER SET, else the table's COLLATE, else the default " +
			"of the table's charset on the targeted flavour (utf8mb4: utf8mb4_0900_ai_ci on MySQL 8, utf8mb4_general_ci on MariaDB), else, for a table that names " +
			"no character set, the server's default (utf8mb4's default collation on the flavour, as servers run with character_set_server=utf8mb4). Columns of different " +
			"character sets: the side whose charset does not hold the other's characters (latin1 against utf8mb4) is converted, and its index cannot serve " +
			"(MariaDB 10.11 scans the latin1 index whole when it is the inner table). Two case-insensitive collations of one charset (utf8mb4_general_ci and " +
			"utf8mb4_unicode_ci): the server refuses the statement, error 1267 Illegal mix of collations. A _bin collation against a case-insensitive one: " +
			"the comparison uses _bin; MySQL cannot look up through the case-insensitive index, while MariaDB still does and re-checks each row " +
			"(not reported for --flavor mariadb).",
		Wrong: "SELECT m.id FROM {{m}} AS m JOIN level1 ON level1.id + 0 = m.l1_id;\n-- latin_codes.code is latin1, level2.country utf8mb4\nSELECT l.id FROM level2 JOIN latin_codes AS l ON l.code = level2.country;",
		Right: "SELECT m.id FROM {{m}} AS m JOIN level1 ON level1.id = m.l1_id;\n-- ALTER TABLE latin_codes MODIFY code VARCHAR(3) CHARACTER SET utf8mb4\nSELECT l.id FROM level2 JOIN latin_codes AS l ON l.code = level2.country;",
	},
	Severity: analyzer.Warning,
	Run:      runJoinIndexUnusable,
}

func runJoinIndexUnusable(p *analyzer.Pass) {
	for _, jc := range p.Names.Conds {
		for _, c := range analyzer.Conjuncts(jc.Expr) {
			b, ok := analyzer.IsEq(analyzer.Unparen(c))
			if !ok {
				continue
			}
			l, r := analyzer.Unparen(b.L), analyzer.Unparen(b.R)
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

func leadIndex(ref *analyzer.ColRef) *ddl.Index {
	if ref == nil || ref.Col == nil || ref.Tab == nil {
		return nil
	}
	return ref.Tab.IndexLedBy(ref.Col.Name)
}

func checkJoinTypes(p *analyzer.Pass, l, r *ast.ColumnNameExpr) {
	lr, rr := p.Names.Cols[l], p.Names.Cols[r]
	if lr == nil || rr == nil || lr.Col == nil || rr.Col == nil || lr.Source == rr.Source {
		return
	}
	li, ri := leadIndex(lr), leadIndex(rr)
	if li == nil && ri == nil {
		return // join-without-index
	}
	lt, rt := lr.Col.Type, rr.Col.Type
	// lost says which side's index the comparison cannot use: both
	// unless a rule of the server tells which side is converted.
	lost := [2]bool{true, true}
	what := "type"
	var why string
	switch {
	case typeFamily(lt) != typeFamily(rt):
		why = fmt.Sprintf("%s is %s and %s is %s: the values are converted before they compare", l.Name, strings.ToUpper(lt.Base), r.Name, strings.ToUpper(rt.Base))
	case lt.IsInteger() && rt.IsInteger() && lt.Unsigned != rt.Unsigned:
		why = fmt.Sprintf("%s and %s differ in signedness: values outside the other's range never match and the lookup may convert", l.Name, r.Name)
	case typeFamily(lt) == "string":
		fl := p.Flavor.Name
		lc, lsrv := ColumnCollation(lr.Tab, lr.Col, p.Flavor)
		rc, rsrv := ColumnCollation(rr.Tab, rr.Col, p.Flavor)
		if lc == "" || rc == "" || lc == rc {
			return
		}
		ld, rd := collationOf(l.Name, lc, lsrv), collationOf(r.Name, rc, rsrv)
		if reportCollations(p, l, r, ld, rd, lc, rc) {
			return
		}
		lcs, rcs := CollationCharset(lc), CollationCharset(rc)
		what = "character set and collation"
		switch {
		case lcs != rcs:
			// The server converts the side whose charset does not hold
			// every character of the other's.
			switch {
			case lcs == "utf8mb4" || UnicodeCharset(lcs) && !UnicodeCharset(rcs):
				lost = [2]bool{false, true}
			case rcs == "utf8mb4" || UnicodeCharset(rcs) && !UnicodeCharset(lcs):
				lost = [2]bool{true, false}
			}
			why = fmt.Sprintf("%s and %s: one side is converted to the other's character set", ld, rd)
		default: // a _bin collation and a case-insensitive one: _bin wins
			if fl == flavor.MariaDB {
				return // MariaDB looks up through the other index and re-checks each row
			}
			lost = [2]bool{!BinaryCollation(lc), !BinaryCollation(rc)}
			bin := lc
			if !BinaryCollation(lc) {
				bin = rc
			}
			why = fmt.Sprintf("%s and %s: they compare with %s", ld, rd, bin)
		}
	default:
		return
	}
	var idx []string
	for i, x := range []struct {
		ref *analyzer.ColRef
		ix  *ddl.Index
	}{{lr, li}, {rr, ri}} {
		if x.ix != nil && lost[i] {
			idx = append(idx, x.ix.Name+" on "+x.ref.Tab.Name+"("+x.ref.Col.Name+")")
		}
	}
	if len(idx) == 0 {
		return // the index that could serve still does
	}
	start := p.SourceOffset(l.OriginTextPosition())
	p.ReportRangef(start, p.TokenEnd(p.SourceOffset(r.OriginTextPosition())), "join predicate %s = %s: %s; %s cannot serve the join as it would between columns of one %s; give both columns the same %s",
		l.Name, r.Name, why, strings.Join(idx, " or "), what, what)
}

// collationOf says which collation a column compares with, and where it
// comes from when the schema does not say.
func collationOf(col fmt.Stringer, coll string, serverDefault bool) string {
	if serverDefault {
		return fmt.Sprintf("%s is %s (the server's default: its table names no character set)", col, coll)
	}
	return fmt.Sprintf("%s is %s", col, coll)
}

// reportCollations reports two case-insensitive collations of one
// character set (ld and rd say which): neither wins, and the server
// refuses the comparison (error 1267, Illegal mix of collations), so the
// statement fails. It says whether it reported.
func reportCollations(p *analyzer.Pass, l, r *ast.ColumnNameExpr, ld, rd, lc, rc string) bool {
	if CollationCharset(lc) != CollationCharset(rc) || BinaryCollation(lc) || BinaryCollation(rc) {
		return false
	}
	start := p.SourceOffset(l.OriginTextPosition())
	p.ReportRangef(start, p.TokenEnd(p.SourceOffset(r.OriginTextPosition())), "join predicate %s = %s: %s and %s, and the server refuses to compare two collations of one character set "+
		"(error 1267, Illegal mix of collations): the statement fails; give both columns the same collation, or COLLATE one side",
		l.Name, r.Name, ld, rd)
	return true
}

// checkWrapped reports an indexed column of one table inside an expression
// compared with an unindexed column of another: the expression hides the
// only index that could serve the join.
func checkWrapped(p *analyzer.Pass, wrapped ast.ExprNode, other *ast.ColumnNameExpr) {
	or := p.Names.Cols[other]
	if or == nil || leadIndex(or) != nil {
		return // the bare side's index can still serve the join
	}
	wrapped.Accept(&visitFunc{f: func(n ast.Node) {
		cn, ok := n.(*ast.ColumnNameExpr)
		if !ok {
			return
		}
		ref := p.Names.Cols[cn]
		ix := leadIndex(ref)
		if ix == nil || ref.Source == or.Source {
			return
		}
		off := p.SourceOffset(cn.OriginTextPosition())
		p.Reportf(off, "join predicate on %s wraps the column in an expression: its index %s on %s(%s) cannot look the rows up; compare the bare column (move the expression to the other side)",
			cn.Name, ix.Name, ref.Tab.Name, ref.Col.Name)
	}})
}
