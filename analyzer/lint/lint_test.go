package lint

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/analyzer/analyzertest"
	"github.com/joinbench/joinbench/analyzer/rules"
	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/internal/usage"
)

// fakeServer is a live server as Lint sees it.
type fakeServer struct {
	flavor  flavor.Flavor
	plans   []analyzer.Diagnostic
	checked []analyzer.File
}

func (s *fakeServer) Schema(context.Context, string) (*ddl.Schema, flavor.Flavor, error) {
	return analyzertest.Schema(), s.flavor, nil
}

func (s *fakeServer) CheckPlans(_ context.Context, files []analyzer.File, _ *analyzer.Options, _ string) (*PlanReport, error) {
	s.checked = files
	return &PlanReport{Diagnostics: s.plans, Server: "db1:3306", Explained: len(files)}, nil
}

// writeCorpus writes files (name: text) into a new folder and reads them
// as lint does.
func writeCorpus(t *testing.T, files map[string]string) (string, []analyzer.File) {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read, err := ReadFiles(Sources{Paths: []string{dir}, NoBuiltin: true})
	if err != nil {
		t.Fatal(err)
	}
	return dir, read
}

const rightJoinScenario = "-- scenario: r\n-- param m: table(main)\nSELECT m.id FROM level1 RIGHT JOIN {{m}} AS m ON m.l1_id = level1.id;\n"

