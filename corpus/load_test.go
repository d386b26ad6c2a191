package corpus

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/usage"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
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

// TestCheckFindsEveryMistake: Check goes on past a mistake and tells each
// file's; Load stops at the first of them, as it always did.
func TestCheckFindsEveryMistake(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"bad name!.list":        "x\n",
		"empty.list":            "# no value\n",
		"regions.list":          "North\n",
		"again/regions.list":    "South\n",
		"a/count.sql":           "-- count: -5\nSELECT 1",
		"a/dup.sql":             "-- scenario: dup\nSELECT 1",
		"b/dup.sql":             "-- description: no scenario line, so the mistake is at 1:1\nSELECT 1",
		"b/good.sql":            hdr + "-- param r: list(regions)\nSELECT * FROM {{m}} WHERE r = {{r}}",
		"b/nolist.sql":          hdr + "-- param r: list(nowhere)\nSELECT * FROM {{m}} WHERE r = {{r}}",
		"b/simple_inner_pk.sql": hdr + "SELECT 1 FROM {{m}}",
	})
	c, files, err := Check(LoadOptions{Dirs: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	var first *Error
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f.Path)
		rel = filepath.ToSlash(rel)
		if f.Err != nil {
			if first == nil {
				first = f.Err
			}
			got[rel] = f.Err.Error()
			if f.Scenario != nil {
				t.Errorf("%s: a file with a mistake gave a scenario", rel)
			}
		} else if !f.Builtin && !strings.HasSuffix(rel, ".list") && f.Scenario == nil {
			t.Errorf("%s: no mistake and no scenario", rel)
		}
	}
	want := map[string]string{
		"bad name!.list":        ":1:1: list file name",
		"empty.list":            `:1:1: list "empty" has no values`,
		"regions.list":          `:1:1: list "regions" is also defined in`, // again/ comes first
		"a/count.sql":           ":1:11: count must be",
		"b/dup.sql":             `:1:1: scenario "dup" is also defined in`,
		"b/nolist.sql":          ":2:18: list(nowhere): no such list",
		"b/simple_inner_pk.sql": "(use --override to replace the built-in scenario)",
	}
	for rel, msg := range want {
		if !strings.Contains(got[rel], msg) || !strings.HasPrefix(got[rel], filepath.Join(dir, rel)) {
			t.Errorf("%s: mistake %q, want %s...%s", rel, got[rel], filepath.Join(dir, rel), msg)
		}
	}
	if len(got) != len(want) {
		t.Errorf("mistakes %v, want those of %v", got, want)
	}
	if c.Get("good") == nil || c.Get("dup") == nil || c.Get("nolist") != nil || !c.Get("simple_inner_pk").Builtin {
		t.Error("the corpus must hold the files that loaded, and only those")
	}
	_, err = Load(LoadOptions{Dirs: []string{dir}})
	var le *Error
	if !usage.Is(err) || !errors.As(err, &le) || le.Error() != first.Error() {
		t.Errorf("Load: %v, want the first mistake Check found: %v", err, first)
	}
}

// TestCheckNamedFiles: a file named on its own reads the lists beside it
// (not those below its folder), and a file named twice, or named and in a
// folder given too, is read once.
// TestCheckReportsEveryMistakeOfAFile: a file's own mistakes do not hide
// that its name is taken or that a list it names does not exist.
func TestCheckReportsEveryMistakeOfAFile(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a/twice.sql": "-- scenario: twice\nSELECT 1",
		"b/twice.sql": "-- scenario: twice\n-- param r: list(nowhere)\n-- param x: int(1, 2, 3)\n" +
			"SELECT id FROM level1 WHERE continent = {{r}} AND id = {{x}}",
	})
	_, files, err := Check(LoadOptions{Dirs: []string{dir}, NoBuiltin: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		for _, e := range f.Mistakes() {
			rel, _ := filepath.Rel(dir, e.Path)
			got = append(got, filepath.ToSlash(rel)+":"+strconv.Itoa(e.Line)+":"+strconv.Itoa(e.Col)+": "+e.Msg)
		}
	}
	want := []string{
		`b/twice.sql:1:14: scenario "twice" is also defined in`,
		"b/twice.sql:2:18: list(nowhere): no such list",
		"b/twice.sql:3:13: int takes 2 arguments, got 3",
	}
	if len(got) != len(want) {
		t.Fatalf("mistakes:\n  %s\nwant %d", strings.Join(got, "\n  "), len(want))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("mistake %d: %s, want %s...", i, got[i], want[i])
		}
	}
}

// TestLoadValidKeepsTheRest: one broken file leaves the others loaded,
// and comes back with its mistakes; Load still refuses the corpus.
func TestLoadValidKeepsTheRest(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"good.sql":   hdr + "SELECT 1 FROM {{m}}",
		"broken.sql": "-- descripton: misspelt\n-- count: x\nSELECT 1",
	})
	c, bad, err := LoadValid(LoadOptions{Dirs: []string{dir}, NoBuiltin: true})
	if err != nil {
		t.Fatal(err)
	}
	if c.Get("good") == nil || c.Get("broken") != nil || len(c.Scenarios()) != 1 {
		t.Errorf("corpus holds %d scenarios, want good alone", len(c.Scenarios()))
	}
	if len(bad) != 1 || len(bad[0].Mistakes()) != 2 || bad[0].Mistakes()[0].Line != 1 || bad[0].Mistakes()[1].Line != 2 {
		t.Fatalf("broken files %v, want broken.sql with its two mistakes", bad)
	}
	if _, err := Load(LoadOptions{Dirs: []string{dir}, NoBuiltin: true}); err == nil || !usage.Is(err) {
		t.Errorf("Load: %v, want the first mistake as a usage error", err)
	}
}

