package main

import (
	"context"
	"fmt"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/analyzer/rules"
	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/usage"
)

// rewriteCmd prints a scenario with its RIGHT JOINs rewritten.
type rewriteCmd struct {
	corpusFlags
	Name string `arg:"" help:"Scenario name, as joinbench list shows it."`
}

func (c *rewriteCmd) Help() string {
	return `Prints the scenario file with every RIGHT JOIN rewritten to the equivalent
LEFT JOIN: operands swapped, a joined left operand kept together in
parentheses so the nesting means the same, header, comments, hints and
placeholders untouched. The file itself is not changed (joinbench lint --fix
does that for files on disk). A user file that does not load is reported
on stderr (file:line:col: message) without hiding the others: the scenario
is printed if its own file loads, and the exit code is 2.

Examples:
  joinbench rewrite multi_right_pk
  joinbench rewrite my_scenario --corpus ./scenarios > my_scenario_left.sql`
}

func (c *rewriteCmd) Run(ctx context.Context, cl *cli) error {
	s, broken, err := c.scenario(c.Name)
	if err != nil {
		return err
	}
	schema, err := ddl.BuiltinSchema(ddl.SchemaOptions{})
	if err != nil {
		return usage.Wrap(err)
	}
	out, err := rules.RewriteRightJoins(s.Path, s.Source, &analyzer.Options{Schema: schema})
	if err != nil {
		return err
	}
	fmt.Print(out)
	return broken
}
