package ddl

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from golden file:\n--- got\n%s", name, got)
	}
}

func TestBuiltinSchemaGolden(t *testing.T) {
	s, err := BuiltinSchema(SchemaOptions{Tables: 2})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "builtin_schema.golden", s.Describe())
	stmts, err := CreateStatements(SchemaOptions{Tables: 1})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "builtin_ddl.golden", strings.Join(stmts, ";\n\n")+";\n")
}

func TestBuiltinSchemaShape(t *testing.T) {
	s, err := BuiltinSchema(SchemaOptions{Tables: 3, TableName: "sbtest"})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(s.Tables()); got != 8 {
		t.Fatalf("%d tables, want 8", got)
	}
	mains := s.Family("sbtest")
	if len(mains) != 3 || mains[0].Name != "sbtest1" || mains[2].Name != "sbtest3" {
		t.Fatalf("main family = %v", names(mains))
	}
	for i := 1; i <= 5; i++ {
		lv := s.Family(LevelTableName(i))
		if len(lv) != 1 || lv[0].Name != LevelTableName(i) {
			t.Fatalf("family level%d = %v", i, names(lv))
		}
	}
	m := s.Table("SBTEST2")
	if len(m.Columns) != 26 {
		t.Errorf("main has %d columns, want 26", len(m.Columns))
	}
	if got := m.Column("enum_field").Type.Members; strings.Join(got, ",") != "active,inactive,pending" {
		t.Errorf("enum members = %v", got)
	}
	if got := m.Column("set_field").Type.Members; strings.Join(got, ",") != "read,write,execute,delete" {
		t.Errorf("set members = %v", got)
	}
	if ty := m.Column("uuid").Type; ty.Base != "varchar" || ty.Length != 36 || ty.Charset != "latin1" {
		t.Errorf("uuid type = %+v", ty)
	}
	if ty := m.Column("decimal_number").Type; ty.String() != "decimal(10,2)" {
		t.Errorf("decimal type = %s", ty)
	}
	if ty := m.Column("uuid_bin").Type; ty.String() != "binary(16)" {
		t.Errorf("uuid_bin type = %s", ty)
	}
	if ty := m.Column("varbinary_field").Type; ty.String() != "varbinary(255)" {
		t.Errorf("varbinary type = %s", ty)
	}
	if m.PrimaryKey == nil || m.PrimaryKey.Columns[0] != "id" || !m.Column("id").AutoIncrement {
		t.Errorf("primary key = %+v", m.PrimaryKey)
	}
	if ix := m.Index("comp_color"); ix == nil || strings.Join(ix.Columns, ",") != "color,continent,enum_field,year_field" {
		t.Errorf("comp_color = %+v", ix)
	}
	if ix := m.Index("unique_varchar"); ix == nil || !ix.Unique {
		t.Errorf("unique_varchar = %+v", ix)
	}
	if got := len(m.Indexes); got != 14 {
		t.Errorf("main has %d indexes, want 14", got)
	}
	l := s.Table("level3")
	if got := len(l.Indexes); got != 12 {
		t.Errorf("level has %d indexes, want 12", got)
	}
	if c := l.Column("record_priority"); !c.NotNull || c.Type.Base != "int" {
		t.Errorf("record_priority = %+v", c)
	}
	if len(l.IndexesLedBy("continent")) != 2 {
		t.Errorf("indexes led by continent = %d, want 2", len(l.IndexesLedBy("continent")))
	}
	for _, c := range l.Columns {
		all, first := l.IndexesLedBy(strings.ToUpper(c.Name)), l.IndexLedBy(strings.ToUpper(c.Name))
		if len(all) > 0 && first != all[0] || len(all) == 0 && first != nil {
			t.Errorf("IndexLedBy(%s) = %v; IndexesLedBy %v", c.Name, first, all)
		}
	}
}

