package rules

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/analyzer/rules/testdata/validsql/suite"
	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/internal/testdb"
)

// The valid-SQL tests (issue 30): statements a MariaDB server accepts
// are never syntax errors when lint targets MariaDB; MariaDB's own syntax
// is an error that names it when lint targets MySQL; real mistakes stay
// errors at the right column. testdata/validsql/README.md says where the
// statements come from.

// flavorWant is `-- want "re"` (both flavours) or `-- want[mysql] "re"`
// (one), with an optional byte-column range as in TestRules.
var flavorWant = regexp.MustCompile(`^--\s*want(?:\[(mysql|mariadb)\])?\s+(?:(\d+)-(\d+)\s+)?"((?:[^"\\]|\\.)*)"\s*$`)

func validSQLSchema(t *testing.T) *ddl.Schema {
	t.Helper()
	b, err := os.ReadFile("testdata/validsql/schema.sql")
	if err != nil {
		t.Fatal(err)
	}
	s, err := ddl.ParseSchema(string(b))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// checkEveryFinding lints path at flavour fl and matches every finding,
// of any rule, with the file's want lines for that flavour; each want
// line is about the line above it.
func checkEveryFinding(t *testing.T, path string, schema *ddl.Schema, fl flavor.Name) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	type want struct {
		line, col, end int
		re             *regexp.Regexp
		met            bool
	}
	var wants []*want
	stmtLine := 0
	for i, l := range strings.Split(src, "\n") {
		m := flavorWant.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil {
			if !strings.HasPrefix(strings.TrimSpace(l), "--") && strings.TrimSpace(l) != "" {
				stmtLine = i + 1
			}
			continue
		}
		if m[1] != "" && m[1] != string(fl) {
			continue
		}
		w := &want{line: stmtLine, re: regexp.MustCompile(m[4])}
		if m[2] != "" {
			w.col, _ = strconv.Atoi(m[2])
			w.end, _ = strconv.Atoi(m[3])
		}
		wants = append(wants, w)
	}
	for _, d := range analyzer.AnalyzeFile(path, src, &analyzer.Options{Rules: All(), Schema: schema, Flavor: flavor.Flavor{Name: fl}}) {
		ok := false
		for _, w := range wants {
			if !w.met && w.line == d.Line && w.re.MatchString(d.Message) {
				if w.col != 0 && (d.Col != w.col || d.EndCol != w.end) {
					t.Errorf("%s: %s spans %d:%d-%d, want %d-%d", fl, d, d.Line, d.Col, d.EndCol, w.col, w.end)
				}
				w.met, ok = true, true
				break
			}
		}
		if !ok {
			t.Errorf("%s: unexpected finding: %s", fl, d)
		}
	}
	for _, w := range wants {
		if !w.met {
			t.Errorf("%s: %s:%d: no finding matching %q", fl, path, w.line, w.re)
		}
	}
}

// TestValidSQLConstructs: one statement per construct of the issue and
// of the set, each prepared by MariaDB 10.11 against schema.sql. At
// flavour mariadb none is a syntax error; at flavour mysql MariaDB's own
// syntax is an error that names it. Every finding is expected by a want
// line.
func TestValidSQLConstructs(t *testing.T) {
	schema := validSQLSchema(t)
	files, err := filepath.Glob("testdata/validsql/constructs/*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("no constructs: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			for _, fl := range []flavor.Name{flavor.MariaDB, flavor.MySQL} {
				checkEveryFinding(t, f, schema, fl)
			}
		})
	}
}

// TestValidSQLMistakes: the statements MariaDB rejects (typos, missing
// commas, and the constructs the issue took for valid that MariaDB 10.11
// refuses) stay syntax errors at both flavours, at the column of the
// mistake.
func TestValidSQLMistakes(t *testing.T) {
	schema := validSQLSchema(t)
	files, err := filepath.Glob("testdata/validsql/invalid/*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("no statements: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			for _, fl := range []flavor.Name{flavor.MariaDB, flavor.MySQL} {
				checkEveryFinding(t, f, schema, fl)
			}
		})
	}
}

// TestValidSQLSet lints the valid-statement set, extracted from MariaDB's
// regression suite as installed (Debian package mariadb-test-data; the
// suite is GPL-2.0, so the set is built here rather than kept): more
// than 8,000 statements MariaDB 10.11 accepted. At flavour mariadb at most
// 1 in 1,000 may be a syntax error (none today); at flavour mysql every
// syntax error must name the MariaDB syntax MySQL rejects.
func TestValidSQLSet(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the valid-statement set takes seconds")
	}
	stmts, _, err := suite.Extract(suite.Root, suite.DefaultTests)
	if err != nil {
		testdb.Skipf(t, "MariaDB's test suite: %v (scripts/install-deps.sh suite installs it)", err)
		return
	}
	if len(stmts) < 5000 {
		t.Fatalf("%d statements extracted from %s: the suite is not the one the set was built from", len(stmts), suite.Root)
	}
	files := make([]analyzer.File, len(stmts))
	for i, s := range stmts {
		files[i] = analyzer.File{Path: fmt.Sprintf("q%05d.sql", i), Source: fmt.Sprintf("-- scenario: q%05d\n-- description: %s\n%s\n", i, s.ID, s.SQL)}
	}
	for _, fl := range []flavor.Name{flavor.MariaDB, flavor.MySQL} {
		diags, err := analyzer.AnalyzeAll(context.Background(), files, &analyzer.Options{Rules: All(), Flavor: flavor.Flavor{Name: fl}})
		if err != nil {
			t.Fatal(err)
		}
		var errs []analyzer.Diagnostic
		for _, d := range diags {
			if d.Rule == Syntax.Name {
				errs = append(errs, d)
			}
		}
		t.Logf("flavour %s: %d syntax errors in %d statements", fl, len(errs), len(stmts))
		switch fl {
		case flavor.MariaDB:
			if len(errs)*1000 > len(stmts) {
				t.Errorf("flavour mariadb: %d of %d valid statements are syntax errors, more than 1 in 1,000", len(errs), len(stmts))
			}
			for i, d := range errs {
				if i < 20 {
					t.Logf("%s (%s)", d, files[index(d.Path)].Source)
				}
			}
		case flavor.MySQL:
			for _, d := range errs {
				if !strings.Contains(d.Message, "is MariaDB syntax") && !strings.Contains(d.Message, "is a reserved word in MySQL 8") {
					t.Errorf("flavour mysql: %s does not name the MariaDB syntax (%s)", d, files[index(d.Path)].Source)
				}
			}
		}
	}
}

// index is the number in a set file's name (q00042.sql).
func index(path string) int {
	n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(path, "q"), ".sql"))
	return n
}
