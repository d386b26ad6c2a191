package main

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/kong"

	"github.com/joinbench/joinbench/analyzer/rules"
	"github.com/joinbench/joinbench/internal/clidoc"
	"github.com/joinbench/joinbench/results"
)

// The pages under docs/ are written by hand; these tests catch the ways
// they go stale without anyone noticing: a flag renamed or removed, a rule
// or a Parquet column added in code and missing from its page, a link to a
// file or heading that is gone.

// generatedPages are the pages under docs/ that commands write: the
// command reference and the rule reference.
var generatedPages = []string{"cli.md", "rules.md"}

// handWrittenPages are the README, ARCHITECTURE.md and every page under
// docs/ but the generated ones.
func handWrittenPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := []string{filepath.Join("..", "..", "README.md"), filepath.Join("..", "..", "ARCHITECTURE.md")}
	for _, p := range pages {
		if !slices.Contains(generatedPages, filepath.Base(p)) {
			out = append(out, p)
		}
	}
	return out
}

func docsPage(name string) string { return filepath.Join("..", "..", "docs", name) }

// kongNegatableDefault is the Negatable of a flag tagged negatable:""
// (its negation is --no-NAME); kong does not export it.
const kongNegatableDefault = "_"

var flagMention = regexp.MustCompile(`--[a-z][a-z0-9-]*`)

func TestDocsMentionOnlyExistingFlags(t *testing.T) {
	parser, err := newParser(&cli{})
	if err != nil {
		t.Fatal(err)
	}
	flags := map[string]bool{}
	var visit func(n *kong.Node)
	visit = func(n *kong.Node) {
		for _, f := range n.Flags {
			if _, renamed := aliasSpec(f); renamed {
				continue // an old spelling: the pages give the new one
			}
			flags[f.Name] = true
			if f.Tag.Negatable == kongNegatableDefault {
				flags["no-"+f.Name] = true
			}
		}
		for _, child := range n.Children {
			visit(child)
		}
	}
	visit(parser.Model.Node)
	// The rule reference is written from the rules' texts, which may
	// name flags too.
	for _, page := range append(handWrittenPages(t), docsPage("rules.md")) {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range flagMention.FindAllString(string(b), -1) {
			if !flags[strings.TrimPrefix(m, "--")] {
				t.Errorf("%s mentions %s, which no joinbench command has", filepath.Base(page), m)
			}
		}
	}
}

func readDoc(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDocsNameEveryLintRule(t *testing.T) {
	page := readDoc(t, "docs/scenarios.md")
	for _, a := range rules.All() {
		if !strings.Contains(page, a.Name) {
			t.Errorf("docs/scenarios.md does not name the lint rule %s", a.Name)
		}
	}
}

func TestDocsNameEveryResultColumn(t *testing.T) {
	page := readDoc(t, "docs/results.md")
	for _, row := range []any{results.Execution{}, results.Plan{}, results.Status{}, results.Action{}, results.Recovery{}} {
		typ := reflect.TypeOf(row)
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("parquet"), ",")
			if name != "" && name != "-" && !strings.Contains(page, "`"+name+"`") {
				t.Errorf("docs/results.md does not describe the %s column %s", typ.Name(), name)
			}
		}
	}
}

var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// Every relative link of the README and the docs pages reaches a file, and
// a #fragment into a Markdown file reaches one of its headings.
func TestDocsLinksResolve(t *testing.T) {
	pages := handWrittenPages(t)
	for _, g := range generatedPages {
		pages = append(pages, docsPage(g))
	}
	for _, page := range pages {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range markdownLink.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if strings.Contains(target, "://") {
				continue
			}
			file, fragment, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
			}
			body, err := os.ReadFile(path)
			if err != nil {
				t.Errorf("%s: link %s: %v", filepath.Base(page), target, err)
				continue
			}
			if fragment != "" && !hasHeading(string(body), fragment) {
				t.Errorf("%s: link %s: no such heading in %s", filepath.Base(page), target, file)
			}
		}
	}
}

func hasHeading(markdown, id string) bool {
	for _, line := range strings.Split(markdown, "\n") {
		if title, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " "); ok && strings.HasPrefix(line, "#") && clidoc.Anchor(title) == id {
			return true
		}
	}
	return false
}
