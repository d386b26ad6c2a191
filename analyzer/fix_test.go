package analyzer

import (
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/usage"
)

// TestRewriteRightJoinsSyntaxError: a file that does not parse is a usage
// error naming the file, line and column of the mistake, as lint reports it.
func TestRewriteRightJoinsSyntaxError(t *testing.T) {
	src := "-- scenario: bad\n-- count: 1\nSELECT a.id\nFROM level1 a\nRIGHT JOIN level2 b ON a.id = b.id\nWHERE a.id = = 3;\n"
	_, err := RewriteRightJoins("custom/bad.sql", src, &Options{Schema: testSchema()})
	if err == nil {
		t.Fatal("no error for a statement that does not parse")
	}
	if want := `custom/bad.sql:6:14: syntax error near "= 3;"`; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	if !usage.Is(err) {
		t.Errorf("error %q is not a usage error", err)
	}
}

// TestHintFixLeadsNowhereElse: a hint that names an aliased table by its
// name, in an order the server cannot follow, gets both findings, and the
// fix they suggest (one fix, offered by both) lints clean of both.
func TestHintFixLeadsNowhereElse(t *testing.T) {
	src := "-- scenario: h\n-- param m: table(main)\n" +
		"SELECT /*+ JOIN_ORDER(level1, {{m}}) */ m.id, level1.record_value\nFROM {{m}} AS m LEFT JOIN level1 ON m.l1_id = level1.id;\n"
	opts := &Options{Schema: testSchema()}
	rules := func(src string) []string {
		var out []string
		for _, d := range AnalyzeFile("h.sql", src, opts) {
			if d.Rule == HintUnresolved.Name || d.Rule == ImpossibleJoinOrder.Name {
				out = append(out, d.Rule)
				if len(d.Fixes) != 1 || d.Fixes[0].Edits[0].NewText != "m, level1" {
					t.Errorf("%s: fixes %+v, want one listing m, level1", d, d.Fixes)
				}
			}
		}
		return out
	}
	if got := rules(src); strings.Join(got, " ") != "impossible-join-order hint-unresolved" {
		t.Fatalf("findings %v, want hint-unresolved and impossible-join-order", got)
	}
	fixed, n := FixFile("h.sql", src, opts)
	if n != 1 || !strings.Contains(fixed, "/*+ JOIN_ORDER(m, level1) */") {
		t.Fatalf("fix: %d edit(s)\n%s", n, fixed)
	}
	if got := rules(fixed); len(got) != 0 {
		t.Errorf("after the fix: %v", got)
	}
}