func TestBuiltinSchemaOptions(t *testing.T) {
	s, err := BuiltinSchema(SchemaOptions{NoPrimaryKey: true, Engine: "MyISAM", TableOptions: "-"})
	if err != nil {
		t.Fatal(err)
	}
	m := s.Table("main1")
	if m.PrimaryKey != nil || m.Column("id").AutoIncrement {
		t.Errorf("no-primary-key table has primary key %+v / auto_increment", m.PrimaryKey)
	}
	if m.Engine != "MyISAM" || m.Options != "" {
		t.Errorf("engine %q options %q", m.Engine, m.Options)
	}
	s, err = BuiltinSchema(SchemaOptions{ClientIDs: true})
	if err != nil {
		t.Fatal(err)
	}
	if m := s.Table("main1"); m.PrimaryKey == nil || m.Column("id").AutoIncrement {
		t.Error("client ids: want a primary key and no auto_increment")
	}
	for _, bad := range []SchemaOptions{{Tables: -1}, {TableName: "x; DROP"}, {TableName: "level"}, {Engine: "a b"}, {TableOptions: "x;y"}} {
		if _, err := BuiltinSchema(bad); err == nil {
			t.Errorf("%+v: want an error", bad)
		}
	}
}

func TestBuiltinTablesDeferredIndexes(t *testing.T) {
	tabs, err := BuiltinTables(SchemaOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tabs) != 6 {
		t.Fatalf("%d tables", len(tabs))
	}
	bare, err := ParseSchema(tabs[0].CreateBare)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(bare.Table("main1").Indexes); got != 1 {
		t.Errorf("bare main has %d indexes, want only the primary key", got)
	}
	golden(t, "add_indexes_level.golden", tabs[1].AddIndexes+"\n")
}

func TestParseSchemaUserDDL(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "user_schema.sql"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseSchema(string(src))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "user_schema.golden", s.Describe())
}

func TestParseSchemaErrorPosition(t *testing.T) {
	src := "-- header\nCREATE TABLE ok (id INT);\n\nCREATE TABLE bad (\n  id INT,\n  name VARCHAR(10) NOT NULLX\n);\n"
	_, err := ParseSchema(src)
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v, want a ParseError", err)
	}
	if pe.Line != 6 {
		t.Errorf("error at %d:%d (%v), want line 6", pe.Line, pe.Col, err)
	}
	_, err = ParseSchema("CREATE TABLE t (a INT, KEY k (nope));")
	if err == nil || !strings.Contains(err.Error(), "unknown column nope") {
		t.Errorf("err = %v, want unknown column", err)
	}
}

func TestSplitStatements(t *testing.T) {
	src := "/* c; */ SELECT 'a;b';\n# x;\nSELECT `q;`; -- y;\n  SELECT \"it''s;\";"
	got := splitStatements(src)
	if len(got) != 3 {
		t.Fatalf("got %d statements: %+v", len(got), got)
	}
	if got[0].text != "SELECT 'a;b'" || got[0].line != 1 || got[0].col != 10 {
		t.Errorf("first = %+v", got[0])
	}
	if got[2].line != 4 || got[2].col != 3 {
		t.Errorf("third = %+v", got[2])
	}
}

func names(ts []*Table) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return out
}

// A CREATE TABLE's collations: a column's COLLATE, the table's CHARSET
// and COLLATE; what is not written stays "" (the defaults depend on the
// server, which the analyzer knows and the model does not).
func TestParseSchemaCollations(t *testing.T) {
	s, err := ParseSchema("CREATE TABLE t (a varchar(10) CHARACTER SET latin1, b varchar(10) COLLATE utf8mb4_bin, " +
		"c varchar(10) CHARACTER SET utf8mb4 COLLATE UTF8MB4_UNICODE_CI, d varchar(10)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;\n" +
		"CREATE TABLE u (e varchar(10));")
	if err != nil {
		t.Fatal(err)
	}
	tb := s.Table("t")
	if tb.Charset != "utf8mb4" || tb.Collation != "utf8mb4_general_ci" {
		t.Errorf("t: charset %q collation %q", tb.Charset, tb.Collation)
	}
	want := map[string][2]string{"a": {"latin1", ""}, "b": {"", "utf8mb4_bin"}, "c": {"utf8mb4", "utf8mb4_unicode_ci"}, "d": {"", ""}}
	for name, w := range want {
		ty := tb.Column(name).Type
		if ty.Charset != w[0] || ty.Collation != w[1] {
			t.Errorf("%s: charset %q collation %q, want %q %q", name, ty.Charset, ty.Collation, w[0], w[1])
		}
	}
	if u := s.Table("u"); u.Charset != "" || u.Collation != "" {
		t.Errorf("u: charset %q collation %q, want none", u.Charset, u.Collation)
	}
}
