package analyzer

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/ddl"
)

// PlaceholderType checks every placeholder against its declaration and the
// column it is compared with.
var PlaceholderType = register(&Analyzer{
	Name: "placeholder-type",
	Doc: "Each {{name}} must be declared; table parameters may only stand where a table goes and value parameters only where a value goes; " +
		"enum/set/list values must be members of the compared ENUM/SET column and fit a string column's length; int and year ranges must fit the column's type.",
	Explanation: Explanation{
		Text:  "A table parameter stands where a table goes (or as the qualifier of a column of that table when it has no alias); a value parameter where a value goes. Values drawn for a parameter must fit the column they are compared with: members of an ENUM, strings no longer than the column, integer ranges within the type.",
		Wrong: "-- param status: enum(main.enum_field)\nSELECT m.id FROM {{m}} AS m WHERE m.color = {{m}};",
		Right: "-- param status: enum(main.enum_field)\nSELECT m.id FROM {{m}} AS m WHERE m.enum_field = {{status}};",
	},
	Severity: Error,
	Run:      runPlaceholderType,
	// Where a placeholder stands (table, qualifier, value) is read from
	// the parse: on a file that does not parse it would be guesswork.
	RunDespiteErrors: false,
})

func runPlaceholderType(p *Pass) {
	u := p.u
	if u.sc == nil {
		return
	}
	for _, prm := range u.sc.Params {
		off := u.lines.Start(prm.Line) + max(prm.Col-1, 0)
		checkDecl(p, prm, off)
	}
	tablePos := map[int]bool{}
	for _, r := range u.refs {
		if r.nameTok != nil && r.nameTok.Kind == tokPlaceholder {
			tablePos[r.nameTok.Start] = true
		}
	}
	// A table parameter qualifying a column ({{m}}.id, UPDATE {{m}} SET
	// {{m}}.x = ...) names its table, as the table's name would: valid
	// where the table has no alias (the resolver checks that).
	qualifier := map[int]bool{}
	for i := 0; i+2 < len(u.toks); i++ {
		t, dot, next := u.toks[i], u.toks[i+1], u.toks[i+2]
		if t.Kind == tokPlaceholder && dot.punct(".") && dot.Start == t.End && next.Start == dot.End &&
			(next.Kind == tokIdent || next.punct("*")) {
			qualifier[t.Start] = true
		}
	}
	// Undeclared, unused and in-hint value placeholders are errors of the
	// scenario format, reported when the file is read.
	for _, use := range u.uses() {
		start, name := use.Start, useName(u.src, use)
		prm := u.param(name)
		switch {
		case prm == nil:
		case prm.Kind == "table" && !tablePos[start] && !qualifier[start] && !u.inHint(start):
			p.Reportf(start, "table parameter {{%s}} used where a value goes", name)
		case prm.Kind != "table" && tablePos[start]:
			p.Reportf(start, "%s parameter {{%s}} used where a table goes: declare it as table(FAMILY)", prm.Kind, name)
		}
	}
	if u.res == nil {
		return
	}
	markers := map[int]string{}
	for _, use := range u.uses() {
		markers[use.Start] = useName(u.src, use)
	}
	check := func(colExpr ast.ExprNode, val ast.ExprNode, what string) {
		cn, ok := colExpr.(*ast.ColumnNameExpr)
		if !ok {
			return
		}
		pm, ok := val.(*driver.ParamMarkerExpr)
		if !ok {
			return
		}
		ref := u.res.cols[cn]
		off := u.srcOffset(pm.Offset)
		prm := u.param(markers[off])
		if ref == nil || ref.col == nil || prm == nil {
			return
		}
		if msg := fitsColumn(u, prm, ref.col, ref.tab); msg != "" {
			p.Reportf(off, "{{%s}} %s %s.%s: %s", prm.Name, what, ref.tab.Name, ref.col.Name, msg)
		}
	}
	v := &visitFunc{f: func(n ast.Node) {
		switch x := n.(type) {
		case *ast.BinaryOperationExpr:
			switch x.Op {
			case opcode.EQ, opcode.NE, opcode.LT, opcode.LE, opcode.GT, opcode.GE, opcode.NullEQ:
				check(x.L, x.R, "compared with")
				check(x.R, x.L, "compared with")
			}
		case *ast.PatternInExpr:
			for _, e := range x.List {
				check(x.Expr, e, "compared with")
			}
		case *ast.BetweenExpr:
			check(x.Expr, x.Left, "compared with")
			check(x.Expr, x.Right, "compared with")
		}
	}}
	for _, st := range u.stmts {
		st.Accept(v)
	}
}

