package main

import (
	"github.com/alecthomas/kong"

	"github.com/joinbench/joinbench/internal/clidoc"
)

// manCmd prints the manual page, written from the same model as --help
// and docs/cli.md; docs/joinbench.1 is its output, checked by a test.
type manCmd struct{}

func (manCmd) Help() string {
	return `Examples:
  joinbench man | man -l -
  joinbench man > /usr/local/share/man/man1/joinbench.1`
}

func (c *manCmd) Run(kctx *kong.Context) error {
	return clidoc.WriteManPage(kctx.Stdout, kctx.Model, manPage)
}

// manPage holds what the model does not say.
var manPage = clidoc.Page{
	Section: 1,
	Manual:  "User Commands",
	Sections: []clidoc.Section{
		{Title: "Conventions", Text: conventions},
		{Title: "Exit status", Text: `0 success; 1 failure, lint findings at error severity, or a regression
found by compare or ab; 2 a usage mistake (a bad flag, a bad file, an
unreachable server), printed as one line; 130 interrupted (Ctrl-C or
SIGTERM: what was done is kept; a second Ctrl-C exits at once).`},
		{Title: "Files", Text: `results/run=ID/ holds a run: executions, plans and status as Parquet
files, and run.json.

lint.conf, in a linted file's folder or any folder above it, sets the
lint rules' severities (lint --config names one).`},
		{Title: "See also", Text: `The documentation at https://github.com/joinbench/joinbench: docs/cli.md
(this reference as Markdown), docs/workflow.md, docs/compare.md,
docs/results.md, docs/scale-out.md.`},
	},
}
