package analyzer

import (
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"path/filepath"
	"testing"
)

// TestRulesSeeOnlyThePass: a rule (rule_*.go, and plan_view.go, which
// the plan rules share) reads a file through the Pass alone, never through
// the analysis behind it (the unit): no `.u` selector, no use of the type
// unit and no unit built of its own.
func TestRulesSeeOnlyThePass(t *testing.T) {
	files, err := filepath.Glob("rule_*.go")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, "plan_view.go")
	fset := gotoken.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.SelectorExpr:
				if x.Sel.Name == "u" {
					t.Errorf("%s: a rule reads the unit (.u) instead of the Pass", fset.Position(x.Pos()))
				}
			case *ast.Ident:
				if x.Name == "unit" || x.Name == "newUnit" || x.Name == "newUnitWith" {
					t.Errorf("%s: a rule uses %s instead of the Pass", fset.Position(x.Pos()), x.Name)
				}
			}
			return true
		})
	}
}
