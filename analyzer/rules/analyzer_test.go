package rules

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/analyzer/analyzertest"
	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/flavor"
)

// TestRules runs every rule over testdata/<rule>/*.sql. A comment
// `-- want "regexp"` expects a finding of that rule on its line (or, on a
// line of its own, on the line above); every finding of the rule must be
// expected. `-- want 6-11 "regexp"` also expects the finding to start at
// byte column 6 of that line and end before column 11. A file `<name>.sql.fixed` holds the file after `lint --fix`.
// A header line `-- lint-test: flavor=mariadb galera` sets options
// (schema=FILE resolves names against the CREATE TABLEs of FILE instead
// of the built-in tables).
// The rules that need a plan compare the file with `<name>.plan.json`, the
// EXPLAIN FORMAT=JSON a server gave for it.
func TestRules(t *testing.T) {
	dirs, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, d := range dirs {
		if !d.IsDir() || Lookup(d.Name()) == nil {
			continue
		}
		seen[d.Name()] = true
		files, _ := filepath.Glob(filepath.Join("testdata", d.Name(), "*.sql"))
		if len(files) == 0 {
			t.Errorf("testdata/%s has no .sql files", d.Name())
		}
		for _, f := range files {
			t.Run(strings.TrimPrefix(f, "testdata/"), func(t *testing.T) { checkFile(t, d.Name(), f) })
		}
	}
	for _, a := range All() {
		if !seen[a.Name] {
			t.Errorf("rule %s has no testdata/%s", a.Name, a.Name)
		}
	}
}

var (
	wantRE  = regexp.MustCompile(`^(?:--|#)\s*want\s+(.*)$`)
	wantArg = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`)
	wantCol = regexp.MustCompile(`^(\d+)-(\d+)\s`)
	testOpt = regexp.MustCompile(`(?m)^-- lint-test:(.*)$`)
)

func testOptions(t *testing.T, dir, src string) *analyzer.Options {
	opts := &analyzer.Options{Rules: All(), Schema: analyzertest.Schema()}
	if m := testOpt.FindStringSubmatch(src); m != nil {
		for _, f := range strings.Fields(m[1]) {
			switch {
			case strings.HasPrefix(f, "flavor="):
				opts.Flavor.Name = flavor.Name(strings.TrimPrefix(f, "flavor="))
			case f == "galera":
				opts.Flavor.Galera = true
			case f == "unsafe-fixes":
				opts.UnsafeFixes = true
			case f == "noschema":
				opts.Schema = nil
			case strings.HasPrefix(f, "schema="):
				// the CREATE TABLEs of a file beside the test file
				b, err := os.ReadFile(filepath.Join(dir, strings.TrimPrefix(f, "schema=")))
				if err != nil {
					t.Fatal(err)
				}
				if opts.Schema, err = ddl.ParseSchema(string(b)); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return opts
}

func checkFile(t *testing.T, rule, path string) {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	opts := testOptions(t, filepath.Dir(path), src)
	diags := analyzer.AnalyzeFile(path, src, opts)
	if Lookup(rule).NeedsPlan {
		diags = planDiagnostics(t, path, src, opts)
	}

	u := analyzer.Inspect(path, src, nil, opts) // for comments and positions only
	type want struct {
		line     int
		col, end int // 0: any
		re       *regexp.Regexp
		met      bool
	}
	var wants []*want
	for _, c := range u.Comments {
		m := wantRE.FindStringSubmatch(c.Text)
		if m == nil {
			continue
		}
		line, _ := u.Position(c.Start)
		if strings.TrimSpace(src[u.Offset(line, 1):c.Start]) == "" {
			// a comment line of its own is about the line above it that
			// is not itself a want line
			for line > 1 {
				line--
				prev := strings.TrimSpace(src[u.Offset(line, 1):u.Offset(line+1, 1)])
				if !wantRE.MatchString(prev) {
					break
				}
			}
		}
		col, end := 0, 0
		if cm := wantCol.FindStringSubmatch(m[1]); cm != nil {
			col, _ = strconv.Atoi(cm[1])
			end, _ = strconv.Atoi(cm[2])
		}
		for _, a := range wantArg.FindAllStringSubmatch(m[1], -1) {
			re, err := regexp.Compile(a[1])
			if err != nil {
				t.Fatalf("%s:%d: bad want regexp: %v", path, line, err)
			}
			wants = append(wants, &want{line: line, col: col, end: end, re: re})
		}
	}
	for _, d := range diags {
		if d.Rule != rule {
			if d.Rule == Syntax.Name || d.Rule == analyzer.ScenarioFormat.Name {
				t.Errorf("unexpected %s error: %s", d.Rule, d)
			}
			continue
		}
		ok := false
		for _, w := range wants {
			if !w.met && w.line == d.Line && w.re.MatchString(d.Message) {
				if w.col != 0 && (d.Col != w.col || d.EndLine != d.Line || d.EndCol != w.end) {
					t.Errorf("%s: spans %d:%d-%d:%d, want %d:%d-%d:%d", d, d.Line, d.Col, d.EndLine, d.EndCol, w.line, w.col, w.line, w.end)
				}
				w.met, ok = true, true
				break
			}
		}
		if !ok {
			t.Errorf("unexpected finding: %s", d)
		}
	}
	for _, w := range wants {
		if !w.met {
			t.Errorf("%s:%d: no finding matching %q", path, w.line, w.re)
		}
	}
	if golden, err := os.ReadFile(path + ".fixed"); err == nil {
		got, _ := analyzer.FixFile(path, src, opts)
		if got != string(golden) {
			t.Errorf("fix of %s:\n--- got\n%s\n--- want\n%s", path, got, golden)
		}
		for _, d := range analyzer.AnalyzeFile(path, got, opts) {
			if d.Rule == rule || d.Rule == Syntax.Name || d.Rule == analyzer.ScenarioFormat.Name {
				t.Errorf("after the fix: %s", d)
			}
		}
	}
}

func TestTableInExecutableComment(t *testing.T) {
	src := "-- param m: table(main)\nSELECT m.id FROM {{m}} AS m /*!50100 JOIN nosuch ON nosuch.id = m.id */"
	diags := analyzer.AnalyzeFile("exec.sql", src, testOptions(t, ".", src))
	found := false
	for _, d := range diags {
		if d.Rule == UnknownTable.Name && strings.Contains(d.Message, "nosuch") {
			found = true
			if d.Line != 2 || d.Col != 43 {
				t.Errorf("unknown table at %d:%d, want 2:43 (its name in the executable comment)", d.Line, d.Col)
			}
		}
	}
	if !found {
		t.Errorf("no unknown-table finding for the table in the executable comment: %v", diags)
	}
}

// MySQL reads a hint only right after the keyword, with nothing but white
// space between: a comment in between makes it a plain comment.
func TestHintAfterCommentIsMisplaced(t *testing.T) {
	src := "-- param m: table(main)\nSELECT /* c */ /*+ BKA(m) */ m.id FROM {{m}} AS m"
	diags := analyzer.AnalyzeFile("hint.sql", src, testOptions(t, ".", src))
	for _, d := range diags {
		if d.Rule == HintUnresolved.Name && strings.Contains(d.Message, "not right after SELECT") && d.Col == 16 {
			return
		}
	}
	t.Errorf("no misplaced-hint finding at 2:16: %v", diags)
}
