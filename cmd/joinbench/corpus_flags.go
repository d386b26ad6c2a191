package main

import (
	"github.com/joinbench/joinbench/corpus"
)

// corpusFlags choose the scenarios: the built-in corpus plus user folders.
// Embed them in any command that reads scenarios.
type corpusFlags struct {
	Corpus    []string `type:"existingdir" placeholder:"DIR" help:"Add the scenarios (*.sql) and value lists (NAME.list) of a folder, searched recursively (repeatable)."`
	Override  bool     `help:"Let a scenario or list of a --corpus folder replace the built-in one of the same name (otherwise that is an error)."`
	NoBuiltin bool     `help:"Leave the built-in scenarios out: use only the --corpus folders."`
}

// load reads the chosen corpus.
func (f *corpusFlags) load() (*corpus.Corpus, error) {
	return corpus.Load(corpus.LoadOptions{Dirs: f.Corpus, Override: f.Override, NoBuiltin: f.NoBuiltin})
}

// scenario loads the chosen corpus and returns the named scenario, or a
// user error suggesting near names.
func (f *corpusFlags) scenario(name string) (*corpus.Scenario, error) {
	cp, err := f.load()
	if err != nil {
		return nil, err
	}
	return cp.Lookup(name)
}
