package corpus

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/ddl"
)

// referenceNames are the 43 scenario names of the reference workload;
// users compare results by name, so they must never change.
var referenceNames = []string{
	"simple_inner_pk", "simple_inner_pk_GB", "multilevel_inner_pk", "simple_inner_index",
	"simple_inner_index_GB", "multilevel_inner_index", "simple_inner_forcing_order",
	"multilevel_inner_forcing_order_index", "simple_inner_straight", "multilevel_inner_straight_index",
	"simple_left_pk", "simple_left_pk_GB", "multi_left_pk", "simple_left_index", "simple_left_index_GB",
	"multi_left_index", "simple_left_forcing_order", "multi_left_forcing_order", "simple_left_straight",
	"multi_left_straight", "simple_left_exclude",
	"simple_right_pk", "simple_right_pk_GB", "multi_right_pk", "simple_right_index", "simple_right_index_GB",
	"multi_right_index", "simple_right_forcing_order", "multi_right_forcing_order", "simple_right_straight",
	"multi_right_straight",
	"inner_subquery_multi_pk", "left_subquery_multi_pk", "right_subquery_multi_pk",
	"semi_join_exists_pk", "anti_join_not_exists_pk", "anti_join_left_join_pk", "conditional_join_pk",
	"update_multi_inner_join_pk", "update_multi_left_join_pk", "update_multi_right_join_pk",
	"index_updates", "delete_inserts",
}

// pointNames are the built-in scenarios beyond the reference workload:
// reads and writes of one row by id(main), for hot versus uniform access.
var pointNames = []string{"point_select", "point_update"}

// builtinNames are every built-in scenario's name.
func builtinNames() []string { return append(slices.Clone(referenceNames), pointNames...) }

func builtinSchema(t testing.TB, tables int) *ddl.Schema {
	t.Helper()
	s, err := ddl.BuiltinSchema(ddl.SchemaOptions{Tables: tables})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The built-in corpus is the reference workload, untouched, and the point
// scenarios, tagged apart.
func TestBuiltinCorpusIsTheReferenceWorkload(t *testing.T) {
	c, err := LoadBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range c.Scenarios() {
		got = append(got, s.Name)
		if !s.Builtin {
			t.Errorf("%s: not marked built-in", s.Name)
		}
		if s.Description == "" {
			t.Errorf("%s: no description", s.Name)
		}
		if len(s.Tags) == 0 || s.Tags[0] != s.Family {
			t.Errorf("%s: tags %v should start with the family %q", s.Name, s.Tags, s.Family)
		}
		if m := s.Param("m"); m == nil || m.Kind != KindTable || m.Args[0] != "main" {
			t.Errorf("%s: the main table must be a table(main) parameter named m", s.Name)
		}
		if c.Get(s.Name) != s {
			t.Errorf("Get(%q) does not return the scenario", s.Name)
		}
	}
	want := builtinNames()
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("built-in scenarios differ from the reference workload and the point scenarios:\n got %v\nwant %v", got, want)
	}
	for _, name := range pointNames {
		if s := c.Get(name); !slices.Contains(s.Tags, "point") || !slices.Contains(s.Tags, "hot") || s.Param("id") == nil {
			t.Errorf("%s: tags %v and an id param, want point and hot tags and a row chosen by id(main)", name, s.Tags)
		}
	}
}

func TestBuiltinScenariosCompileAndRender(t *testing.T) {
	c, err := LoadBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	schema := builtinSchema(t, 3)
	for _, s := range c.Scenarios() {
		tmpl, err := Compile(s, schema, CompileOptions{TableSize: 1000})
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		wantWrite := s.Family == "update" || s.Family == "write"
		if tmpl.Write != wantWrite {
			t.Errorf("%s: Write = %v, want %v", s.Name, tmpl.Write, wantWrite)
		}
		for i, st := range s.Statements {
			if st.Kind == StmtUnparsed {
				t.Errorf("%s: statement %d does not parse", s.Name, i+1)
			}
		}
		if n := len(tmpl.Queries()); n != 3*tmpl.Statements() {
			t.Errorf("%s: %d queries, want one per table and statement (%d)", s.Name, n, 3*tmpl.Statements())
		}
		r := tmpl.NewRenderer(1, 0)
		for range 5 {
			for _, st := range r.Next() {
				if strings.Count(st.SQL, "?") != len(st.Args) {
					t.Errorf("%s: %d ? for %d args in %s", s.Name, strings.Count(st.SQL, "?"), len(st.Args), st.SQL)
				}
				if strings.Contains(st.SQL, "{{") || strings.Contains(st.SQL, "--") {
					t.Errorf("%s: placeholder or comment left in %s", s.Name, st.SQL)
				}
				if !strings.Contains(st.SQL, "`main") {
					t.Errorf("%s: no quoted main table in %s", s.Name, st.SQL)
				}
			}
		}
	}
}

var updateGolden = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestBuiltinQueriesGolden pins the SQL every built-in scenario sends (with
// one main table), so that a change to a scenario is a reviewed change to
// testdata/builtin_queries.golden (go test ./corpus -run Golden -update).
func TestBuiltinQueriesGolden(t *testing.T) {
	c, err := LoadBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, s := range c.Scenarios() {
		tmpl, err := Compile(s, builtinSchema(t, 1), CompileOptions{})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "== %s (%s) params: %s\n", s.Name, tmpl.Hash, strings.Join(tmpl.ParamNames(), ", "))
		for _, q := range tmpl.Queries() {
			b.WriteString(q)
			b.WriteString(";\n")
		}
	}
	path := filepath.Join("testdata", "builtin_queries.golden")
	if *updateGolden {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if b.String() != string(want) {
		t.Errorf("the built-in scenarios' SQL changed; review and run go test ./corpus -run Golden -update\n%s", firstDiff(string(want), b.String()))
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n want %q\n  got %q", i+1, x, y)
		}
	}
	return ""
}
