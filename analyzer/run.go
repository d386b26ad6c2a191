package analyzer

import (
	"context"
	"runtime"
	"sync/atomic"

	"github.com/pingcap/tidb/pkg/parser"
	"golang.org/x/sync/errgroup"

	"github.com/joinbench/joinbench/corpus"
)

// File is one file to lint.
type File struct {
	Path   string
	Source string
	// Scenario is the file as the corpus loader read it (corpus.Check),
	// which resolves its corpus's value lists; nil reads Source on its
	// own, as AnalyzeFile does.
	Scenario *corpus.Scenario
	// Err is the loader's (first) mistake in the file: a finding of rule
	// scenario-format, the one error list, show and run print.
	Err *corpus.Error
	// More are the file's further loader mistakes, independent of Err
	// (corpus.File.More): each is a finding too.
	More []*corpus.Error
	// Builtin marks a built-in scenario: never fixed in place, and ruled
	// by the defaults rather than a lint.conf.
	Builtin bool
	// Options for this file (from its lint.conf); nil means the defaults
	// given to AnalyzeAll.
	Options *Options
}

// AnalyzeAll lints files in parallel (files are independent) and returns
// the findings in path order.
func AnalyzeAll(ctx context.Context, files []File, opts *Options) ([]Diagnostic, error) {
	results := make([][]Diagnostic, len(files))
	// A fixed set of workers taking files in turn: each keeps the stack
	// the parser grew, which goroutine-per-file would grow again each time.
	var next atomic.Int64
	g, ctx := errgroup.WithContext(ctx)
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(files)); w++ {
		g.Go(func() error {
			w := &scratch{p: parser.New()} // the worker's, reused file after file
			for {
				i := int(next.Add(1) - 1)
				if i >= len(files) {
					return nil
				}
				if err := ctx.Err(); err != nil {
					return err
				}
				o := files[i].Options
				if o == nil {
					o = opts
				}
				results[i] = files[i].analyze(w, o)
			}
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	var out []Diagnostic
	for _, r := range results {
		out = append(out, r...)
	}
	sortDiagnostics(out)
	return out, nil
}

func (f *File) analyze(w *scratch, opts *Options) []Diagnostic {
	switch {
	case f.Err != nil:
		return loadFindings(append([]*corpus.Error{f.Err}, f.More...), f.Source)
	case f.Scenario != nil:
		return analyze(w, f.Scenario.Path, f.Scenario.Source, f.Scenario, opts)
	}
	return analyzeFile(w, f.Path, f.Source, opts)
}
