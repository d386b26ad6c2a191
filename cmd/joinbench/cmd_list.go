package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/joinbench/joinbench/corpus"
)

// listCmd prints the scenarios of the corpus.
type listCmd struct {
	corpusFlags
	Tags   []string `sep:"," placeholder:"TAG" help:"Show only the scenarios that carry one of these tags, as run --tags chooses them; join tags with + to require each (left+hint). The family is a tag too: inner, left, right, derived, semi_anti, update, write."`
	Format string   `short:"f" enum:"text,json" default:"text" help:"Output format: text (a table) or json (an array: name, family, tags, description, path, builtin, count, statements, kinds, params)."`
	JSON   bool     `hidden:"" aliasof:"format=json" help:"Print a JSON array: --format json."`
}

func (c *listCmd) Help() string {
	return `Lists the scenarios of the built-in corpus and of any --corpus folders,
sorted by family then name: NAME, FAMILY, KIND, TAGS and DESCRIPTION.
KIND is read when every statement is a plain read, else the kinds of those
that are not (dml, ddl, locking-read, select-into, set, call, lock-tables,
transaction, other, unparsed): run --read-only refuses those scenarios.
Works offline; every file is parsed and checked. A user file that does
not load is left out of the list and each of its mistakes is reported on
stderr as file:line:col: message; the other scenarios are listed, and the
exit code is 2.

Examples:
  joinbench list
  joinbench list --tags left,right          # left or right joins
  joinbench list --tags left+multilevel     # multilevel left joins
  joinbench list --corpus ./my-scenarios --format json`
}

type listedParam struct {
	Name         string   `json:"name"`
	Type         string   `json:"type"`
	Args         []string `json:"args,omitempty"`
	Distribution string   `json:"distribution,omitempty"`
}

type listedScenario struct {
	Name        string        `json:"name"`
	Family      string        `json:"family"`
	Tags        []string      `json:"tags"`
	Description string        `json:"description"`
	Path        string        `json:"path"`
	Builtin     bool          `json:"builtin"`
	Count       int           `json:"count"`
	Statements  int           `json:"statements"`
	Kinds       []string      `json:"kinds"` // each statement's kind, in order
	Params      []listedParam `json:"params"`
}

func (c *listCmd) Run(ctx context.Context, cl *cli) error {
	cp, _, broken, err := c.load()
	if err != nil {
		return err
	}
	scenarios := cp.Scenarios()
	if len(c.Tags) > 0 {
		if scenarios, err = cp.Tagged(c.Tags); err != nil {
			return err
		}
	}
	var out []listedScenario
	for _, s := range scenarios {
		ls := listedScenario{Name: s.Name, Family: s.Family, Tags: s.Tags, Description: s.Description,
			Path: s.Path, Builtin: s.Builtin, Count: s.Count, Statements: len(s.Statements), Params: []listedParam{}}
		if ls.Tags == nil {
			ls.Tags = []string{}
		}
		for _, st := range s.Statements {
			ls.Kinds = append(ls.Kinds, string(st.Kind))
		}
		for _, p := range s.Params {
			ls.Params = append(ls.Params, listedParam{Name: p.Name, Type: p.Kind, Args: p.Args, Distribution: p.Distribution})
		}
		out = append(out, ls)
	}
	if c.Format == "json" {
		if out == nil {
			out = []listedScenario{}
		}
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return err
		}
		return broken
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tFAMILY\tKIND\tTAGS\tDESCRIPTION")
	for _, s := range out {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", s.Name, s.Family, s.kind(), strings.Join(s.Tags, ","), s.Description)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if !cl.Quiet {
		fmt.Fprintf(os.Stderr, "%d scenarios\n", len(out))
	}
	return broken
}

// kind is the scenario's KIND column: read when every statement is a
// plain read, else the other kinds, each once.
func (s listedScenario) kind() string {
	var writes []string
	for _, k := range s.Kinds {
		if !corpus.StmtKind(k).PlainRead() && !slices.Contains(writes, k) {
			writes = append(writes, k)
		}
	}
	if len(writes) == 0 {
		return string(corpus.StmtRead)
	}
	return strings.Join(writes, ",")
}
