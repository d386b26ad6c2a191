package analyzer

import (
	"runtime"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/joinbench/joinbench/corpus"
)

// TestParsedTreesOutliveTheirParser: once a unit's parser is back in the
// pool, the tree it built belongs to the unit alone. The parser's next
// Parse, in another goroutine (lint analyzes files concurrently), must
// not write into it while the unit reads it: the race detector, which
// make test runs, reports such a write. One P makes the other goroutine
// take the very parser the unit used.
func TestParsedTreesOutliveTheirParser(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	c, err := corpus.LoadBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	scs := c.Scenarios()
	opts := &Options{Schema: testSchema()}
	for i, sc := range scs {
		u := newUnit(sc.Path, sc.Source, sc, opts.Schema, opts)
		next := scs[(i+1)%len(scs)]
		done := make(chan struct{})
		go func() {
			defer close(done)
			newUnit(next.Path, next.Source, next, opts.Schema, opts)
		}()
		positions := 0
		v := &visitFunc{f: func(n ast.Node) {
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
