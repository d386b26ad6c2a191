package action

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Jobs note what they did in an Outcome; only the runner's files make rows
// of results, so a new kind never touches the results' format.
func TestOnlyTheRunnerWritesRows(t *testing.T) {
	runner := []string{"env.go", "rows.go", "runner.go"}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || slices.Contains(runner, f) {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range file.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "github.com/joinbench/joinbench/results" {
				t.Errorf("%s imports results: a job notes its Outcome, the runner (%s) makes rows", f, strings.Join(runner, ", "))
			}
		}
	}
}
