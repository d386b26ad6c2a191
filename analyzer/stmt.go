package analyzer

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
)

// stmtOffsets returns the source offset of each parsed statement.
func (u *unit) stmtOffsets() []int {
	parsed := u.text
	if u.rw != nil {
		parsed = u.rw.Text
	}
	out := make([]int, len(u.stmts))
	cursor := 0
	for i, st := range u.stmts {
		text := strings.TrimSpace(st.Text())
		off := -1
		if text != "" {
			off = strings.Index(parsed[cursor:], text)
		}
		if off < 0 {
			out[i] = u.srcOffset(cursor)
			continue
		}
		out[i] = u.srcOffset(cursor + off)
		// skip leading comments: point at the first token
		for _, t := range u.toks {
			if t.Start >= out[i] {
				out[i] = t.Start
				break
			}
		}
		cursor += off + len(text)
	}
	return out
}

// conjuncts splits e on top-level AND.
func Conjuncts(e ast.ExprNode) []ast.ExprNode { return appendConjuncts(nil, e) }

// appendConjuncts appends the conjuncts of e to out: one slice for the
// whole tree, not one per AND.
func appendConjuncts(out []ast.ExprNode, e ast.ExprNode) []ast.ExprNode {
	if e == nil {
		return out
	}
	if p, ok := e.(*ast.ParenthesesExpr); ok {
		return appendConjuncts(out, p.Expr)
	}
	if b, ok := e.(*ast.BinaryOperationExpr); ok && b.Op == opcode.LogicAnd {
		return appendConjuncts(appendConjuncts(out, b.L), b.R)
	}
	return append(out, e)
}

func Unparen(e ast.ExprNode) ast.ExprNode {
	for {
		p, ok := e.(*ast.ParenthesesExpr)
		if !ok {
			return e
		}
		e = p.Expr
	}
}
