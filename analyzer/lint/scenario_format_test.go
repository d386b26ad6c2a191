package lint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/analyzer/analyzertest"
	"github.com/joinbench/joinbench/analyzer/rules"
	"github.com/joinbench/joinbench/corpus"
)

// TestAnalyzeAllUsesTheLoader: a file the loader refused is its mistake
// alone, whatever lint.conf says; a loaded scenario is analysed with its
// corpus's value lists, and fixed with them.
func TestAnalyzeAllUsesTheLoader(t *testing.T) {
	dir := t.TempDir()
	for p, src := range map[string]string{
		"regions.list": "Europe\nAsia\n",
		"by_region.sql": "-- param r: list(regions)\n" +
			"SELECT l2.id FROM level2 AS l2 RIGHT JOIN level1 ON level1.id = l2.l1_id WHERE level1.continent = {{r}};\n",
		"neg.sql": "-- count: -5\nSELECT 1;\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, read, err := corpus.Check(corpus.LoadOptions{Dirs: []string{dir}, NoBuiltin: true})
	if err != nil {
		t.Fatal(err)
	}
	var files []analyzer.File
	var sc *corpus.Scenario
	for _, f := range read {
		if f.Scenario != nil || f.Err != nil {
			files = append(files, analyzer.File{Path: f.Path, Source: f.Source, Scenario: f.Scenario, Err: f.Err})
		}
		if f.Scenario != nil {
			sc = f.Scenario
		}
	}
	opts := &analyzer.Options{Rules: rules.All(), Schema: analyzertest.Schema(), Severity: map[string]analyzer.Severity{analyzer.ScenarioFormat.Name: analyzer.Off}}
	diags, err := analyzer.AnalyzeAll(context.Background(), files, opts)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range diags {
		got = append(got, filepath.Base(d.Path)+":"+d.Rule)
	}
	if strings.Join(got, " ") != "by_region.sql:right-join neg.sql:scenario-format" {
		t.Errorf("findings %q, want the RIGHT JOIN and the loader's mistake only", got)
	}
	fixed, n := analyzer.FixScenario(sc, opts)
	if n != 1 || !strings.Contains(fixed, "FROM level1 LEFT JOIN level2 AS l2") {
		t.Fatalf("fix: %d edits\n%s", n, fixed)
	}
	again, err := sc.Reparse([]byte(fixed))
	if err != nil {
		t.Fatal(err)
	}
	if d := analyzer.AnalyzeScenario(again, opts); len(d) != 0 {
		t.Errorf("after the fix: %v", d)
	}
}

// TestConfigCannotSilenceTheLoader: list and run refuse what
// scenario-format reports, so lint.conf may not change its severity.
func TestConfigCannotSilenceTheLoader(t *testing.T) {
	for _, sev := range []string{"off", "warning", "error"} {
		if _, err := ParseConfig("lint.conf", []byte("scenario-format = "+sev+"\n")); err == nil ||
			!strings.Contains(err.Error(), "lint.conf:1: scenario-format cannot be changed") {
			t.Errorf("scenario-format = %s: %v", sev, err)
		}
	}
}

// TestEveryLoaderMistakeIsAFinding: lint reports each independent mistake
// of a file (the loader's File.More), not only the first that run stops
// at; unknown lists are mistakes one by one too, beside the file's others.
func TestEveryLoaderMistakeIsAFinding(t *testing.T) {
	dir := t.TempDir()
	src := "-- scenario: many\n-- count: -5\n-- param r: list(regions)\n-- param s: list(seas)\n" +
		"SELECT id FROM level1 WHERE continent = {{r}} AND id = ? AND code = {{s}};\n"
	if err := os.WriteFile(filepath.Join(dir, "many.sql"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	lists := "-- scenario: lists\n-- param r: list(regions)\n-- param s: list(seas)\n" +
		"SELECT id FROM level1 WHERE continent = {{r}} AND code = {{s}};\n"
	if err := os.WriteFile(filepath.Join(dir, "lists.sql"), []byte(lists), 0o644); err != nil {
		t.Fatal(err)
	}
	_, read, err := corpus.Check(corpus.LoadOptions{Dirs: []string{dir}, NoBuiltin: true})
	if err != nil {
		t.Fatal(err)
	}
	var files []analyzer.File
	for _, f := range read {
		files = append(files, analyzer.File{Path: f.Path, Source: f.Source, Scenario: f.Scenario, Err: f.Err, More: f.More})
	}
	diags, err := analyzer.AnalyzeAll(context.Background(), files, &analyzer.Options{Rules: rules.All(), Schema: analyzertest.Schema()})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range diags {
		got = append(got, fmt.Sprintf("%s:%d:%d %s", filepath.Base(d.Path), d.Line, d.Col, d.Rule))
	}
	want := []string{
		"lists.sql:2:18 scenario-format", "lists.sql:3:18 scenario-format", // list(regions), list(seas)
		// count, list(regions), list(seas), bare ?: the file's own
		// mistakes do not hide its unknown lists
		"many.sql:2:11 scenario-format", "many.sql:3:18 scenario-format", "many.sql:4:18 scenario-format", "many.sql:5:56 scenario-format",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("findings:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
