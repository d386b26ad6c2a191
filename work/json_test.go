package work

import (
	"os"
	"strings"
	"testing"
)

func TestParseLenientKeepsOrderAndValues(t *testing.T) {
	n, err := parseLenient(`{"b": 1, "a": [true, null, "x\ty"], "c": {"d": -2.5e3}}`)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, m := range n.members {
		keys = append(keys, m.key)
	}
	if got := strings.Join(keys, ","); got != "b,a,c" {
		t.Errorf("members in order %s, want b,a,c", got)
	}
	if v, _ := n.get("c").get("d").num(); v != -2500 {
		t.Errorf("c.d = %v", v)
	}
	if s := n.get("a").items[2].str(); s != "x\ty" {
		t.Errorf("a[2] = %q", s)
	}
}

// MariaDB writes conditions into strings as SQL: the recorded plan is not
// valid JSON, and the parser must still read it, keeping the text.
func TestParseLenientReadsMariaDBConditions(t *testing.T) {
	b, err := os.ReadFile("testdata/mariadb/escapes_in_conditions.json")
	if err != nil {
		t.Fatal(err)
	}
	n, err := parseLenient(string(b))
	if err != nil {
		t.Fatal(err)
	}
	tbl := n.get("query_block").get("nested_loop").items[0].get("table")
	want := "level1.continent = 'it\\'s \"x\" y' or level1.record_code = 'a\\Zb\tc'"
	if got := tbl.get("attached_condition").str(); got != want {
		t.Errorf("condition %q, want %q", got, want)
	}
}

func TestParseLenientErrors(t *testing.T) {
	for _, s := range []string{
		``, `{`, `{"a"}`, `{"a": 1,}`, `[1 2]`, `"abc`, `{"a": 1} x`, `nul`,
		// a double quote followed by a comma inside a condition cannot be
		// told from the end of the string
		`{"c": "x = 'a", b'"}`,
		strings.Repeat("[", maxDepth+2) + strings.Repeat("]", maxDepth+2),
	} {
		if _, err := parseLenient(s); err == nil {
			t.Errorf("%.40q: no error", s)
		}
	}
}

func FuzzParseMariaDBAnalyze(f *testing.F) {
	for _, name := range []string{"simple_inner_index", "anti_join_not_exists_pk", "escapes_in_conditions"} {
		b, err := os.ReadFile("testdata/mariadb/" + name + ".json")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = ParseMariaDBAnalyze(s) // must not panic
	})
}
