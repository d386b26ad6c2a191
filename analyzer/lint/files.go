package lint

import (
	"os"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/internal/usage"
)

// Sources say what to lint.
type Sources struct {
	// Paths are files and folders: a folder is read as a corpus folder
	// (searched recursively, its NAME.list value lists included), a file
	// with the NAME.list files beside it. None: the built-in corpus and
	// the Corpus folders.
	Paths []string
	// Corpus are more corpus folders (--corpus).
	Corpus []string
	// Override lets a user's scenario or list replace the built-in one of
	// the same name; NoBuiltin leaves the built-in scenarios out.
	Override, NoBuiltin bool
}

// ReadFiles gathers the files to lint through the corpus loader, as list,
// show and run read them, so that lint accepts and refuses what they do.
// The built-in scenarios are read too (and linted only when no path is
// given), so that a name defined twice is found. A file the loader
// refuses comes with its mistake.
func ReadFiles(src Sources) ([]analyzer.File, error) {
	// The rules parse each statement themselves: the loader's kinds are
	// classified only where --check-plans asks for them.
	opts := corpus.LoadOptions{Override: src.Override, NoBuiltin: src.NoBuiltin, LazyKinds: true}
	for _, root := range src.Paths {
		st, err := os.Stat(root)
		if err != nil {
			return nil, usage.Errorf("%v", err)
		}
		if st.IsDir() {
			opts.Dirs = append(opts.Dirs, root)
		} else {
			opts.Files = append(opts.Files, root)
		}
	}
	opts.Dirs = append(opts.Dirs, src.Corpus...)
	_, read, err := corpus.Check(opts)
	if err != nil {
		return nil, err
	}
	var out []analyzer.File
	for _, f := range read {
		if f.Builtin && len(src.Paths) > 0 || f.Scenario == nil && f.Err == nil {
			continue // a built-in scenario not asked for, or a list that loaded
		}
		out = append(out, analyzer.File{Path: f.Path, Source: f.Source, Scenario: f.Scenario, Err: f.Err, More: f.More, Builtin: f.Builtin})
	}
	if len(out) == 0 {
		return nil, usage.Errorf("no .sql files to lint")
	}
	return out, nil
}
