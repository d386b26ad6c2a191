package corpus

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/sqllex"
	"github.com/joinbench/joinbench/internal/usage"
)

const hdr = "-- param m: table(main)\n"

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src string
		pos       string // line:col
		msg       string
	}{
		{"unknown key", "-- scenario: x\n-- descripton: oops\nSELECT 1", "2:4", `unknown header key "descripton"`},
		{"misspelt key", "-- scenario: x\n-- descripton: oops\nSELECT 1", "2:4", `unknown header key "descripton"; did you mean description?`},
		{"name mismatch", "-- scenario: y\nSELECT 1", "1:14", `does not match the file name "x"`},
		{"undeclared", hdr + "SELECT * FROM {{m}}\nWHERE id = {{idd}}", "3:12", "placeholder {{idd}} is not declared"},
		{"unused", hdr + "-- param s: enum(level1.record_status)\nSELECT * FROM {{m}}", "2:10", `parameter "s" is declared but not used`},
		{"used only in a comment", hdr + "-- param s: list(color)\nSELECT * FROM {{m}} -- {{s}}\n", "2:10", `"s" is declared but not used`},
		{"unknown type", "-- param m: tabel(main)\nSELECT {{m}}", "1:13", `unknown parameter type "tabel"`},
		{"int args count", hdr + "-- param n: int(1)\nSELECT * FROM {{m}} WHERE a = {{n}}", "2:13", "int takes 2 arguments, got 1"},
		{"int not a number", hdr + "-- param n: int(1, x)\nSELECT * FROM {{m}} WHERE a = {{n}}", "2:20", `"x" is not a whole number`},
		{"int reversed", hdr + "-- param n: int(9,1)\nSELECT * FROM {{m}} WHERE a = {{n}}", "2:17", "low bound is above the high bound"},
		{"enum not table.column", hdr + "-- param s: enum(status)\nSELECT * FROM {{m}} WHERE a = {{s}}", "2:18", "expected table.column"},
		{"uuid takes none", hdr + "-- param u: uuid(4)\nSELECT * FROM {{m}} WHERE a = {{u}}", "2:13", "uuid takes no arguments"},
		{"string too long", hdr + "-- param u: string(1,70000)\nSELECT * FROM {{m}} WHERE a = {{u}}", "2:22", "must be a whole number in 0..65535"},
		{"year out of range", hdr + "-- param y: year(1800,1999)\nSELECT * FROM {{m}} WHERE a = {{y}}", "2:18", "1901..2155"},
		{"unknown distribution", hdr + "-- param n: int(1,9) zipfian\nSELECT * FROM {{m}} WHERE a = {{n}}", "2:22", `unknown distribution "zipfian"`},
		{"bad pareto", hdr + "-- param n: int(1,9) pareto(2)\nSELECT * FROM {{m}} WHERE a = {{n}}", "2:29", "h must be a number between 0 and 1"},
		{"no distribution on uuid", hdr + "-- param u: uuid zipf\nSELECT * FROM {{m}} WHERE a = {{u}}", "2:18", "takes no distribution"},
		{"duplicate param", hdr + "-- param m: table(main)\nSELECT {{m}}", "2:10", `"m" is declared twice`},
		{"missing colon", "-- param m table(main)\nSELECT {{m}}", "1:12", "expected `:`"},
		{"missing paren", "-- param m: table(main\nSELECT {{m}}", "1:18", "missing `)`"},
		{"placeholder in string", hdr + "-- param c: list(color)\nSELECT * FROM {{m}} WHERE c = '{{c}}'", "3:32", "placeholder inside a quoted string"},
		{"placeholder in backquotes", hdr + "SELECT * FROM `{{m}}`", "2:16", "placeholder inside a quoted identifier"},
		{"value in hint", hdr + "-- param c: list(color)\nSELECT /*+ BKA({{c}}) */ * FROM {{m}} WHERE c = {{c}}", "3:16", "only table placeholders may appear in an optimizer hint"},
		{"bare question mark", hdr + "SELECT * FROM {{m}} WHERE a = ?", "2:31", "a bare ? is not allowed"},
		{"malformed placeholder", hdr + "SELECT * FROM {{ m }} WHERE a = {{1}}", "2:33", "malformed placeholder"},
		{"unterminated string", hdr + "SELECT * FROM {{m}} WHERE a = 'abc", "2:31", "unterminated quoted text"},
		{"unterminated hint", hdr + "SELECT /*+ NO_BKA() * FROM {{m}}", "2:8", "unterminated optimizer hint"},
		{"no statement", hdr + "-- only a comment\n\n", "4:1", "the scenario has no statement"},
		{"bad count", "-- count: many\nSELECT 1", "1:11", "count must be a whole number"},
		{"param without colon form", "-- param: m\nSELECT 1", "1:9", "-- param NAME: TYPE"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseFile("dir/x.sql", []byte(tc.src))
			if err == nil {
				t.Fatalf("no error, want %s: %s", tc.pos, tc.msg)
			}
			if !usage.Is(err) {
				t.Errorf("%v is not a usage error", err)
			}
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("%v carries no *Error", err)
			}
			want := "dir/x.sql:" + tc.pos + ": "
			if !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error\n  %v\nwant %s...%s", err, want, tc.msg)
			}
		})
	}
}