// TestLintFixesUserFilesOnly: --fix writes the user's file, read again
// and linted as fixed; a built-in scenario is never written.
func TestLintFixesUserFilesOnly(t *testing.T) {
	dir, files := writeCorpus(t, map[string]string{"r.sql": rightJoinScenario})
	builtin, err := corpus.ParseFile("corpus/scenarios/right/b.sql", []byte(strings.Replace(rightJoinScenario, "scenario: r", "scenario: b", 1)))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, analyzer.File{Path: builtin.Path, Source: builtin.Source, Scenario: builtin, Builtin: true})
	written := map[string]string{}
	res, err := Lint(context.Background(), files, Options{Tables: 1, TableName: "main", Fix: true,
		WriteFile: func(path string, b []byte, _ os.FileMode) error { written[path] = string(b); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	user := filepath.Join(dir, "r.sql")
	if len(written) != 1 || !strings.Contains(written[user], "FROM {{m}} AS m LEFT JOIN level1") {
		t.Fatalf("written %v; want only %s, with the LEFT JOIN", written, user)
	}
	if res.Fixed != 1 || res.Files != 2 {
		t.Errorf("fixed %d in %d files, want 1 in 2", res.Fixed, res.Files)
	}
	var right []string
	for _, d := range res.Diagnostics {
		if d.Rule == rules.RightJoin.Name {
			right = append(right, d.Path)
		}
	}
	if len(right) != 1 || right[0] != builtin.Path {
		t.Errorf("right-join findings in %v; want only the built-in's, which is not fixed", right)
	}
	if res.Warnings != len(right) || res.Errors != 0 {
		t.Errorf("counted %d errors, %d warnings; want 0 and %d", res.Errors, res.Warnings, len(right))
	}
}

// TestLintLiveServer: names resolve against a live server's schema and
// its flavour beats lint.conf's (the command line's beats both); the plan
// findings join the static ones, counted.
func TestLintLiveServer(t *testing.T) {
	_, files := writeCorpus(t, map[string]string{
		"lint.conf": "flavor = mysql\n",
		"h.sql":     "-- scenario: h\n-- param m: table(main)\nSELECT /*+ JOIN_ORDER(level1, m) */ m.id FROM {{m}} AS m JOIN level1 ON m.l1_id = level1.id;\n",
	})
	srv := &fakeServer{flavor: flavor.Flavor{Name: flavor.MariaDB, Version: "10.11.9"}}
	srv.plans = []analyzer.Diagnostic{{Path: files[0].Path, Line: 3, Rule: rules.PlanIgnoresJoinOrder.Name, Severity: analyzer.Error, Message: "the plan"}}
	ignored := func(o Options) (int, *Result) {
		res, err := Lint(context.Background(), files, o)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, d := range res.Diagnostics {
			if d.Rule == rules.HintIgnoredByFlavor.Name {
				n++
			}
		}
		return n, res
	}
	if n, _ := ignored(Options{Server: srv}); n != 1 {
		t.Errorf("%d hint-ignored-by-flavor findings on a MariaDB server whose lint.conf says mysql; want 1", n)
	}
	if n, _ := ignored(Options{Server: srv, Flavor: flavor.MySQL}); n != 0 {
		t.Errorf("%d hint-ignored-by-flavor findings with --flavor mysql; want none", n)
	}
	n, res := ignored(Options{Server: srv, CheckPlans: true})
	if res.Plans == nil || res.Plans.Server != "db1:3306" || len(srv.checked) != 1 {
		t.Fatalf("plans %+v, %d files checked", res.Plans, len(srv.checked))
	}
	if srv.checked[0].Options == nil || srv.checked[0].Options.Flavor.Name != flavor.MariaDB {
		t.Errorf("the plan check got options %+v; want the file's, with the server's flavour", srv.checked[0].Options)
	}
	if res.Errors != 1 || res.Warnings != n || len(res.Diagnostics) != n+1 {
		t.Errorf("counted %d errors, %d warnings of %v", res.Errors, res.Warnings, res.Diagnostics)
	}
	if _, err := Lint(context.Background(), files, Options{CheckPlans: true}); err == nil {
		t.Error("checking plans without a server: no error")
	}
}

// TestLintSelectAndIgnore: --select runs only the rules named, --ignore
// turns rules off, both over lint.conf; a misspelt rule is a usage error
// with a suggestion; scenario-format cannot be ignored.
func TestLintSelectAndIgnore(t *testing.T) {
	const src = "-- scenario: two\n-- param m: table(main)\n" +
		"SELECT m.id, m.nosuch FROM level1 RIGHT JOIN {{m}} AS m ON m.l1_id = level1.id;\n"
	_, files := writeCorpus(t, map[string]string{"two.sql": src, "lint.conf": "right-join = off\nunknown-column = info\n"})
	rules := func(o Options) string {
		t.Helper()
		o.Tables, o.TableName = 1, "main"
		res, err := Lint(context.Background(), files, o)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range res.Diagnostics {
			got = append(got, d.Rule+":"+d.Severity.String())
		}
		return strings.Join(got, " ")
	}
	for _, tc := range []struct {
		select_, ignore []string
		want            string
	}{
		{nil, nil, "unknown-column:info"},                                                      // lint.conf alone
		{[]string{"right-join"}, nil, "right-join:warning"},                                    // selected over lint.conf's off
		{[]string{"right-join,unknown-column"}, nil, "unknown-column:info right-join:warning"}, // a comma list; lint.conf's severity kept
		{[]string{"right-join", "unknown-column"}, []string{"right-join"}, "unknown-column:info"},
		{nil, []string{"unknown-column"}, ""},
	} {
		if got := rules(Options{Select: tc.select_, Ignore: tc.ignore}); got != tc.want {
			t.Errorf("--select %v --ignore %v: %q, want %q", tc.select_, tc.ignore, got, tc.want)
		}
	}
	_, err := Lint(context.Background(), files, Options{Select: []string{"rigth-join"}})
	if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), "--select: no rule rigth-join; did you mean right-join?") {
		t.Errorf("misspelt --select: %v", err)
	}
	if _, err := Lint(context.Background(), files, Options{Ignore: []string{analyzer.ScenarioFormat.Name}}); err == nil || !usage.Is(err) {
		t.Errorf("--ignore scenario-format: %v, want a usage error", err)
	}
}
