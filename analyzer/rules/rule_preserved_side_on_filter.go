package rules

import (
	"slices"
	"strings"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// PreservedSideOnFilter reports a condition of an outer join's ON clause
// that reads only the preserved side. It filters nothing: every row of the
// preserved side comes back, with NULLs for the optional side where the
// condition is false. It is usually meant as a WHERE condition.
var PreservedSideOnFilter = &analyzer.Analyzer{
	Name: "preserved-side-on-filter",
	Doc: "A condition in the ON clause of a LEFT/RIGHT JOIN that reads only the preserved side filters no rows; " +
		"it only decides which rows get NULLs. Usually meant as a WHERE condition (the suggested move changes the results: --unsafe-fixes).",
	Explanation: analyzer.Explanation{
		Text: "In a LEFT JOIN b ON a.k = b.k AND a.status = 'x', the condition on a does not remove any row of a: every row of a still comes back, " +
			"with b's columns NULL where a.status is not 'x'. The server still reads b for those rows' keys, and the result is larger than it looks. " +
			"If the rows of a were meant to be filtered, the condition belongs in WHERE. Moving it changes the results, so lint --fix only applies " +
			"the move with --unsafe-fixes; where the ON condition is meant (the scenario measures it), keep it and suppress the finding with the reason.",
		Wrong: "SELECT m.id, level1.record_value FROM {{m}} AS m\nLEFT JOIN level1 ON m.l1_id = level1.id AND m.enum_field = {{status}};",
		Right: "SELECT m.id, level1.record_value FROM {{m}} AS m\nLEFT JOIN level1 ON m.l1_id = level1.id\nWHERE m.enum_field = {{status}};",
	},
	Severity: analyzer.Warning,
	Run:      runPreservedSideOnFilter,
}

func runPreservedSideOnFilter(p *analyzer.Pass) {
	for _, oj := range p.Names.Outer {
		if oj.Join.On == nil || len(oj.Preserved) == 0 {
			continue
		}
		cs := analyzer.Conjuncts(oj.Join.On.Expr)
		if len(cs) < 2 {
			continue // the whole ON on one side is a different mistake (a cross join in effect)
		}
		for _, c := range cs {
			if !onlyReads(p.Names, c, oj.Preserved) {
				continue
			}
			start, end := condSpan(p.Tokens, p.Depths, p.SourceOffset(startOf(c)))
			if start < 0 {
				continue
			}
			cond := p.Source[start:end]
			read, side := readNames(p.Names, c), oj.Preserved[0].Name
			what := read + ", the preserved side"
			if len(oj.Preserved) > 1 {
				// The preserved side is an earlier join: name the tables
				// the condition reads, and the side they belong to.
				var names []string
				for _, s := range oj.Preserved {
					names = append(names, s.Name)
				}
				side = "(" + strings.Join(names, ", ") + ")"
				what = read + ", of the preserved side " + side
			}
			d := analyzer.Diagnostic{Offset: start, EndOffset: end,
				Message: "ON condition " + shorten(cond) + " reads only " + what + " of the " + joinKind(oj) +
					": it filters no row of " + side + ", it only puts NULLs in the optional side's columns; if the rows were meant to be filtered, move it to WHERE"}
			if edits, ok := moveToWhere(p.Tokens, p.Depths, start, end, cond); ok {
				d.Fixes = []analyzer.SuggestedFix{{Message: "move the condition to WHERE (changes the results)", Edits: edits, Unsafe: true}}
			}
			p.Report(d)
		}
	}
}

// readNames lists the tables (aliases) whose columns e reads, each once,
// in order.
func readNames(names *analyzer.Resolution, e ast.ExprNode) string {
	var read []string
	e.Accept(&visitFunc{f: func(x ast.Node) {
		if c, ok := x.(*ast.ColumnNameExpr); ok {
			if ref := names.Cols[c]; ref != nil && ref.Source != nil && !slices.Contains(read, ref.Source.Name) {
				read = append(read, ref.Source.Name)
			}
		}
	}})
	return strings.Join(read, " and ")
}

func shorten(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return s
}

// startOf is the parse-text offset where an expression starts: its
// leftmost operand's (a binary expression's own offset is its operator's).
func startOf(e ast.ExprNode) int {
	for {
		switch x := e.(type) {
		case *ast.BinaryOperationExpr:
			e = x.L
			continue
		case *ast.PatternInExpr:
			e = x.Expr
			continue
		case *ast.BetweenExpr:
			e = x.Expr
			continue
		case *ast.PatternLikeOrIlikeExpr:
			e = x.Expr
			continue
		case *ast.IsNullExpr:
			e = x.Expr
			continue
		}
		return e.OriginTextPosition()
	}
}

// onlyReads reports whether e reads at least one column, all of them of
// the given sources, and holds no subquery.
func onlyReads(names *analyzer.Resolution, e ast.ExprNode, srcs []*analyzer.Source) bool {
	n, ok := 0, true
	e.Accept(&visitFunc{f: func(x ast.Node) {
		switch c := x.(type) {
		case *ast.SubqueryExpr:
			ok = false
		case *ast.ColumnNameExpr:
			ref := names.Cols[c]
			if ref == nil || !slices.Contains(srcs, ref.Source) {
				ok = false
			}
			n++
		}
	}})
	return ok && n > 0
}

// condSpan returns the source span of the ON conjunct whose first token
// is at off (parentheses around it included): up to the AND, or the
// clause keyword, that ends it.
func condSpan(toks []analyzer.Token, depth []int, off int) (int, int) {
	i := 0
	for i < len(toks) && toks[i].Start < off {
		i++
	}
	if i == len(toks) {
		return -1, -1
	}
	d := depth[i]
	j := i
	for j < len(toks) {
		t := toks[j]
		if depth[j] < d || depth[j] == d && (t.Punct(")") || t.Punct(";") || t.Punct(",") || t.Is("AND") || t.Is("OR") ||
			t.Kind == analyzer.TokIdent && !t.Quoted && analyzer.OnStop[t.Word] && !(j+1 < len(toks) && toks[j+1].Punct("("))) {
			break
		}
		j++
	}
	if j == i || j < len(toks) && toks[j].Is("OR") {
		return -1, -1
	}
	return toks[i].Start, toks[j-1].End
}

// moveToWhere returns the edits that delete the conjunct src[start:end]
// (with its AND) from its ON clause and add it to the WHERE clause of its
// query block, or false when the block's clauses are not plain enough to
// edit safely.
func moveToWhere(toks []analyzer.Token, depth []int, start, end int, cond string) ([]analyzer.TextEdit, bool) {
	i, j := -1, -1
	for k, t := range toks {
		if t.Start == start {
			i = k
		}
		if t.End == end {
			j = k
		}
	}
	if i < 1 || j < 0 {
		return nil, false
	}
	var del analyzer.TextEdit
	switch {
	case toks[i-1].Is("AND"):
		del = analyzer.TextEdit{Start: toks[i-2].End, End: end}
	case j+1 < len(toks) && toks[j+1].Is("AND"):
		del = analyzer.TextEdit{Start: start, End: toks[j+2].Start}
	default:
		return nil, false
	}
	// the query block: back to the SELECT at the ON's depth
	d := depth[i]
	blk := -1
	for k := i; k >= 0; k-- {
		if depth[k] == d && toks[k].Is("SELECT") {
			blk = k
			break
		}
		if depth[k] < d {
			return nil, false
		}
	}
	if blk < 0 {
		return nil, false
	}
	where, stop := -1, len(toks)
	for k := j + 1; k < len(toks); k++ {
		t := toks[k]
		if depth[k] < d || depth[k] == d && (t.Punct(";") || t.Punct(")")) {
			stop = k
			break
		}
		if depth[k] != d || t.Kind != analyzer.TokIdent || t.Quoted {
			continue
		}
		if t.Word == "WHERE" {
			where = k
			continue
		}
		if t.Word == "GROUP" || t.Word == "HAVING" || t.Word == "ORDER" || t.Word == "LIMIT" || t.Word == "WINDOW" ||
			t.Word == "UNION" || t.Word == "FOR" || t.Word == "LOCK" || t.Word == "INTO" {
			stop = k
			break
		}
	}
	if where < 0 {
		at := toks[stop-1].End
		return []analyzer.TextEdit{del, {Start: at, End: at, NewText: "\nWHERE " + cond}}, true
	}
	first, last := toks[where+1].Start, toks[stop-1].End
	return []analyzer.TextEdit{del,
		{Start: first, End: first, NewText: cond + " AND ("},
		{Start: last, End: last, NewText: ")"}}, true
}
