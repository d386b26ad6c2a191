package analyzer

import (
	"strings"
)

// RightJoin reports every RIGHT JOIN and suggests the equivalent LEFT JOIN:
// operands swapped, a joined left operand kept together in parentheses so
// the nesting means the same, hints, placeholders and comments untouched.
// MySQL and MariaDB convert RIGHT JOIN to LEFT JOIN internally; writing
// LEFT JOIN makes the scenario read the way the optimizer sees it.
var RightJoin = register(&Analyzer{
	Name: "right-join",
	Doc: "RIGHT JOIN is rewritten by the server into a LEFT JOIN with swapped operands; write the LEFT JOIN " +
		"(lint --fix does it, keeping hints, placeholders and comments).",
	Explanation: Explanation{
		Text:  "A RIGHT JOIN is the LEFT JOIN with its operands swapped; the LEFT form reads in the order the server joins and is what most plans and people expect. lint --fix rewrites it (the results are the same).",
		Wrong: "SELECT m.id FROM level1 RIGHT JOIN {{m}} AS m ON m.l1_id = level1.id;",
		Right: "SELECT m.id FROM {{m}} AS m LEFT JOIN level1 ON m.l1_id = level1.id;",
	},
	Severity: Warning,
	Run: func(p *Pass) {
		for _, js := range p.Joins {
			var fix *SuggestedFix
			for _, n := range rightJoins(js.root) {
				d := Diagnostic{Offset: n.kwStart, Message: "RIGHT JOIN: write it as the equivalent LEFT JOIN with the operands swapped"}
				if n.kind == "NATURAL" {
					d.Message = "NATURAL RIGHT JOIN: write it as a LEFT JOIN with the operands swapped and an explicit ON"
				} else {
					if fix == nil {
						if text, ok := renderLeft(p.Source, js.root); ok {
							fix = &SuggestedFix{Message: "rewrite as LEFT JOIN", Edits: []TextEdit{{Start: js.root.start, End: js.root.end, NewText: text}}}
						}
					}
					if fix != nil {
						d.Fixes = []SuggestedFix{*fix}
					}
				}
				p.Report(d)
			}
		}
	},
})

// rightJoins returns the RIGHT JOIN nodes of a join tree in source order.
func rightJoins(n *joinNode) []*joinNode {
	if n == nil {
		return nil
	}
	if n.paren {
		return rightJoins(n.inner)
	}
	var out []*joinNode
	out = append(out, rightJoins(n.left)...)
	if n.kind == "RIGHT" || n.kind == "NATURAL" && n.isNaturalRight {
		out = append(out, n)
	}
	out = append(out, rightJoins(n.right)...)
	sortNodes(out)
	return out
}

func sortNodes(ns []*joinNode) {
	for i := 1; i < len(ns); i++ {
		for j := i; j > 0 && ns[j].kwStart < ns[j-1].kwStart; j-- {
			ns[j], ns[j-1] = ns[j-1], ns[j]
		}
	}
}

// renderLeft renders a join tree of src with every RIGHT JOIN turned into
// a LEFT JOIN. It declines (false) for NATURAL RIGHT JOIN.
func renderLeft(src string, n *joinNode) (string, bool) {
	switch {
	case n.ref != nil:
		return src[n.start:n.end], true
	case n.paren:
		in, ok := renderLeft(src, n.inner)
		return src[n.start:n.inner.start] + in + src[n.inner.end:n.end], ok
	}
	l, ok1 := renderLeft(src, n.left)
	r, ok2 := renderLeft(src, n.right)
	if !ok1 || !ok2 {
		return "", false
	}
	switch {
	case n.kind == "RIGHT":
		if n.left.ref == nil && !n.left.paren {
			l = "(" + l + ")"
		}
		kw := "LEFT JOIN"
		if strings.Contains(strings.ToUpper(src[n.kwStart:n.kwEnd]), "OUTER") {
			kw = "LEFT OUTER JOIN"
		}
		return r + src[n.left.end:n.kwStart] + kw + src[n.kwEnd:n.right.start] + l + src[n.right.end:n.end], true
	case n.kind == "NATURAL" && n.isNaturalRight:
		return "", false
	}
	return l + src[n.left.end:n.right.start] + r + src[n.right.end:n.end], true
}

// rightJoinEdits returns the edits turning every RIGHT JOIN of src's FROM
// clauses into a LEFT JOIN, outermost first, without overlaps.
func rightJoinEdits(src string, joins []*joinSpan) []TextEdit {
	var edits []TextEdit
	for _, js := range joins {
		if len(rightJoins(js.root)) == 0 {
			continue
		}
		if text, ok := renderLeft(src, js.root); ok {
			edits = append(edits, TextEdit{Start: js.root.start, End: js.root.end, NewText: text})
		}
	}
	return edits
}