func TestParseFile(t *testing.T) {
	src := `-- scenario: probe
-- description: first half
-- description: second half
-- tags: inner, simple,pk
-- count: 2
-- Note: a comment line in the header is fine when its first word is not lower-case
-- param m: table(main)
-- param c: list(continent) zipf(1.5)
-- param n: id(main) pareto

/* a comment */ SELECT /*+ JOIN_ORDER({{m}}) */ a -- trailing {{x}} comment
FROM {{m}} AS m WHERE m.continent = {{ c }} AND m.id = {{n}} AND note = 'it''s ; {x}';
# a hash comment; still a comment
DELETE FROM {{m}} WHERE id = {{n}}
`
	s, err := ParseFile("corpus/scenarios/inner/probe.sql", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "probe" || s.Family != "inner" || s.Count != 2 {
		t.Errorf("name %q family %q count %d", s.Name, s.Family, s.Count)
	}
	if s.Description != "first half second half" {
		t.Errorf("description %q", s.Description)
	}
	if strings.Join(s.Tags, "|") != "inner|simple|pk" {
		t.Errorf("tags %q", s.Tags)
	}
	c := s.Param("c")
	if c == nil || c.Kind != KindList || c.Args[0] != "continent" || c.Distribution != DistZipf || c.DistArgs[0] != "1.5" || c.Line != 8 || c.Col != 10 {
		t.Errorf("param c = %+v", c)
	}
	if len(s.Uses) != 6 {
		t.Fatalf("%d uses, want 6", len(s.Uses))
	}
	if u := s.Uses[2]; s.Source[u.Start:u.End] != "{{ c }}" || u.Param != c {
		t.Errorf("use 2 = %q", s.Source[u.Start:u.End])
	}
	if len(s.Statements) != 2 {
		t.Fatalf("%d statements, want 2", len(s.Statements))
	}
	if got := s.Source[s.Statements[1].Start:s.Statements[1].End]; got != "DELETE FROM {{m}} WHERE id = {{n}}" {
		t.Errorf("statement 1 span = %q", got)
	}
	if !strings.HasPrefix(s.Body, "/* a comment */") || s.Source[s.BodyOffset:] != s.Body {
		t.Errorf("body = %q", s.Body)
	}
	schema := builtinSchema(t, 2)
	tmpl, err := Compile(s, schema, CompileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !tmpl.Write {
		t.Error("a scenario with a DELETE must be a write")
	}
	qs := tmpl.Queries()
	want := []string{
		"SELECT /*+ JOIN_ORDER(`main1`) */ a \nFROM `main1` AS m WHERE m.continent = ? AND m.id = ? AND note = 'it''s ; {x}'",
		"SELECT /*+ JOIN_ORDER(`main2`) */ a \nFROM `main2` AS m WHERE m.continent = ? AND m.id = ? AND note = 'it''s ; {x}'",
		"DELETE FROM `main1` WHERE id = ?",
		"DELETE FROM `main2` WHERE id = ?",
	}
	if strings.Join(qs, "\n|\n") != strings.Join(want, "\n|\n") {
		t.Errorf("queries:\n%s\nwant:\n%s", strings.Join(qs, "\n|\n"), strings.Join(want, "\n|\n"))
	}
	r := tmpl.NewRenderer(3, 1)
	for range 20 {
		st := r.Next()
		vals := r.Values(nil)
		if len(st) != 2 || len(st[0].Args) != 2 || len(st[1].Args) != 1 {
			t.Fatalf("statements %v", st)
		}
		if st[0].Args[1] != st[1].Args[0] {
			t.Errorf("one parameter must keep its value across the statements: %v vs %v", st[0].Args[1], st[1].Args[0])
		}
		if !strings.Contains(st[0].SQL, "`"+vals[0]+"`") || !strings.Contains(st[1].SQL, "`"+vals[0]+"`") {
			t.Errorf("table value %q not in %q", vals[0], st[0].SQL)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	schema := builtinSchema(t, 1)
	tests := []struct{ src, want string }{
		{"-- param m: table(mian)\nSELECT {{m}}", "x.sql:1:19: table(mian): no table or table family"},
		{hdr + "-- param s: enum(level1.status)\nSELECT {{m}} WHERE {{s}}", `x.sql:2:18: enum(level1.status): table level1 has no column "status"`},
		{hdr + "-- param s: set(main.enum_field)\nSELECT {{m}} WHERE {{s}}", "x.sql:2:17: set(main.enum_field): column main1.enum_field is enum, not SET"},
		{hdr + "-- param s: enum(nope.x)\nSELECT {{m}} WHERE {{s}}", `x.sql:2:18: enum(nope.x): no table or table family "nope"`},
		{hdr + "-- param s: list(colour)\nSELECT {{m}} WHERE {{s}}", "x.sql:2:18: list(colour): no such list"},
		{hdr + "-- param s: id(nope)\nSELECT {{m}} WHERE {{s}}", `x.sql:2:16: id(nope): no table or table family "nope"`},
	}
	for _, tc := range tests {
		s, err := ParseFile("x.sql", []byte(tc.src))
		if err != nil {
			t.Fatalf("parse %q: %v", tc.src, err)
		}
		_, err = Compile(s, schema, CompileOptions{})
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || !usage.Is(err) {
			t.Errorf("Compile error\n  %v\nwant %s", err, tc.want)
		}
	}
	s, _ := ParseFile("x.sql", []byte(hdr+"SELECT {{m}}"))
	if _, err := Compile(s, schema, CompileOptions{Distribution: "normal"}); err == nil || !usage.Is(err) {
		t.Errorf("a bad default distribution must be a usage error, got %v", err)
	}
}

func TestCompileTableNamePrefix(t *testing.T) {
	schema, err := ddl.BuiltinSchema(ddl.SchemaOptions{Tables: 2, TableName: "fact"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseFile("x.sql", []byte(hdr+"-- param e: enum(main.enum_field)\nSELECT * FROM {{m}} WHERE enum_field = {{e}}"))
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := Compile(s, schema, CompileOptions{TableName: "fact", Tables: 1})
	if err != nil {
		t.Fatal(err)
	}
	if q := tmpl.Queries(); len(q) != 1 || q[0] != "SELECT * FROM `fact1` WHERE enum_field = ?" {
		t.Errorf("queries %q", q)
	}
}

func TestLoadUserCorpus(t *testing.T) {
	dir := t.TempDir()
	write := func(p, src string) {
		t.Helper()
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("regions.list", "# regions\nNorth\n\n South \n")
	write("mine/by_region.sql", hdr+"-- param r: list(regions)\nSELECT * FROM {{m}} WHERE region = {{r}}")
	c, err := Load(LoadOptions{Dirs: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	s := c.Get("by_region")
	if s == nil || s.Family != "mine" || s.Builtin {
		t.Fatalf("user scenario = %+v", s)
	}
	if vals, _ := c.List("regions"); strings.Join(vals, ",") != "North,South" {
		t.Errorf("list = %q", vals)
	}
	if len(c.Scenarios()) != len(builtinNames())+1 {
		t.Errorf("%d scenarios", len(c.Scenarios()))
	}
	if last := c.Scenarios()[len(c.Scenarios())-1]; last != s {
		t.Errorf("user families sort after the built-in ones, last is %s", last.Name)
	}
	tmpl, err := Compile(s, builtinSchema(t, 1), CompileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := tmpl.NewRenderer(1, 0)
	r.Next()
	if v := r.Values(nil); v[1] != "North" && v[1] != "South" {
		t.Errorf("values %q", v)
	}

	// A built-in name is an error unless --override.
	write("mine/simple_inner_pk.sql", hdr+"SELECT 1 FROM {{m}}")
	_, err = Load(LoadOptions{Dirs: []string{dir}})
	if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), "corpus/scenarios/inner/simple_inner_pk.sql") ||
		!strings.Contains(err.Error(), "--override") {
		t.Errorf("duplicate of a built-in: %v", err)
	}
	c, err = Load(LoadOptions{Dirs: []string{dir}, Override: true})
	if err != nil {
		t.Fatal(err)
	}
	if s := c.Get("simple_inner_pk"); s.Builtin || s.Family != "mine" || len(c.Scenarios()) != len(builtinNames())+1 {
		t.Errorf("override did not replace the built-in: %+v", s)
	}
	c, err = Load(LoadOptions{Dirs: []string{dir}, NoBuiltin: true})
	if err != nil || len(c.Scenarios()) != 2 {
		t.Errorf("NoBuiltin: %v, %d scenarios", err, len(c.Scenarios()))
	}

	// Two user files of one name are an error even with --override.
	write("other/by_region.sql", hdr+"SELECT 1 FROM {{m}}")
	_, err = Load(LoadOptions{Dirs: []string{dir}, Override: true})
	if err == nil || !strings.Contains(err.Error(), "by_region") {
		t.Errorf("duplicate user names: %v", err)
	}
	os.Remove(filepath.Join(dir, "other/by_region.sql"))

	// An unknown list is reported at load time, with its position.
	write("mine/bad.sql", hdr+"-- param r: list(nowhere)\nSELECT * FROM {{m}} WHERE region = {{r}}")
	_, err = Load(LoadOptions{Dirs: []string{dir}, Override: true})
	if err == nil || !strings.HasSuffix(filepath.ToSlash(strings.SplitN(err.Error(), ":", 2)[0]), "mine/bad.sql") ||
		!strings.Contains(err.Error(), ":2:18: list(nowhere): no such list") {
		t.Errorf("unknown list: %v", err)
	}

	if _, err := Load(LoadOptions{Dirs: []string{filepath.Join(dir, "missing")}}); err == nil || !usage.Is(err) {
		t.Errorf("missing folder: %v", err)
	}
}

func TestCompileMoreTablesThanTheSchemaHas(t *testing.T) {
	s, err := ParseFile("x.sql", []byte(hdr+"SELECT * FROM {{m}} JOIN level1"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Compile(s, builtinSchema(t, 2), CompileOptions{Tables: 3})
	if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), "3 tables asked for, the schema has 2") {
		t.Errorf("error = %v", err)
	}
	if _, err := Compile(s, nil, CompileOptions{}); err == nil {
		t.Error("a nil schema must be an error")
	}
}

// TestParseFileAllReportsEveryMistake: each bad header line and each bad
// placeholder of the body is a mistake of its own, in reading order; the
// uses of a parameter declared wrongly are not, nor an unused parameter
// once the body has a mistake. ParseFile returns the first, as before.
func TestParseFileAllReportsEveryMistake(t *testing.T) {
	src := "-- scenario: many\n" +
		"-- colour: blue\n" + // unknown key
		"-- count: -5\n" + // bad count
		"-- param a: number(1, 2)\n" + // unknown type: its uses below are not mistakes
		"-- param b: int(1, 9)\n" +
		"SELECT * FROM level1 WHERE id = {{a}} AND x = {{b}}\n" +
		"  AND y = {{nope}} AND z = ? AND w = '{{b}}';\n"
	_, errs := ParseFileAll("many.sql", []byte(src))
	var got []string
	for _, e := range errs {
		got = append(got, fmt.Sprintf("%d:%d %s", e.Line, e.Col, e.Msg))
	}
	want := []string{
		`2:4 unknown header key "colour"`,
		`3:11 count must be a whole number`,
		`4:13 unknown parameter type "number"`,
		`7:11 placeholder {{nope}} is not declared`,
		`7:28 a bare ? is not allowed`,
		`7:39 placeholder inside a quoted string`,
	}
	if len(got) != len(want) {
		t.Fatalf("mistakes:\n  %s\nwant %d", strings.Join(got, "\n  "), len(want))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("mistake %d: %s, want %s...", i, got[i], want[i])
		}
	}
	if _, err := ParseFile("many.sql", []byte(src)); err == nil || !strings.Contains(err.Error(), `many.sql:2:4: unknown header key "colour"`) {
		t.Errorf("ParseFile: %v, want the first mistake", err)
	}
	// Unused parameters are mistakes of their own when the body has none.
	_, errs = ParseFileAll("u.sql", []byte("-- param a: int(1, 2)\n-- param b: int(1, 2)\nSELECT 1;\n"))
	if len(errs) != 2 || errs[0].Line != 1 || errs[1].Line != 2 {
		t.Errorf("unused parameters: %v", errs)
	}
}

// TestParamPositions: a parameter's line and column are those of its
// name in the file, whatever the lines before it (blank, CRLF, indented,
// comments).
func TestParamPositions(t *testing.T) {
	src := "-- scenario: pos\r\n\r\n--   a comment\n  -- param m: table(main)\n\n--\tparam s: enum(level1.record_status)\r\n" +
		"SELECT m.id FROM {{m}} AS m WHERE m.record_status = {{s}};\n"
	sc, err := ParseFile("corpus/pos.sql", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range sc.Params {
		line, col := sqllex.Position(src, strings.Index(src, "param "+p.Name)+len("param "))
		if p.Line != line || p.Col != col {
			t.Errorf("param %s at %d:%d; want %d:%d", p.Name, p.Line, p.Col, line, col)
		}
	}
	if len(sc.Params) != 2 {
		t.Fatalf("params %v", sc.Params)
	}
}
