package action

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Usage is the list the --action help always gave, with slow and crash.
func TestUsage(t *testing.T) {
	want := "'sql: STATEMENT' (TOI on Galera), 'rsu: STATEMENT', 'exec: COMMAND' ({host} {port} {user} {database} {socket} replaced), " +
		"'chunked SIZE [pk|limit]: DELETE or UPDATE', 'pause DURATION', 'lock DURATION: TABLE,...', 'restart [DURATION]', " +
		"'slow PERCENT cpu|io for DURATION' (after measuring its rate for 5s) or 'crash [DURATION]' (on all: every node at once)"
	if got := Usage(); got != want {
		t.Errorf("Usage() =\n%s\nwant\n%s", got, want)
	}
}

// Every kind is complete, reachable by name, and written as its syntax
// says.
func TestKinds(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range Kinds() {
		if k.Name == "" || k.Parse == nil || !strings.HasPrefix(k.Syntax, k.Name) || seen[k.Name] {
			t.Errorf("kind %+v: a name (once), a parser and a syntax that starts with the name", k)
		}
		seen[k.Name] = true
		if Lookup(k.Name) != k {
			t.Errorf("Lookup(%q) does not find it", k.Name)
		}
	}
}

// docs/workflow.md's table of kinds is DocTable's, between its markers:
// a new kind's row comes from its own file (go test -run TestWorkflowDoc
// -update rewrites the table).
func TestWorkflowDocTable(t *testing.T) {
	p := filepath.Join("..", "..", "docs", "workflow.md")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- action kinds: generated from each kind's Doc; go test ./replay/action -run TestWorkflowDocTable -update -->\n", "<!-- end of action kinds -->"
	doc := string(b)
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s: no markers %q ... %q around the table of kinds", p, begin, end)
	}
	want := doc[:i+len(begin)] + DocTable() + doc[j:]
	if want == doc {
		return
	}
	if *update {
		if err := os.WriteFile(p, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the table of kinds is not DocTable's (go test -run TestWorkflowDocTable -update rewrites it)", p)
}

// Every kind says what it does.
func TestKindsHaveDocs(t *testing.T) {
	for _, k := range Kinds() {
		if len(k.Doc) < 20 || strings.Contains(k.Doc, "\n") {
			t.Errorf("kind %s: Doc %q: a sentence at least, on one line (a table row)", k.Name, k.Doc)
		}
	}
}

var update = flag.Bool("update", false, "rewrite docs/workflow.md's table of kinds")
