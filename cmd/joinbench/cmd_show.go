package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/usage"
)

// showCmd prints one scenario and a rendering of it.
type showCmd struct {
	corpusFlags
	Name         string `arg:"" help:"Scenario name, as joinbench list shows it."`
	Seed         uint64 `default:"1" help:"Seed of the parameter values: the same seed renders the same values."`
	ThreadID     int    `default:"0" placeholder:"N" help:"Render the values that worker thread N (from 0, the thread column of the results) would draw first."`
	Thread       int    `hidden:"" renamed:"thread-id" help:"Old spelling of --thread-id."`
	Renders      int    `default:"1" placeholder:"N" help:"How many renderings to print."`
	Tables       int    `default:"1" help:"Number of main tables a table(main) parameter chooses from (main1..mainN)."`
	TableSize    int64  `default:"10000" help:"Rows per table: id(table) parameters draw in 1..SIZE."`
	TableName    string `default:"main" help:"Prefix of the main tables."`
	Schema       string `type:"existingfile" placeholder:"FILE.sql" help:"Render against the CREATE TABLE statements of this file instead of the built-in schema: a --corpus on your own tables."`
	Distribution string `enum:"uniform,gaussian,pareto,zipf,hotspot" default:"uniform" help:"Default distribution of the parameters that declare none: uniform, gaussian, pareto, zipf or hotspot."`
}

func (c *showCmd) Help() string {
	return `Prints the scenario file as written, then renders it against the built-in
schema (no server needed): each statement's SQL exactly as the replay
engine prepares it, with ? for bound values and table parameters
substituted as quoted names, followed by the values bound to it.

A user file that does not load is reported on stderr (file:line:col:
message) without hiding the others: the scenario is shown if its own file
loads, and the exit code is 2.

Examples:
  joinbench show simple_inner_pk
  joinbench show delete_inserts --seed 7 --renders 3 --tables 4`
}

func (c *showCmd) Run(ctx context.Context, cl *cli) error {
	s, broken, err := c.scenario(c.Name)
	if err != nil {
		return err
	}
	if c.Renders < 0 {
		return usage.Errorf("--renders must be 0 or more, got %d", c.Renders)
	}
	schema, err := showSchema(c.Schema, c.Tables, c.TableName)
	if err != nil {
		return err
	}
	tmpl, err := corpus.Compile(s, schema, corpus.CompileOptions{
		Tables: c.Tables, TableSize: c.TableSize, Distribution: c.Distribution, TableName: c.TableName})
	if err != nil {
		return err
	}
	out := os.Stdout
	fmt.Fprintf(out, "-- file: %s\n", s.Path)
	fmt.Fprint(out, s.Source)
	if !strings.HasSuffix(s.Source, "\n") {
		fmt.Fprintln(out)
	}
	kinds := make([]string, len(s.Statements))
	for i, st := range s.Statements {
		kinds[i] = string(st.Kind)
	}
	fmt.Fprintf(out, "\n-- template hash %s, %d statement(s) (%s), write: %v\n", tmpl.Hash, tmpl.Statements(), strings.Join(kinds, ", "), tmpl.Write)
	names := tmpl.ParamNames()
	r := tmpl.NewRenderer(c.Seed, c.ThreadID)
	for n := 0; n < c.Renders; n++ {
		stmts := r.Next()
		vals := r.Values(nil)
		fmt.Fprintf(out, "\n-- rendering %d (seed %d, thread %d):", n+1, c.Seed, c.ThreadID)
		for i, v := range vals {
			fmt.Fprintf(out, " %s=%s", names[i], quoteValue(v))
		}
		fmt.Fprintln(out)
		for i, st := range stmts {
			fmt.Fprintf(out, "-- statement %d\n%s;\n", i, st.SQL)
			if len(st.Args) > 0 {
				args := make([]string, len(st.Args))
				for k, a := range st.Args {
					args[k] = fmt.Sprintf("%d: %s", k+1, quoteArg(a))
				}
				fmt.Fprintf(out, "-- bound: %s\n", strings.Join(args, ", "))
			}
		}
	}
	return broken
}

func quoteValue(v string) string {
	if v == "" || strings.ContainsAny(v, " \t'\"") {
		return fmt.Sprintf("%q", v)
	}
	return v
}

func quoteArg(a any) string {
	if s, ok := a.(string); ok {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return fmt.Sprint(a)
}

// showSchema is the model show renders against: the file's, else the
// built-in one.
func showSchema(file string, tables int, tableName string) (*ddl.Schema, error) {
	if file == "" {
		s, err := ddl.BuiltinSchema(ddl.SchemaOptions{Tables: tables, TableName: tableName})
		if err != nil {
			return nil, usage.Wrap(err)
		}
		return s, nil
	}
	s, err := schemaFile(file)
	if err != nil {
		return nil, err
	}
	s.GroupFamily(tableName)
	return s, nil
}
