package rules

import (
	"slices"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/corpus"
)

// PlaceholderType checks every placeholder against its declaration and the
// column it is compared with.
var PlaceholderType = &analyzer.Analyzer{
	Name: "placeholder-type",
	Doc: "Each {{name}} must be declared; table parameters may only stand where a table goes and value parameters only where a value goes; " +
		"enum/set/list values must be members of the compared ENUM/SET column and fit a string column's length; int and year ranges must fit the column's type, " +
		"and numbers (int, id, year) must not be compared with a string column.",
	Explanation: analyzer.Explanation{
		Text: "A table parameter stands where a table goes (or as the qualifier of a column of that table when it has no alias); a value parameter where a value goes. Values drawn for a parameter must fit the column they are compared with: members of an ENUM, strings no longer than the column, integer ranges within the type. " +
			"A number (int, id, year) compared with a string column is converted the other way: the server turns every row's string into a number, so the column's index cannot serve and '2005x' matches 2005.",
		Wrong: "-- param status: enum(main.enum_field)\nSELECT m.id FROM {{m}} AS m WHERE m.color = {{m}};",
		Right: "-- param status: enum(main.enum_field)\nSELECT m.id FROM {{m}} AS m WHERE m.enum_field = {{status}};",
	},
	Severity: analyzer.Error,
	Run:      runPlaceholderType,
	// Where a placeholder stands (table, qualifier, value) is read from
	// the parse: on a file that does not parse it would be guesswork.
	RunDespiteErrors: false,
}

func runPlaceholderType(p *analyzer.Pass) {
	sc := p.Scenario
	if sc == nil {
		return
	}
	for _, prm := range sc.Params {
		if msg := sc.CheckParam(prm, p.Schema); msg != "" {
			p.Reportf(p.Offset(prm.Line, prm.Col), "%s parameter %s: %s", prm.Kind, prm.Name, msg)
		}
	}
	// The offsets below are few (a file's placeholders): slices, not
	// maps, hold them.
	var tablePos []int
	for _, r := range p.TableRefs {
		if r.NameTok != nil && r.NameTok.Kind == analyzer.TokPlaceholder {
			tablePos = append(tablePos, r.NameTok.Start)
		}
	}
	// A table parameter qualifying a column ({{m}}.id, UPDATE {{m}} SET
	// {{m}}.x = ...) names its table, as the table's name would: valid
	// where the table has no alias (the resolver checks that).
	var qualifier []int
	toks := p.Tokens
	for i := 0; i+2 < len(toks); i++ {
		t, dot, next := toks[i], toks[i+1], toks[i+2]
		if t.Kind == analyzer.TokPlaceholder && dot.Punct(".") && dot.Start == t.End && next.Start == dot.End &&
			(next.Kind == analyzer.TokIdent || next.Punct("*")) {
			qualifier = append(qualifier, t.Start)
		}
	}
	// Undeclared, unused and in-hint value placeholders are errors of the
	// scenario format, reported when the file is read.
	for _, use := range sc.Uses {
		start, name := use.Start, analyzer.UseName(p.Source, use)
		prm := sc.Param(name)
		switch {
		case prm == nil:
		case prm.Kind == corpus.KindTable && !slices.Contains(tablePos, start) && !slices.Contains(qualifier, start) && !p.InHint(start):
			p.Reportf(start, "table parameter {{%s}} used where a value goes", name)
		case prm.Kind != corpus.KindTable && slices.Contains(tablePos, start):
			p.Reportf(start, "%s parameter {{%s}} used where a table goes: declare it as table(FAMILY)", prm.Kind, name)
		}
	}
	if p.Names == nil {
		return
	}
	// marker is the name of the placeholder whose use starts at off.
	marker := func(off int) string {
		for _, use := range sc.Uses {
			if use.Start == off {
				return analyzer.UseName(p.Source, use)
			}
		}
		return ""
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
		ref := p.Names.Cols[cn]
		off := p.SourceOffset(pm.Offset)
		prm := sc.Param(marker(off))
		if ref == nil || ref.Col == nil || prm == nil {
			return
		}
		if msg := sc.ParamFits(prm, ref.Col, p.Schema); msg != "" {
			p.Reportf(off, "{{%s}} %s %s.%s: %s", prm.Name, what, ref.Tab.Name, ref.Col.Name, msg)
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
	for _, st := range p.Stmts {
		st.Accept(v)
	}
}

// visitFunc calls f on every node.
type visitFunc struct{ f func(ast.Node) }

func (v *visitFunc) Enter(n ast.Node) (ast.Node, bool) { v.f(n); return n, false }
func (v *visitFunc) Leave(n ast.Node) (ast.Node, bool) { return n, true }
