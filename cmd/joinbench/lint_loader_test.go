package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTree writes files (slash paths relative to dir) and returns dir.
func writeTree(t *testing.T, dir string, files map[string]string) string {
	t.Helper()
	for p, src := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

type lintFinding struct {
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Col      int    `json:"column"`
	EndLine  int    `json:"end_line"`
	EndCol   int    `json:"end_column"`
	Severity string `json:"severity"`
	Rule     string `json:"rule"`
	Message  string `json:"message"`
}

// TestLintAndListAgree: lint reads a corpus through the loader list, show
// and run use. A file they refuse with exit code 2 is a lint finding of
// rule scenario-format at the same file:line:col, with the same message;
// a scenario using a NAME.list of its corpus is clean for both.
func TestLintAndListAgree(t *testing.T) {
	const sel = "SELECT id FROM level1 WHERE id = 1;\n"
	tests := []struct {
		name  string
		files map[string]string
		where string // path:line:col of the mistake, "" for a clean corpus
		msg   string
	}{
		{"bare question mark", map[string]string{"bare.sql": "-- description: a marker nobody declared\nSELECT id FROM level1 WHERE id = ?;\n"},
			"bare.sql:2:34", "a bare ? is not allowed"},
		{"count not a number", map[string]string{"word.sql": "-- count: abc\n" + sel},
			"word.sql:1:11", `count must be a whole number of 0 or more, got "abc"`},
		{"negative count", map[string]string{"neg.sql": "-- scenario: neg\n-- count: -5\n" + sel},
			"neg.sql:2:11", `count must be a whole number of 0 or more, got "-5"`},
		{"unknown header key", map[string]string{"owner.sql": "-- owner: dba team\n" + sel},
			"owner.sql:1:4", `unknown header key "owner"`},
		{"duplicate name", map[string]string{"a/twice.sql": "-- scenario: twice\n" + sel, "b/twice.sql": "-- scenario: twice\n" + sel},
			"b/twice.sql:1:14", `scenario "twice" is also defined in`},
		{"custom list", map[string]string{
			"regions.list": "# continents by another name\nEurope\nAsia\n",
			"by_region.sql": "-- scenario: by_region\n-- param r: list(regions)\n" +
				"SELECT id, continent FROM level1 WHERE continent = {{r}};\n"},
			"", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeTree(t, t.TempDir(), tc.files)
			listCode, _, listErr := runCapturedAll(t, "list", "-q", "--no-builtin", "--corpus", dir)
			lintCode, out := runCaptured(t, "lint", "-q", "--no-builtin", "--format", "json", dir)
			var found []lintFinding
			if err := json.Unmarshal([]byte(out), &found); err != nil {
				t.Fatalf("lint --format json: %v\n%s", err, out)
			}
			if tc.where == "" {
				if listCode != 0 || lintCode != 0 || len(found) != 0 {
					t.Fatalf("clean corpus: list exit %d (%s), lint exit %d %v", listCode, listErr, lintCode, found)
				}
				return
			}
			want := filepath.Join(dir, filepath.FromSlash(tc.where))
			if listCode != 2 || !strings.Contains(listErr, want+": ") || !strings.Contains(listErr, tc.msg) ||
				strings.Count(strings.TrimSpace(listErr), "\n") != 0 {
				t.Errorf("list: exit %d, stderr %q; want exit 2 and one line %s: ...%s", listCode, listErr, want, tc.msg)
			}
			if lintCode != 1 || len(found) != 1 {
				t.Fatalf("lint: exit %d, findings %v; want exit 1 and one finding", lintCode, found)
			}
			f := found[0]
			if got := f.Path + ":" + itoa(f.Line) + ":" + itoa(f.Col); got != want || f.Rule != "scenario-format" ||
				f.Severity != "error" || !strings.Contains(f.Message, tc.msg) || !strings.Contains(listErr, f.Message) {
				t.Errorf("lint finding %+v; want %s [scenario-format] %s, as list says: %s", f, want, tc.msg, listErr)
			}
			if f.EndLine != f.Line || f.EndCol <= f.Col {
				t.Errorf("finding spans %d:%d-%d:%d: want it to end after its start on its line", f.Line, f.Col, f.EndLine, f.EndCol)
			}
		})
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestLintReportsEveryLoaderMistake: list stops at the first mistake; lint
// reports each file's, in text and SARIF as in JSON, and cannot be told
// to look away.
func TestLintReportsEveryLoaderMistake(t *testing.T) {
	dir := writeTree(t, t.TempDir(), map[string]string{
		"one.sql":    "-- count: -1\nSELECT 1;\n",
		"two.sql":    "-- lint:file-ignore scenario-format the loader says no anyway\nSELECT ?;\n",
		"empty.list": "# nothing\n",
		"ok.sql":     "SELECT id FROM level1 WHERE id = 1;\n",
	})
	code, out := runCaptured(t, "lint", "-q", "--no-builtin", dir)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 1 || len(lines) != 3 {
		t.Fatalf("lint: exit %d, want 1 and 3 findings:\n%s", code, out)
	}
	for i, want := range []string{"empty.list:1:1: error: list \"empty\" has no values [scenario-format]",
		"one.sql:1:11: error: count must be", "two.sql:2:8: error: a bare ? is not allowed"} {
		if !strings.HasPrefix(lines[i], filepath.Join(dir, want)) {
			t.Errorf("finding %d: %s\nwant %s...", i, lines[i], want)
		}
	}
	code, out = runCaptured(t, "lint", "-q", "--no-builtin", "--format", "sarif", dir)
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct{ ID string }
				}
			}
			Results []struct {
				RuleID    string
				RuleIndex int
				Level     string
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil || code != 1 || len(log.Runs) != 1 || len(log.Runs[0].Results) != 3 {
		t.Fatalf("lint --format sarif: exit %d, %v\n%s", code, err, out)
	}
	for _, r := range log.Runs[0].Results {
		if r.RuleID != "scenario-format" || r.Level != "error" || log.Runs[0].Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("SARIF result %+v", r)
		}
	}
	conf := filepath.Join(t.TempDir(), "lint.conf")
	if err := os.WriteFile(conf, []byte("scenario-format = off\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _ := runCaptured(t, "lint", "-q", "--no-builtin", "--config", conf, dir); code != 2 {
		t.Errorf("lint.conf turning scenario-format off: exit %d, want 2 (a usage error)", code)
	}
}

// TestLintNamedFileReadsListsBeside: the pre-commit hook names files
// (.pre-commit-hooks.yaml: `lint --no-builtin` with pass_filenames). A
// scenario named alone resolves the NAME.list beside it, as list does with
// its folder as --corpus; a list found nowhere beside it is still an
// error.
func TestLintNamedFileReadsListsBeside(t *testing.T) {
	hook, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	entry := ""
	for _, l := range strings.Split(string(hook), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "entry:"); ok {
			entry = strings.TrimSpace(v)
		}
	}
	args := strings.Fields(entry)
	if len(args) < 2 || args[0] != "joinbench" || !strings.Contains(string(hook), "pass_filenames: true") {
		t.Fatalf("hook entry %q: want joinbench and file names", entry)
	}
	args = append(args[1:], "-q")
	dir := writeTree(t, t.TempDir(), map[string]string{
		"mine/regions.list":   "Europe\nAsia\n",
		"mine/by_region.sql":  "-- param r: list(regions)\nSELECT id FROM level1 WHERE continent = {{r}};\n",
		"other/no_region.sql": "-- param r: list(regions)\nSELECT id FROM level1 WHERE continent = {{r}};\n",
	})
	named := filepath.Join(dir, "mine", "by_region.sql")
	if code, out := runCaptured(t, append(args, named)...); code != 0 || out != "" {
		t.Errorf("hook on a scenario whose list is beside it: exit %d\n%s", code, out)
	}
	if code, _, errOut := runCapturedAll(t, "list", "-q", "--no-builtin", "--corpus", filepath.Dir(named)); code != 0 {
		t.Errorf("list of its folder: exit %d %s", code, errOut)
	}
	other := filepath.Join(dir, "other", "no_region.sql")
	code, out := runCaptured(t, append(args, other)...)
	if code != 1 || !strings.Contains(out, other+":1:18: error: list(regions): no such list") {
		t.Errorf("hook on a scenario without its list: exit %d\n%s", code, out)
	}
}