// visitFunc calls f on every node.
type visitFunc struct{ f func(ast.Node) }

func (v *visitFunc) Enter(n ast.Node) (ast.Node, bool) { v.f(n); return n, false }
func (v *visitFunc) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// checkDecl validates a declaration against the schema.
func checkDecl(p *Pass, prm *corpus.Param, off int) {
	s := p.u.schema
	switch prm.Kind {
	case "table":
		if len(prm.Args) != 1 {
			p.Reportf(off, "table parameter %s: want table(FAMILY)", prm.Name)
		} else if s != nil && len(familyTables(s, prm.Args[0])) == 0 {
			p.Reportf(off, "table parameter %s: no table of family %s in the schema", prm.Name, prm.Args[0])
		}
	case "enum":
		if len(prm.Args) != 1 {
			p.Reportf(off, "enum parameter %s: want enum(TABLE.COLUMN)", prm.Name)
			return
		}
		if _, _, err := enumMembers(p.u, prm.Args[0]); err != "" {
			p.Reportf(off, "enum parameter %s: %s", prm.Name, err)
		}
	case "list":
		if len(prm.Args) != 1 {
			p.Reportf(off, "list parameter %s: want list(NAME)", prm.Name)
		} else if _, ok := p.u.list(prm.Args[0]); !ok {
			p.Reportf(off, "list parameter %s: no value list named %s", prm.Name, prm.Args[0])
		}
	case "int", "year", "string":
		lo, hi, ok := intArgs(prm)
		if !ok {
			p.Reportf(off, "%s parameter %s: want %s(LO,HI) with integers LO <= HI", prm.Kind, prm.Name, prm.Kind)
		} else if prm.Kind == "year" && (lo < 1901 || hi > 2155) {
			p.Reportf(off, "year parameter %s: %d..%d is outside YEAR's 1901..2155", prm.Name, lo, hi)
		}
	case "id":
		if len(prm.Args) != 1 {
			p.Reportf(off, "id parameter %s: want id(TABLE)", prm.Name)
		} else if s != nil && len(familyTables(s, prm.Args[0])) == 0 {
			p.Reportf(off, "id parameter %s: no table %s in the schema", prm.Name, prm.Args[0])
		}
	case "set":
		if len(prm.Args) == 1 && strings.Contains(prm.Args[0], ".") {
			if _, _, err := enumMembers(p.u, prm.Args[0]); err != "" {
				p.Reportf(off, "set parameter %s: %s", prm.Name, err)
			}
		}
	case "uuid":
	default:
		p.Reportf(off, "parameter %s has unknown type %q", prm.Name, prm.Kind)
	}
}

func intArgs(prm *corpus.Param) (lo, hi int64, ok bool) {
	if len(prm.Args) != 2 {
		return 0, 0, false
	}
	lo, e1 := strconv.ParseInt(strings.TrimSpace(prm.Args[0]), 10, 64)
	hi, e2 := strconv.ParseInt(strings.TrimSpace(prm.Args[1]), 10, 64)
	return lo, hi, e1 == nil && e2 == nil && lo <= hi
}

