package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/internal/usage"
)

// corpusFlags choose the scenarios: the built-in corpus plus user folders.
// Embed them in any command that reads scenarios.
type corpusFlags struct {
	Corpus    []string `type:"existingdir" placeholder:"DIR" help:"Add the scenarios (*.sql) and value lists (NAME.list) of a folder, searched recursively (repeatable)."`
	Override  bool     `help:"Let a scenario or list of a --corpus folder replace the built-in one of the same name (otherwise that is an error)."`
	NoBuiltin bool     `help:"Leave the built-in scenarios out: use only the --corpus folders."`
}

// brokenCorpus is returned by a command whose corpus has files that do
// not load, once it has done its work with the others: their mistakes
// are already on stderr, and the exit status is 2.
type brokenCorpus struct{}

func (brokenCorpus) Error() string { return "" }
func (brokenCorpus) ExitCode() int { return 2 }

// load reads the chosen corpus. A file that does not load is left out:
// each of its mistakes is printed on stderr as file:line:col: message, and
// broken (non-nil) is for the command to return once its output is
// written, so that one bad file never hides the rest of the corpus.
func (f *corpusFlags) load() (cp *corpus.Corpus, bad []*corpus.File, broken error, err error) {
	cp, bad, err = corpus.LoadValid(corpus.LoadOptions{Dirs: f.Corpus, Override: f.Override, NoBuiltin: f.NoBuiltin})
	if err != nil {
		return nil, nil, nil, err
	}
	for _, b := range bad {
		for _, e := range b.Mistakes() {
			fmt.Fprintln(os.Stderr, "joinbench:", e)
		}
	}
	if len(bad) > 0 {
		broken = brokenCorpus{}
	}
	return cp, bad, broken, nil
}

// scenario loads the chosen corpus and returns the named scenario, or a
// user error suggesting near names (or saying that the file of that name
// does not load). broken is as load's.
func (f *corpusFlags) scenario(name string) (s *corpus.Scenario, broken error, err error) {
	cp, bad, broken, err := f.load()
	if err != nil {
		return nil, nil, err
	}
	s, err = cp.Lookup(name)
	if err != nil {
		for _, b := range bad {
			if strings.TrimSuffix(filepath.Base(b.Path), ".sql") == name {
				return nil, nil, usage.Errorf("scenario %q: %s does not load (its mistakes are above)", name, b.Path)
			}
		}
		return nil, nil, err
	}
	return s, broken, nil
}
