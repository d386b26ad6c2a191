package lint

import (
	"testing"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/analyzer/rules"
	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/ddl"
)

// TestBuiltinCorpusClean: the built-in corpus lints clean at default
// severities against the built-in schema (flavour mysql). Patterns the
// reference workload keeps on purpose (RIGHT JOIN scenarios, WHERE on the
// optional side as the reference queries are written, multi-table updates)
// carry a lint:file-ignore with the reason in the scenario file.
func TestBuiltinCorpusClean(t *testing.T) {
	c, err := corpus.LoadBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	schema, err := ddl.BuiltinSchema(ddl.SchemaOptions{Tables: 1})
	if err != nil {
		t.Fatal(err)
	}
	opts := &analyzer.Options{Rules: rules.All(), Schema: schema}
	for _, sc := range c.Scenarios() {
		for _, d := range analyzer.AnalyzeFile(sc.Path, sc.Source, opts) {
			t.Errorf("%s", d)
		}
	}
}
