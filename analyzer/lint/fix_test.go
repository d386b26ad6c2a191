package lint

import (
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/analyzer/analyzertest"
	"github.com/joinbench/joinbench/analyzer/rules"
)

// TestHintFixLeadsNowhereElse: a hint that names an aliased table by its
// name, in an order the server cannot follow, gets both findings, and the
// fix they suggest (one fix, offered by both) lints clean of both.
func TestHintFixLeadsNowhereElse(t *testing.T) {
	src := "-- scenario: h\n-- param m: table(main)\n" +
		"SELECT /*+ JOIN_ORDER(level1, {{m}}) */ m.id, level1.record_value\nFROM {{m}} AS m LEFT JOIN level1 ON m.l1_id = level1.id;\n"
	opts := &analyzer.Options{Rules: rules.All(), Schema: analyzertest.Schema()}
	rules := func(src string) []string {
		var out []string
		for _, d := range analyzer.AnalyzeFile("h.sql", src, opts) {
			if d.Rule == rules.HintUnresolved.Name || d.Rule == rules.ImpossibleJoinOrder.Name {
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
	fixed, n := analyzer.FixFile("h.sql", src, opts)
	if n != 1 || !strings.Contains(fixed, "/*+ JOIN_ORDER(m, level1) */") {
		t.Fatalf("fix: %d edit(s)\n%s", n, fixed)
	}
	if got := rules(fixed); len(got) != 0 {
		t.Errorf("after the fix: %v", got)
	}
}

// TestUnsafeFixesNeedAsking: a fix that changes the results is offered
// but FixFile applies it only with UnsafeFixes.
func TestUnsafeFixesNeedAsking(t *testing.T) {
	src := "-- scenario: f\n-- param m: table(main)\nSELECT m.id FROM {{m}} AS m\nLEFT JOIN level1 ON m.l1_id = level1.id AND m.small_number > 3\nLIMIT 10;\n"
	opts := &analyzer.Options{Rules: rules.All(), Schema: analyzertest.Schema()}
	if got, n := analyzer.FixFile("f.sql", src, opts); n != 0 || got != src {
		t.Errorf("applied %d unsafe edit(s) without being asked:\n%s", n, got)
	}
	opts.UnsafeFixes = true
	got, n := analyzer.FixFile("f.sql", src, opts)
	if n == 0 || !strings.Contains(got, "WHERE m.small_number > 3") || strings.Contains(got, "AND m.small_number") {
		t.Errorf("with UnsafeFixes: %d edit(s)\n%s", n, got)
	}
}
