package analyzer

import (
	"context"
	"runtime"

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
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i := range files {
		if err := ctx.Err(); err != nil {
			break
		}
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			o := files[i].Options
			if o == nil {
				o = opts
			}
			results[i] = AnalyzeFile(files[i].Path, files[i].Source, o)
			return nil
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
