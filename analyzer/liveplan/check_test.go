package liveplan

import (
	"os"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/analyzer/rules"
	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/ddl"
)

// explainable takes the statement's kind from the loader
// (corpus.ClassifyStmt): a WITH ... SELECT is a read, and is explained
// (the keyword scan this replaced left it out as not starting with
// SELECT), and so is a SELECT ... INTO @var; locking reads, INTO OUTFILE
// and writes are not, wherever their clause is; reads EXPLAIN does not
// take (SHOW, EXPLAIN) are not either.
func TestExplainable(t *testing.T) {
	for body, want := range map[string]bool{
		"SELECT m.id FROM {{m}} AS m;":                                         true,
		"-- a comment\n/* another */ SELECT /*+ JOIN_ORDER(a, b) */ 1 FROM t;": true,
		"select STRAIGHT_JOIN * FROM a JOIN b ON a.id = b.id":                  true,
		"SELECT 'INTO' AS word FROM t":                                         true,
		"WITH c AS (SELECT 1) SELECT * FROM c":                                 true,
		"(SELECT 1) UNION (SELECT 2)":                                          true,
		"UPDATE {{m}} SET x = 1":                                               false,
		"WITH c AS (SELECT 1) UPDATE {{m}} JOIN c SET x = 1":                   false,
		"DELETE FROM t":                                   false,
		"SELECT * FROM t FOR UPDATE":                      false,
		"SELECT * FROM (SELECT * FROM t FOR UPDATE) AS d": false,
		"SELECT * FROM t LOCK IN SHARE MODE":              false,
		"SELECT * FROM t FOR SHARE":                       false,
		"SELECT id INTO @x FROM t":                        true, // a read: the variables are the session's
		"SELECT id FROM t INTO OUTFILE '/tmp/x'":          false,
		"SHOW TABLES":                                     false,
		"EXPLAIN SELECT 1":                                false,
		"SELECT 1; SELECT 2":                              false,
	} {
		header := "-- scenario: r\n"
		if strings.Contains(body, "{{m}}") {
			header += "-- param m: table(main)\n"
		}
		sc, err := corpus.ParseFile("r.sql", []byte(header+body))
		if err != nil {
			t.Fatalf("%q: %v", body, err)
		}
		if got := explainable(sc); got != want {
			t.Errorf("explainable(%q) = %v, want %v (kinds %v)", body, got, want, sc.Statements)
		}
	}
}

func builtinOptions(t *testing.T) *analyzer.Options {
	t.Helper()
	s, err := ddl.BuiltinSchema(ddl.SchemaOptions{Tables: 2})
	if err != nil {
		t.Fatal(err)
	}
	return &analyzer.Options{Schema: s, Rules: rules.All()}
}

// renderRead renders a read scenario with the first table of a family and
// values bound as arguments, and leaves writes and non-scenario files out.
func TestRenderRead(t *testing.T) {
	opts := builtinOptions(t)
	read := analyzer.File{Path: "inner/r.sql", Source: "-- scenario: r\n-- param m: table(main)\n-- param c: list(continent)\n" +
		"SELECT m.id FROM {{m}} AS m WHERE m.continent = {{c}};\n"}
	st, why := renderRead(read, opts, Options{Seed: 1})
	if st == nil {
		t.Fatalf("not rendered: %s", why)
	}
	if !strings.Contains(st.SQL, "main1") || !strings.Contains(st.SQL, "= ?") || len(st.Args) != 1 {
		t.Errorf("rendered %q with %v", st.SQL, st.Args)
	}
	for _, f := range []analyzer.File{
		{Path: "update/w.sql", Source: "-- scenario: w\n-- param m: table(main)\nUPDATE {{m}} SET myvalue = 1 WHERE id = 3;\n"},
		{Path: "ddl.sql", Source: "CREATE TABLE t (id INT PRIMARY KEY);\n"},
		{Path: "two.sql", Source: "-- scenario: two\nSELECT 1 FROM level1; SELECT 2 FROM level2;\n"},
	} {
		if st, why := renderRead(f, opts, Options{}); st != nil || why != "" {
			t.Errorf("%s: rendered %v (%s)", f.Path, st, why)
		}
	}
	bad := analyzer.File{Path: "b.sql", Source: "-- scenario: b\n-- param m: table(nosuch)\nSELECT 1 FROM {{m}};\n"}
	if st, why := renderRead(bad, opts, Options{}); st != nil || !strings.Contains(why, "cannot render") {
		t.Errorf("a scenario that does not compile: %v, %q", st, why)
	}
}

// PlanOf and CheckPlan together: a FORCE INDEX the plan (captured from
// a MariaDB sandbox) does not follow is reported at the hint.
func TestPlanOfFixture(t *testing.T) {
	src, err := os.ReadFile("testdata/force_unusable.sql")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("testdata/force_unusable.plan.json")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := PlanOf(string(b))
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Tables) != 2 || plan.Tables[0].Name != "level1" || plan.Tables[0].Access != "ALL" {
		t.Fatalf("plan %+v", plan.Tables)
	}
	diags := analyzer.CheckPlan("force_unusable.sql", string(src), builtinOptions(t), plan)
	if len(diags) != 1 || diags[0].Rule != "plan-ignores-index-hint" || diags[0].Line != 7 || diags[0].Col != 13 {
		t.Fatalf("got %v", diags)
	}
	if _, err := PlanOf("not json"); err == nil {
		t.Error("PlanOf of a broken plan: no error")
	}
}
