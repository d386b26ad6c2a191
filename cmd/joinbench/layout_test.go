package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// The command package only maps flags and prints: its logic lives in the
// packages it wires. These checks keep it so: no function longer than a
// screen (help texts aside), and no database connection opened here
// rather than through internal/server.
const maxCmdFuncLines = 60

func TestCmdStaysWiring(t *testing.T) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				lines := fset.Position(n.End()).Line - fset.Position(n.Pos()).Line + 1
				if n.Name.Name != "Help" && lines > maxCmdFuncLines {
					t.Errorf("%s: %s is %d lines: cmd wires flags to packages; move its logic into one (at most %d lines here)",
						fset.Position(n.Pos()), n.Name.Name, lines, maxCmdFuncLines)
				}
			case *ast.SelectorExpr:
				if id, ok := n.X.(*ast.Ident); ok && id.Name == "sql" && strings.HasPrefix(n.Sel.Name, "Open") {
					t.Errorf("%s: sql.%s: connections are opened through internal/server, which gives every command the same flags, option file and timeouts",
						fset.Position(n.Pos()), n.Sel.Name)
				}
			}
			return true
		})
	}
}
