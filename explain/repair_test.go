package explain

import (
	"encoding/json"
	"testing"
)

func TestRepairJSON(t *testing.T) {
	for _, c := range []struct {
		name, in, cond string // cond: the attached_condition decoded from the repaired text
	}{
		{"valid stays", `{"c": "a = 'x\\y'"}`, `a = 'x\y'`},
		{"sql quote escape", `{"c": "a = 'it\'s'"}`, `a = 'it\'s'`},
		{"sql Z and 0 escapes", `{"c": "a = 'b\Zc' or a = 'e\0f'"}`, `a = 'b\Zc' or a = 'e\0f'`},
		{"raw tab", "{\"c\": \"a = 'tab\there'\"}", "a = 'tab\there'"},
		{"unescaped quote", `{"c": "a = '"' or b = 1", "d": 2}`, `a = '"' or b = 1`},
		{"bad unicode escape", `{"c": "a = '\u12'"}`, `a = '\u12'`},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := RepairJSON(c.in)
			var v struct{ C string }
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatalf("RepairJSON(%s) = %s: still invalid: %v", c.in, out, err)
			}
			if v.C != c.cond {
				t.Errorf("condition = %q, want %q", v.C, c.cond)
			}
		})
	}
}

// TestShapeOfMariaDBPlanWithEscapes: a real MariaDB 10.11 plan whose
// condition holds SQL escapes gives a shape, not an error.
func TestShapeOfMariaDBPlanWithEscapes(t *testing.T) {
	plan := `{
  "query_block": {
    "select_id": 1,
    "nested_loop": [
      {
        "table": {
          "table_name": "t",
          "access_type": "ALL",
          "rows": 1,
          "filtered": 100,
          "attached_condition": "x.t.a = 'it\'s' or x.t.a = 'b\Zc' or x.t.a = '"' or x.t.a = 'tab	here'"
        }
      }
    ]
  }
}`
	if _, err := ShapeHash(flavorFor("mariadb"), plan); err != nil {
		t.Fatalf("ShapeHash: %v", err)
	}
	if tree, err := Tree(flavorFor("mariadb"), plan); err != nil || tree == "" {
		t.Fatalf("Tree = %q, %v", tree, err)
	}
}
