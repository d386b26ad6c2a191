package rules

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/analyzer/analyzertest"
)

// FuzzAnalyze: no input makes the analyzer, the fixer or the rewrite panic.
func FuzzAnalyze(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*/*.sql")
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(string(b))
		}
	}
	f.Add("SELECT a FROM t RIGHT JOIN (u RIGHT JOIN v ON x) ON y")
	f.Add("-- param m: table(main)\nSELECT /*+ JOIN_ORDER({{m}} */ 1 FROM {{m")
	schema := analyzertest.Schema()
	f.Fuzz(func(t *testing.T, src string) {
		opts := &analyzer.Options{Rules: All(), Schema: schema}
		for _, d := range analyzer.AnalyzeFile("fuzz.sql", src, opts) {
			if d.Line < 1 || d.Col < 1 {
				t.Fatalf("bad position: %s", d)
			}
		}
		_, _ = analyzer.FixFile("fuzz.sql", src, opts)
		_, _ = RewriteRightJoins("fuzz.sql", src, opts)
	})
}
