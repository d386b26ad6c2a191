package corpus

import (
	"os"
	"strings"
	"testing"
)

// TestKindsDocumented: every placeholder kind has its row in the
// README's placeholder table, so that a kind added in code is documented.
func TestKindsDocumented(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Kinds {
		if !strings.Contains(string(b), "| `"+k) {
			t.Errorf("README.md has no row for placeholder kind %s", k)
		}
	}
	if len(Kinds) != len(kinds) {
		t.Errorf("Kinds lists %d kinds, %d are registered", len(Kinds), len(kinds))
	}
}

// TestCheckParam: what lint finds wrong with a declaration that only a
// schema can tell; without a schema nothing is known.
func TestCheckParam(t *testing.T) {
	schema := builtinSchema(t, 2)
	tests := []struct{ decl, want string }{
		{"table(main)", ""},
		{"table(level9)", "no table of family level9 in the schema"},
		{"id(level1)", ""},
		{"id(nope)", "no table nope in the schema"},
		{"enum(level1.record_status)", ""},
		{"enum(nope.x)", "no table nope in the schema"},
		{"set(level1.nope)", "table level1 has no column nope"},
		{"enum(level1.record_value)", "level1.record_value is BIGINT, not ENUM or SET"},
		{"list(color)", ""},
		{"list(planets)", "no value list named planets"},
		{"int(1,5)", ""},
		{"year(2000,2001)", ""},
		{"uuid", ""},
	}
	for _, tc := range tests {
		s, err := ParseFile("x.sql", []byte("-- param p: "+tc.decl+"\nSELECT {{p}}"))
		if err != nil {
			t.Fatalf("%s: %v", tc.decl, err)
		}
		if got := s.CheckParam(s.Params[0], schema); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.decl, got, tc.want)
		}
		if got := s.CheckParam(s.Params[0], nil); got != "" && !strings.HasPrefix(tc.decl, "list(") {
			t.Errorf("%s without a schema: got %q, want nothing", tc.decl, got)
		}
	}
}

// TestParamFits: a parameter's values against the column they are
// compared with, kind by kind.
func TestParamFits(t *testing.T) {
	schema := builtinSchema(t, 1)
	main1, level1 := schema.Table("main1"), schema.Table("level1")
	tests := []struct {
		decl, table, column string
		want                string // "" or a part of the explanation
	}{
		{"enum(level1.record_status)", "main1", "enum_field", ""},
		{"set(main.set_field)", "main1", "enum_field", `"read" is not one of its members`},
		{"list(color)", "level1", "record_code", `"yellow" is longer than the column's 5`},
		{"list(color)", "main1", "integer_number", `"red" is not an integer`},
		{"int(0,70000)", "main1", "small_number", "range 0..70000 does not fit SMALLINT"},
		{"int(1,3)", "main1", "enum_field", "compares member positions"},
		{"year(1990,2000)", "main1", "year_field", ""},
		{"year", "main1", "small_number", ""},
		{"year(2000,2010)", "main1", "varchar_field", "a year compared with a VARCHAR column converts every row's string to a number"},
		{"year", "main1", "char_field", "a year compared with a CHAR column"},
		{"int(1,9)", "main1", "color", "an integer compared with a VARCHAR column"},
		{"string(1,300)", "main1", "char_field", "strings of up to 300 characters do not fit the column's 10"},
		{"string(1,5)", "main1", "integer_number", "a string compared with a INT column"},
		{"uuid", "main1", "char_field", "a UUID is 36 characters, the column holds 10"},
		{"uuid", "main1", "uuid", ""},
		{"id(main)", "main1", "color", "an id compared with a VARCHAR column"},
		{"id(main)", "level1", "id", ""},
		{"table(main)", "main1", "id", ""},
	}
	for _, tc := range tests {
		s, err := ParseFile("x.sql", []byte(hdr+"-- param p: "+tc.decl+"\nSELECT {{p}} FROM {{m}}"))
		if err != nil {
			t.Fatalf("%s: %v", tc.decl, err)
		}
		tab := main1
		if tc.table == "level1" {
			tab = level1
		}
		col := tab.Column(tc.column)
		if col == nil {
			t.Fatalf("no column %s.%s", tc.table, tc.column)
		}
		got := s.ParamFits(s.Param("p"), col, schema)
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%s against %s.%s: got %q, want %q", tc.decl, tc.table, tc.column, got, tc.want)
		}
	}
}
