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
	Tags []string `short:"t" sep:"," placeholder:"TAG,..." help:"Show only scenarios that carry every one of these tags (the family is a tag too: inner, left, right, derived, semi_anti, update, write)."`
	JSON bool     `help:"Print a JSON array (name, family, tags, description, path, builtin, count, params) instead of a table."`
}

func (c *listCmd) Help() string {
	return `Lists the scenarios of the built-in corpus and of any --corpus folders,
sorted by family then name: NAME, FAMILY, TAGS and DESCRIPTION. Works
offline; every file is parsed and checked, so a broken user file is
reported with its file:line:col and exit code 2.

Examples:
  joinbench list
  joinbench list --tags left,multilevel
  joinbench list --corpus ./my-scenarios --json`
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
	Params      []listedParam `json:"params"`
}

func (c *listCmd) Run(ctx context.Context, cl *cli) error {
	cp, err := c.load()
	if err != nil {
		return err
	}
	var out []listedScenario
	for _, s := range cp.Scenarios() {
		if !hasTags(s, c.Tags) {
			continue
		}
		ls := listedScenario{Name: s.Name, Family: s.Family, Tags: s.Tags, Description: s.Description,
			Path: s.Path, Builtin: s.Builtin, Count: s.Count, Statements: len(s.Statements), Params: []listedParam{}}
		if ls.Tags == nil {
			ls.Tags = []string{}
		}
		for _, p := range s.Params {
			ls.Params = append(ls.Params, listedParam{Name: p.Name, Type: p.Kind, Args: p.Args, Distribution: p.Distribution})
		}
		out = append(out, ls)
	}
	if c.JSON {
		if out == nil {
			out = []listedScenario{}
		}
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tFAMILY\tTAGS\tDESCRIPTION")
	for _, s := range out {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", s.Name, s.Family, strings.Join(s.Tags, ","), s.Description)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if !cl.Quiet {
		fmt.Fprintf(os.Stderr, "%d scenarios\n", len(out))
	}
	return nil
}

func hasTags(s *corpus.Scenario, want []string) bool {
	for _, t := range want {
		if t = strings.TrimSpace(t); t != "" && !slices.Contains(s.Tags, t) {
			return false
		}
	}
	return true
}