// enumMembers reads the members of an ENUM/SET column named table.column
// (table may be a family).
func enumMembers(u *unit, arg string) ([]string, *ddl.Column, string) {
	tn, cn, ok := strings.Cut(arg, ".")
	if !ok {
		return nil, nil, "want TABLE.COLUMN, got " + arg
	}
	if u.schema == nil {
		return nil, nil, ""
	}
	ts := familyTables(u.schema, tn)
	if len(ts) == 0 {
		return nil, nil, "no table " + tn + " in the schema"
	}
	c := ts[0].Column(cn)
	if c == nil {
		return nil, nil, "table " + ts[0].Name + " has no column " + cn
	}
	if c.Type.Base != "enum" && c.Type.Base != "set" {
		return nil, nil, fmt.Sprintf("%s.%s is %s, not ENUM or SET", tn, cn, strings.ToUpper(c.Type.Base))
	}
	return c.Type.Members, c, ""
}

// values returns the values a string-like parameter draws from.
func values(u *unit, prm *corpus.Param) ([]string, bool) {
	switch prm.Kind {
	case "enum":
		if len(prm.Args) == 1 {
			m, _, err := enumMembers(u, prm.Args[0])
			return m, err == "" && m != nil
		}
	case "set":
		if len(prm.Args) == 1 && strings.Contains(prm.Args[0], ".") {
			m, _, err := enumMembers(u, prm.Args[0])
			return m, err == "" && m != nil
		}
		return prm.Args, true
	case "list":
		if len(prm.Args) == 1 {
			return u.list(prm.Args[0])
		}
	}
	return nil, false
}

// fitsColumn explains why a parameter's values do not fit a column, or "".
func fitsColumn(u *unit, prm *corpus.Param, col *ddl.Column, tab *ddl.Table) string {
	t := col.Type
	if vals, ok := values(u, prm); ok {
		switch {
		case t.Base == "enum" || t.Base == "set":
			for _, v := range vals {
				if !memberOf(v, t.Members) {
					return fmt.Sprintf("%q is not one of its members (%s)", v, strings.Join(t.Members, ", "))
				}
			}
		case t.IsString():
			if t.Length > 0 {
				for _, v := range vals {
					if len([]rune(v)) > t.Length {
						return fmt.Sprintf("%q is longer than the column's %d", v, t.Length)
					}
				}
			}
		case t.IsInteger():
			for _, v := range vals {
				if _, err := strconv.ParseInt(v, 10, 64); err != nil {
					return fmt.Sprintf("%q is not an integer (the column is %s)", v, strings.ToUpper(t.Base))
				}
			}
		}
		return ""
	}
	switch prm.Kind {
	case "int", "year":
		lo, hi, ok := intArgs(prm)
		if !ok {
			return ""
		}
		if clo, chi, ok := t.IntRange(); ok && (lo < clo || hi > chi) {
			return fmt.Sprintf("range %d..%d does not fit %s (%d..%d)", lo, hi, strings.ToUpper(t.Base), clo, chi)
		}
		if t.Base == "enum" || t.Base == "set" {
			return "a number compared with an ENUM/SET compares member positions, not values"
		}
	case "string":
		if !t.IsString() {
			return "a string compared with a " + strings.ToUpper(t.Base) + " column"
		}
		if _, hi, ok := intArgs(prm); ok && t.Length > 0 && hi > int64(t.Length) {
			return fmt.Sprintf("strings of up to %d characters do not fit the column's %d", hi, t.Length)
		}
	case "uuid":
		if !t.IsString() {
			return "a UUID string compared with a " + strings.ToUpper(t.Base) + " column"
		}
		if t.Length > 0 && t.Length < 36 {
			return fmt.Sprintf("a UUID is 36 characters, the column holds %d", t.Length)
		}
	case "id":
		if !t.IsInteger() {
			return "an id compared with a " + strings.ToUpper(t.Base) + " column"
		}
	}
	return ""
}

func memberOf(v string, members []string) bool {
	for _, m := range members {
		if strings.EqualFold(m, v) {
			return true
		}
	}
	return false
}
