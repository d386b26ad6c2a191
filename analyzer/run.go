package analyzer

import (
	"context"
	"runtime"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

// File is one file to lint.
type File struct {
	Path   string
	Source string
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
				results[i] = AnalyzeFile(files[i].Path, files[i].Source, o)
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
