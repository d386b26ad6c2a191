package rules

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryRuleIsListed: adding a rule is two files, its rule_*.go and
// its testdata folder, and a line in list; a rule written but not listed
// would never run, and two rules of one name would make output,
// configuration and suppressions ambiguous. Each rule file declares one
// Analyzer, and every listed rule has its test data (TestRules).
func TestEveryRuleIsListed(t *testing.T) {
	listed := map[string]bool{}
	names := map[string]bool{}
	for _, a := range All() {
		if a.Name == "" || a.Run == nil {
			t.Errorf("rule %q needs a name and a Run function", a.Name)
		}
		if names[a.Name] {
			t.Errorf("two rules are named %s", a.Name)
		}
		names[a.Name] = true
	}
	for _, a := range list {
		listed[a.Name] = true
	}
	files, err := filepath.Glob("rule_*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no rule files: %v", err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		var declared []string
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, v := range vs.Values {
					u, ok := v.(*ast.UnaryExpr)
					if !ok {
						continue
					}
					c, ok := u.X.(*ast.CompositeLit)
					if sel, isSel := c.Type.(*ast.SelectorExpr); !ok || !isSel || sel.Sel.Name != "Analyzer" {
						continue
					}
					for _, e := range c.Elts {
						if kv, ok := e.(*ast.KeyValueExpr); ok && fmt.Sprint(kv.Key) == "Name" {
							if lit, ok := kv.Value.(*ast.BasicLit); ok {
								declared = append(declared, strings.Trim(lit.Value, `"`))
							}
						}
					}
					_ = vs.Names[i]
				}
			}
		}
		if len(declared) != 1 {
			t.Errorf("%s declares %d rules (%v), want one", name, len(declared), declared)
			continue
		}
		if !listed[declared[0]] {
			t.Errorf("%s: rule %s is not in the list of rules.go", name, declared[0])
		}
	}
	if len(files) != len(list) {
		t.Errorf("%d rule files, %d rules listed", len(files), len(list))
	}
}
