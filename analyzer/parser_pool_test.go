package analyzer

import (
	"runtime"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/joinbench/joinbench/analyzer/analyzertest"
	"github.com/joinbench/joinbench/corpus"
)

// TestParsedTreesOutliveTheirParser: the tree a unit parsed belongs to the
// unit alone. A parser's next Parse writes into nodes of its last one, so
// another file's analysis (lint analyzes files concurrently) must never
// parse with the parser that built a tree still being read, as it once did
// through a pool of parsers: the race detector, which make test runs,
// reports such a write. One P makes the other goroutine run right after
// the unit parsed, as a pooled parser would have been reused.
func TestParsedTreesOutliveTheirParser(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	c, err := corpus.LoadBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	scs := c.Scenarios()
	opts := &Options{Schema: analyzertest.Schema()}
	for i, sc := range scs {
		u := newUnit(sc.Path, sc.Source, sc, opts.Schema, opts)
		next := scs[(i+1)%len(scs)]
		done := make(chan struct{})
		go func() {
			defer close(done)
			newUnit(next.Path, next.Source, next, opts.Schema, opts)
		}()
		positions := 0
		v := &nodeVisitor{f: func(n ast.Node) {
			if e, ok := n.(ast.ExprNode); ok {
				positions += e.OriginTextPosition()
			}
		}}
		for _, st := range u.stmts {
			st.Accept(v)
		}
		<-done
		if len(u.stmts) > 0 && positions == 0 {
			t.Errorf("%s: no expression of the tree has a position", sc.Name)
		}
	}
}

// nodeVisitor calls f on every node of a tree.
type nodeVisitor struct{ f func(ast.Node) }

func (v *nodeVisitor) Enter(n ast.Node) (ast.Node, bool) { v.f(n); return n, false }
func (v *nodeVisitor) Leave(n ast.Node) (ast.Node, bool) { return n, true }
