package lint

import (
	"context"
	"reflect"
	"runtime"
	"testing"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/analyzer/analyzertest"
	"github.com/joinbench/joinbench/analyzer/rules"
)

// TestWorkerReuseKeepsFindings: a worker of AnalyzeAll lints file after
// file in the same buffers (tokens, depths, lines, offsets, the
// resolution's map); what it finds in a file must be what a fresh
// analysis of that file alone finds, whatever file came before. One P
// makes one worker go through every file of the rules' test data.
func TestWorkerReuseKeepsFindings(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	files, err := ReadFiles(Sources{Paths: []string{"../rules/testdata"}, NoBuiltin: true})
	if err != nil {
		t.Fatal(err)
	}
	opts := &analyzer.Options{Schema: analyzertest.Schema(), Rules: rules.All()}
	all, err := analyzer.AnalyzeAll(context.Background(), files, opts)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string][]analyzer.Diagnostic{}
	for _, d := range all {
		byPath[d.Path] = append(byPath[d.Path], d)
	}
	found := 0
	for _, f := range files {
		alone, err := analyzer.AnalyzeAll(context.Background(), []analyzer.File{f}, opts)
		if err != nil {
			t.Fatal(err)
		}
		found += len(alone)
		if got := byPath[f.Path]; !reflect.DeepEqual(got, alone) && len(got)+len(alone) > 0 {
			t.Errorf("%s: after other files %v\nalone %v", f.Path, got, alone)
		}
	}
	if found == 0 {
		t.Fatal("no findings in the rules' test data")
	}
}
