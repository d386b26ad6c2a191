package main

import (
	"strings"

	"github.com/alecthomas/kong"

	"github.com/joinbench/joinbench/internal/clidoc"
	"github.com/joinbench/joinbench/internal/usage"
)

// helpCmd prints the help of a command, or the reference of every command as
// Markdown. docs/cli.md is the Markdown output, so the reference is written
// by the same struct tags and Help methods that --help prints and cannot
// drift from them. Hidden, so that joinbench --help stays a list of the
// commands that do the work.
type helpCmd struct {
	Command  []string `arg:"" optional:"" help:"Command to describe, as words: 'sandbox start'. Default: all of them."`
	Markdown bool     `help:"Print the reference of the command and its subcommands as Markdown (docs/cli.md is this output for the whole command line)."`
}

func (c *helpCmd) Help() string {
	return `Without --markdown, prints what "joinbench COMMAND --help" prints.

Examples:
  joinbench help sandbox start
  joinbench help --markdown > docs/cli.md`
}

func (c *helpCmd) Run(kctx *kong.Context) error {
	traced, err := kong.Trace(kctx.Kong, c.Command)
	if err == nil {
		err = traced.Error
	}
	if err != nil {
		return usage.Errorf("help %s: %w", strings.Join(c.Command, " "), err)
	}
	if !c.Markdown {
		return traced.PrintUsage(false)
	}
	node := traced.Selected()
	if node == nil {
		node = kctx.Model.Node
	}
	return clidoc.WriteMarkdown(kctx.Stdout, kctx.Model, node, clidoc.Section{Title: "Conventions", Text: conventions})
}
