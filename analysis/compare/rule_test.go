package compare

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the generated verdict table of docs/compare.md")

const (
	ruleDocs     = "../../docs/compare.md"
	ruleDocsFrom = "<!-- verdict rule: generated; go test ./analysis/compare -run TestRuleDocs -update -->\n"
	ruleDocsTo   = "<!-- end of verdict rule -->"
)

// docs/compare.md holds the verdict table as Steps describes it with the
// defaults; -update writes it.
func TestRuleDocs(t *testing.T) {
	b, err := os.ReadFile(ruleDocs)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i, j := strings.Index(doc, ruleDocsFrom), strings.Index(doc, ruleDocsTo)
	if i < 0 || j < i {
		t.Fatalf("%s has no generated verdict table between %q and %q", ruleDocs, ruleDocsFrom, ruleDocsTo)
	}
	want := RuleMarkdown(Options{})
	if got := doc[i+len(ruleDocsFrom) : j]; got != want {
		if !*update {
			t.Fatalf("%s: the verdict table differs from rule.go's; run go test ./analysis/compare -run TestRuleDocs -update\ngot:\n%s\nwant:\n%s", ruleDocs, got, want)
		}
		doc = doc[:i+len(ruleDocsFrom)] + want + doc[j:]
		if err := os.WriteFile(ruleDocs, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Every step names the code that applies it, and that code exists.
func TestRuleStepsNameTheirCode(t *testing.T) {
	for _, s := range Steps {
		file, fn, _ := strings.Cut(s.Code, ": ")
		b, err := os.ReadFile(filepath.Join(".", file))
		if err != nil {
			t.Errorf("step %q names %s: %v", s.Verdict, s.Code, err)
			continue
		}
		if fn != "" && !strings.Contains(string(b), ") "+fn+"(") && !strings.Contains(string(b), "func "+fn+"(") {
			t.Errorf("step %q names %s, which %s does not define", s.Verdict, fn, file)
		}
	}
}

// Describe fills every figure from the options and leaves out the steps
// of work when work is not judged.
func TestDescribe(t *testing.T) {
	o := Options{Threshold: 0.05, NoiseFloor: 0.25, MinSamples: 7, WorkBound: 2}
	text := RuleText(o)
	for _, want := range []string{"above 1.05 (slower by more than 5%)", "noise floor (25%", "fewer than 7 successful", "grew 2x and by 100",
		"at least 1 point", "below 1/1.05"} {
		if !strings.Contains(text, want) {
			t.Errorf("rule with %+v does not say %q:\n%s", o, want, text)
		}
	}
	if strings.ContainsAny(text, "{}") {
		t.Errorf("a placeholder is left: %s", text)
	}
	o.WorkBound = NoWork
	for _, s := range Describe(o) {
		if s.Work {
			t.Errorf("work not judged, yet the rule says %q", s.When)
		}
	}
	if len(Describe(o)) != len(Steps)-2 {
		t.Errorf("%d steps without work, want %d", len(Describe(o)), len(Steps)-2)
	}
}

// The help's lines fit their width, and a label too long for its column
// gets a line of its own.
func TestRuleHelpWraps(t *testing.T) {
	help := RuleHelp(Options{}, 60)
	for _, l := range strings.Split(help, "\n") {
		if len(l) > 60 && strings.Contains(strings.TrimSpace(l), " ") {
			t.Errorf("line of %d columns: %q", len(l), l)
		}
	}
	if !strings.Contains("\n"+help, "\n  "+OnlyInBase+", "+OnlyInCandidate+"\n") {
		t.Errorf("the long label is not on a line of its own:\n%s", help)
	}
}
