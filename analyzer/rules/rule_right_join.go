package rules

import (
	"strings"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/internal/usage"
)

// RightJoin reports every RIGHT JOIN and suggests the equivalent LEFT JOIN:
// operands swapped, a joined left operand kept together in parentheses so
// the nesting means the same, hints, placeholders and comments untouched.
// MySQL and MariaDB convert RIGHT JOIN to LEFT JOIN internally; writing
// LEFT JOIN makes the scenario read the way the optimizer sees it.
var RightJoin = &analyzer.Analyzer{
	Name: "right-join",
	Doc: "RIGHT JOIN is rewritten by the server into a LEFT JOIN with swapped operands; write the LEFT JOIN " +
		"(lint --fix does it, keeping hints, placeholders and comments).",
	Explanation: analyzer.Explanation{
		Text:  "A RIGHT JOIN is the LEFT JOIN with its operands swapped; the LEFT form reads in the order the server joins and is what most plans and people expect. lint --fix rewrites it (the results are the same).",
		Wrong: "SELECT m.id FROM level1 RIGHT JOIN {{m}} AS m ON m.l1_id = level1.id;",
		Right: "SELECT m.id FROM {{m}} AS m LEFT JOIN level1 ON m.l1_id = level1.id;",
	},
	Severity: analyzer.Warning,
	Run: func(p *analyzer.Pass) {
		for _, js := range p.Joins {
			var fix *analyzer.SuggestedFix
			for _, n := range rightJoins(js.Root) {
				d := analyzer.Diagnostic{Offset: n.KwStart, Message: "RIGHT JOIN: write it as the equivalent LEFT JOIN with the operands swapped"}
				if n.Kind == "NATURAL" {
					d.Message = "NATURAL RIGHT JOIN: write it as a LEFT JOIN with the operands swapped and an explicit ON"
				} else {
					if fix == nil {
						if text, ok := renderLeft(p.Source, js.Root); ok {
							fix = &analyzer.SuggestedFix{Message: "rewrite as LEFT JOIN", Edits: []analyzer.TextEdit{{Start: js.Root.Start, End: js.Root.End, NewText: text}}}
						}
					}
					if fix != nil {
						d.Fixes = []analyzer.SuggestedFix{*fix}
					}
				}
				p.Report(d)
			}
		}
	},
}

// rightJoins returns the RIGHT JOIN nodes of a join tree in source order.
func rightJoins(n *analyzer.JoinNode) []*analyzer.JoinNode {
	if n == nil {
		return nil
	}
	if n.Paren {
		return rightJoins(n.Inner)
	}
	var out []*analyzer.JoinNode
	out = append(out, rightJoins(n.Left)...)
	if n.Kind == "RIGHT" || n.Kind == "NATURAL" && n.IsNaturalRight {
		out = append(out, n)
	}
	out = append(out, rightJoins(n.Right)...)
	sortNodes(out)
	return out
}

func sortNodes(ns []*analyzer.JoinNode) {
	for i := 1; i < len(ns); i++ {
		for j := i; j > 0 && ns[j].KwStart < ns[j-1].KwStart; j-- {
			ns[j], ns[j-1] = ns[j-1], ns[j]
		}
	}
}

// renderLeft renders a join tree of src with every RIGHT JOIN turned into
// a LEFT JOIN. It declines (false) for NATURAL RIGHT JOIN.
func renderLeft(src string, n *analyzer.JoinNode) (string, bool) {
	switch {
	case n.Ref != nil:
		return src[n.Start:n.End], true
	case n.Paren:
		in, ok := renderLeft(src, n.Inner)
		return src[n.Start:n.Inner.Start] + in + src[n.Inner.End:n.End], ok
	}
	l, ok1 := renderLeft(src, n.Left)
	r, ok2 := renderLeft(src, n.Right)
	if !ok1 || !ok2 {
		return "", false
	}
	switch {
	case n.Kind == "RIGHT":
		if n.Left.Ref == nil && !n.Left.Paren {
			l = "(" + l + ")"
		}
		kw := "LEFT JOIN"
		if strings.Contains(strings.ToUpper(src[n.KwStart:n.KwEnd]), "OUTER") {
			kw = "LEFT OUTER JOIN"
		}
		return r + src[n.Left.End:n.KwStart] + kw + src[n.KwEnd:n.Right.Start] + l + src[n.Right.End:n.End], true
	case n.Kind == "NATURAL" && n.IsNaturalRight:
		return "", false
	}
	return l + src[n.Left.End:n.Right.Start] + r + src[n.Right.End:n.End], true
}

// rightJoinEdits returns the edits turning every RIGHT JOIN of src's FROM
// clauses into a LEFT JOIN, outermost first, without overlaps.
func rightJoinEdits(src string, joins []*analyzer.JoinSpan) []analyzer.TextEdit {
	var edits []analyzer.TextEdit
	for _, js := range joins {
		if len(rightJoins(js.Root)) == 0 {
			continue
		}
		if text, ok := renderLeft(src, js.Root); ok {
			edits = append(edits, analyzer.TextEdit{Start: js.Root.Start, End: js.Root.End, NewText: text})
		}
	}
	return edits
}

// RewriteRightJoins turns every RIGHT JOIN of a file into the equivalent
// LEFT JOIN, suppressions notwithstanding. The header, comments, hints and
// placeholders are kept. A file that does not parse is a usage error naming
// path:line:col.
func RewriteRightJoins(path, src string, opts *analyzer.Options) (string, error) {
	for round := 0; round < 10; round++ {
		sc, err := analyzer.ReadScenario(path, src)
		if err != nil {
			return "", err
		}
		p := analyzer.Inspect(path, src, sc, opts)
		if p.SyntaxError != nil {
			l, c := p.Position(p.SyntaxError.Offset)
			return "", usage.Wrap(&corpus.Error{Path: path, Line: l, Col: c, Msg: p.SyntaxError.Msg})
		}
		out, n := analyzer.ApplyEdits(src, rightJoinEdits(p.Source, p.Joins))
		if n == 0 {
			return src, nil
		}
		src = out
	}
	return src, nil
}
