package ingest

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/ddl"
)

// builtinFingerprints are the fingerprints of the built-in scenarios'
// statements as the corpus renders them (? for values), by scenario.
func builtinFingerprints(t *testing.T) map[string][]string {
	t.Helper()
	cp, err := corpus.LoadBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	schema, err := ddl.BuiltinSchema(ddl.SchemaOptions{Tables: 1})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, s := range cp.Scenarios() {
		tmpl, err := corpus.Compile(s, schema, corpus.CompileOptions{Tables: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range tmpl.NewRenderer(1, 0).Next() {
			out[s.Name] = append(out[s.Name], Fingerprint(st.SQL).Fingerprint)
		}
	}
	return out
}

var hint = regexp.MustCompile(`/\*\+[^*]*\*/ `)

// TestBuiltinLogsGroupBack reads the logs MariaDB 10.11 wrote while the
// built-in corpus ran twice over (slow log with long_query_time=0 and
// general log of one run; the digest table of a run with --ps-mode
// disable, since MariaDB's digest table does not count prepared
// statements) and checks that every statement of every built-in scenario
// is found again as one fingerprint of its own: no scenario split in two,
// no two scenarios merged.
func TestBuiltinLogsGroupBack(t *testing.T) {
	want := builtinFingerprints(t)
	if len(want) < 43 {
		t.Fatalf("%d built-in scenarios, want the reference workload's 43 at least", len(want))
	}
	for _, c := range []struct {
		path  string
		hints bool // the source keeps optimizer hints (MariaDB's digest text drops them)
	}{
		{"testdata/mariadb-builtin-slow.log.gz", true},
		{"testdata/mariadb-builtin-general.log.gz", true},
		{"testdata/mariadb-builtin-digest.tsv.gz", false},
	} {
		s := NewSet(&Filter{Writes: true})
		if err := s.ReadFile(c.path, FormatAuto); err != nil {
			t.Fatal(err)
		}
		groups := map[string]*Group{}
		for _, g := range s.Ranked(false) {
			groups[g.Fingerprint] = g
		}
		owner := map[string]string{}
		statements := 0
		for name, fps := range want {
			for _, fp := range fps {
				statements++
				if !c.hints {
					fp = hint.ReplaceAllString(fp, "")
				}
				g := groups[fp]
				if g == nil && !c.hints && digestMangled(groups, fp) {
					t.Logf("%s: %s's digest text is cut at performance_schema_max_digest_length, or its VALUES folded to ?, ...: not compared", c.path, name)
					owner[fp] = name
					continue
				}
				if g == nil {
					t.Errorf("%s: no group for %s's statement %s", c.path, name, fp)
					continue
				}
				if g.Count < 2 {
					t.Errorf("%s: %s ran twice, its group counts %d", c.path, name, g.Count)
				}
				if prev, ok := owner[fp]; ok && c.hints {
					t.Errorf("%s: %s and %s share the fingerprint %s", c.path, prev, name, fp)
				}
				owner[fp] = name
			}
		}
		var others []string
		for fp := range groups {
			if _, ok := owner[fp]; !ok {
				others = append(others, fp)
			}
		}
		sort.Strings(others)
		t.Logf("%s: %d fingerprints, %d of them the built-in scenarios' %d statements; the others are joinbench's own checks: %q",
			c.path, len(groups), len(owner), statements, others)
	}
}

// digestMangled reports whether MariaDB's digest table holds a statement
// only in a form that cannot match its fingerprint: its text cut at
// performance_schema_max_digest_length (a group whose fingerprint starts
// as the statement's and stops short), or its VALUES list folded to
// "?, ...".
func digestMangled(groups map[string]*Group, fp string) bool {
	if strings.Contains(fp, " values(") {
		return true
	}
	for have := range groups {
		if len(have) < len(fp) && len(have) > 200 && strings.HasPrefix(fp, have) {
			return true
		}
	}
	return false
}

// TestBuiltinDigestBecomesScenarios: the digest table's texts of the
// built-in corpus become scenarios that load, but for those the digest
// cannot give: texts cut at performance_schema_max_digest_length, ?
// that stand for no column's value (THEN ? ELSE ?), and the table
// prepare records its dataset in, which the built-in model lacks.
func TestBuiltinDigestBecomesScenarios(t *testing.T) {
	s := NewSet(&Filter{Database: "joinbench"})
	if err := s.ReadFile("testdata/mariadb-builtin-digest.tsv.gz", FormatAuto); err != nil {
		t.Fatal(err)
	}
	schema, err := ddl.BuiltinSchema(ddl.SchemaOptions{Tables: 1})
	if err != nil {
		t.Fatal(err)
	}
	rep := Choose(s, 0, false, BuildOptions{Schema: schema})
	cut, constants := 0, 0
	for _, u := range rep.Unwritable {
		switch {
		case strings.Contains(u, "does not parse"):
			cut++
		case strings.Contains(u, "compared with no column"):
			constants++
		case strings.HasPrefix(u, "select_joinbench_dataset_") && strings.Contains(u, "is not in the schema"):
			// joinbench's own table, not in the built-in model
		default:
			t.Errorf("unwritable: %s", u)
		}
	}
	t.Logf("%d groups: %d written, %d cut, %d with constants the digest hides", rep.Groups, len(rep.Written), cut, constants)
	if len(rep.Written) == 0 || cut == 0 {
		t.Errorf("%d written, %d cut", len(rep.Written), cut)
	}
	for _, sc := range rep.Written {
		if _, err := corpus.ParseFile(sc.Name+".sql", []byte(sc.Text)); err != nil {
			t.Errorf("%s: %v", sc.Name, err)
		}
	}
}
