package main

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/replay/results"
)

// The pages under docs/ are written by hand; these tests catch the ways
// they go stale without anyone noticing: a rule or a Parquet column added
// in code and missing from its page, a link to a file or heading that is
// gone.

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
	for _, a := range analyzer.Analyzers() {
		if !strings.Contains(page, a.Name) {
			t.Errorf("docs/scenarios.md does not name the lint rule %s", a.Name)
		}
	}
}

func TestDocsNameEveryResultColumn(t *testing.T) {
	page := readDoc(t, "docs/results.md")
	for _, row := range []any{results.Execution{}, results.Plan{}, results.Status{}} {
		typ := reflect.TypeOf(row)
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("parquet"), ",")
			if name != "" && !strings.Contains(page, "`"+name+"`") {
				t.Errorf("docs/results.md does not describe the %s column %s", typ.Name(), name)
			}
		}
	}
}

var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// Every relative link of the README and the docs pages reaches a file, and
// a #fragment into a Markdown file reaches one of its headings.
func TestDocsLinksResolve(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, filepath.Join("..", "..", "README.md"))
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
		if title, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " "); ok && strings.HasPrefix(line, "#") && anchor(title) == id {
			return true
		}
	}
	return false
}