func TestCheckNamedFiles(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"s/regions.list":  "North\nSouth\n",
		"s/deeper/x.list": "not beside the file\n",
		"s/by_region.sql": hdr + "-- param r: list(regions)\nSELECT * FROM {{m}} WHERE r = {{r}}",
	})
	named := filepath.Join(dir, "s", "by_region.sql")
	c, files, err := Check(LoadOptions{Files: []string{named, named}, Dirs: []string{filepath.Join(dir, "s")}, NoBuiltin: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Err != nil {
			t.Errorf("mistake %v", f.Err)
		}
	}
	if len(files) != 3 || len(c.Scenarios()) != 1 {
		t.Errorf("%d files and %d scenarios, want each file once: 2 lists, 1 scenario", len(files), len(c.Scenarios()))
	}
	c, files, err = Check(LoadOptions{Files: []string{named}, NoBuiltin: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || files[1].Scenario == nil {
		t.Fatalf("named file: %d files, mistake %v", len(files), files[len(files)-1].Err)
	}
	if v, _ := files[1].Scenario.List("regions"); strings.Join(v, ",") != "North,South" {
		t.Errorf("list beside the file: %q", v)
	}
	if _, ok := c.List("x"); ok {
		t.Error("a list below the named file's folder is not beside it")
	}
	if _, _, err := Check(LoadOptions{Files: []string{filepath.Join(dir, "missing.sql")}}); !usage.Is(err) {
		t.Errorf("missing file: %v", err)
	}
}

// TestReparseKeepsTheCorpus: an edited scenario is read again with its
// corpus's lists and built-in flag; a plain file stays plain.
func TestReparseKeepsTheCorpus(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"regions.list":  "North\n",
		"by_region.sql": hdr + "-- param r: list(regions)\nSELECT * FROM {{m}} RIGHT JOIN t ON 1 WHERE r = {{r}}",
	})
	c, err := Load(LoadOptions{Dirs: []string{dir}, NoBuiltin: true})
	if err != nil {
		t.Fatal(err)
	}
	s := c.Get("by_region")
	n, err := s.Reparse([]byte(strings.Replace(s.Source, "RIGHT JOIN", "LEFT JOIN", 1)))
	if err != nil || !strings.Contains(n.Body, "LEFT JOIN") || n.Path != s.Path {
		t.Fatalf("reparse: %v %+v", err, n)
	}
	if v, ok := n.List("regions"); !ok || v[0] != "North" {
		t.Errorf("reparsed scenario lost its corpus list: %q", v)
	}
	if _, err := s.Reparse([]byte(hdr + "-- param r: list(nowhere)\nSELECT * FROM {{m}} WHERE r = {{r}}")); err == nil {
		t.Error("a reparse naming an unknown list must fail as loading does")
	}
	p := ParsePlain("d.sql", "CREATE TABLE t (id INT);")
	if q, err := p.Reparse([]byte("DROP TABLE t;")); err != nil || !q.Plain || q.Body != "DROP TABLE t;" {
		t.Errorf("plain reparse: %v %+v", err, q)
	}
}

// TestLazyKinds: with LoadOptions.LazyKinds (lint) the loader leaves the
// statements' kinds to Classify, which gives each statement the kind the
// eager loader (run --read-only's) gives it; Writes classifies first, so
// Compile and run.json never see a statement without its kind; Load
// ignores the option.
func TestLazyKinds(t *testing.T) {
	eager, err := Load(LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lazy, _, err := Check(LoadOptions{LazyKinds: true})
	if err != nil {
		t.Fatal(err)
	}
	if l, err := Load(LoadOptions{LazyKinds: true}); err != nil || l.Scenarios()[0].Statements[0].Kind == "" {
		t.Fatalf("Load with LazyKinds left a kind out (%v)", err)
	}
	writes := 0
	for i, sc := range lazy.Scenarios() {
		want := eager.Scenarios()[i]
		if sc.Name != want.Name || len(sc.Statements) != len(want.Statements) {
			t.Fatalf("%s: %d statements, eager %s has %d", sc.Name, len(sc.Statements), want.Name, len(want.Statements))
		}
		for _, st := range sc.Statements {
			if st.Kind != "" {
				t.Errorf("%s: kind %q before Classify", sc.Name, st.Kind)
			}
		}
		if i%2 == 0 {
			sc.Classify()
		} else if len(sc.Writes()) > 0 { // classifies too
			writes++
		}
		for j, st := range sc.Statements {
			if st.Kind != want.Statements[j].Kind {
				t.Errorf("%s statement %d: %q, eager %q", sc.Name, j, st.Kind, want.Statements[j].Kind)
			}
		}
	}
	if writes == 0 {
		t.Error("no built-in scenario writes: the test sees nothing")
	}
}
