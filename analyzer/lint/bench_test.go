package lint

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/analyzer/output"
	"github.com/joinbench/joinbench/analyzer/rules"
	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/ddl"
)

func builtinFiles(b *testing.B) ([]analyzer.File, *analyzer.Options) {
	c, err := corpus.LoadBuiltin()
	if err != nil {
		b.Fatal(err)
	}
	schema, err := ddl.BuiltinSchema(ddl.SchemaOptions{Tables: 1})
	if err != nil {
		b.Fatal(err)
	}
	var files []analyzer.File
	for _, s := range c.Scenarios() {
		files = append(files, analyzer.File{Path: s.Path, Source: s.Source})
	}
	return files, &analyzer.Options{Rules: rules.All(), Schema: schema}
}

// BenchmarkBuiltinCorpus lints the 45 built-in scenarios (target < 50 ms).
func BenchmarkBuiltinCorpus(b *testing.B) {
	files, opts := builtinFiles(b)
	b.ResetTimer()
	for b.Loop() {
		if _, err := analyzer.AnalyzeAll(context.Background(), files, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGenerated10k lints a generated corpus of 10,000 files, copies
// of the built-in scenarios under distinct names (target < 2 s on 2 cores).
func BenchmarkGenerated10k(b *testing.B) {
	base, opts := builtinFiles(b)
	files := make([]analyzer.File, 10000)
	for i := range files {
		f := base[i%len(base)]
		name := f.Path[strings.LastIndexByte(f.Path, '/')+1 : len(f.Path)-4]
		files[i] = analyzer.File{Path: fmt.Sprintf("gen/%05d/%s.sql", i, name), Source: f.Source}
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := analyzer.AnalyzeAll(context.Background(), files, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuiltinCorpus100kTables builds the built-in schema with
// 100,000 main tables and lints the built-in scenarios against it, as
// `joinbench lint --tables 100000` does (was 69 s: a parse per table and
// a sort of every table per family lookup; now about a second).
func BenchmarkBuiltinCorpus100kTables(b *testing.B) {
	files, _ := builtinFiles(b)
	for b.Loop() {
		schema, err := ddl.BuiltinSchema(ddl.SchemaOptions{Tables: 100000})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := analyzer.AnalyzeAll(context.Background(), files, &analyzer.Options{Rules: rules.All(), Schema: schema}); err != nil {
			b.Fatal(err)
		}
	}
}

// writeGenerated writes n scenario files to a new folder, copies of the
// built-in scenarios each renamed (file and header), in folders of 100:
// the corpus bench/lint.sh times the command on.
func writeGenerated(b *testing.B, n int) string {
	base, _ := builtinFiles(b)
	dir := b.TempDir()
	for i := 0; i < n; i++ {
		f := base[i%len(base)]
		name := f.Path[strings.LastIndexByte(f.Path, '/')+1 : len(f.Path)-4]
		gen := fmt.Sprintf("%s_%05d", name, i)
		src := strings.Replace(f.Source, "-- scenario: "+name, "-- scenario: "+gen, 1)
		sub := filepath.Join(dir, fmt.Sprintf("%03d", i/100))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sub, gen+".sql"), []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// BenchmarkLoadedCorpus1k is lint's whole path on a folder of 1,000
// scenario files: the corpus loader reads and checks them, the rules run,
// the findings are written as JSON.
func BenchmarkLoadedCorpus1k(b *testing.B) { benchmarkLint(b, 1000) }

// BenchmarkLoadedCorpus10k is the same on 10,000 files, what `joinbench
// lint --no-builtin --format json DIR` does (bench/lint.sh times the
// command itself).
func BenchmarkLoadedCorpus10k(b *testing.B) { benchmarkLint(b, 10000) }

func benchmarkLint(b *testing.B, n int) {
	dir := writeGenerated(b, n)
	b.ResetTimer()
	for b.Loop() {
		files, err := ReadFiles(Sources{Paths: []string{dir}, NoBuiltin: true})
		if err != nil {
			b.Fatal(err)
		}
		res, err := Lint(context.Background(), files, Options{Tables: 1, TableName: "main"})
		if err != nil {
			b.Fatal(err)
		}
		if err := output.WriteJSON(io.Discard, res.Diagnostics); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckPlanBuiltin is the analyzer's share of lint --check-plans
// on the built-in corpus: every scenario compared with a plan that reads
// its tables in FROM order (the server's share is the EXPLAINs).
func BenchmarkCheckPlanBuiltin(b *testing.B) {
	files, opts := builtinFiles(b)
	plans := make([]*analyzer.Plan, len(files))
	for i, f := range files {
		u := analyzer.Inspect(f.Path, f.Source, nil, opts)
		plans[i] = &analyzer.Plan{}
		for _, r := range u.TableRefs {
			plans[i].Tables = append(plans[i].Tables, analyzer.PlanTable{SelectID: 1, Name: r.Visible(), Access: "ref", Keys: []string{"PRIMARY"}})
		}
	}
	b.ResetTimer()
	for b.Loop() {
		for i, f := range files {
			analyzer.CheckPlan(f.Path, f.Source, opts, plans[i])
		}
	}
}
