package action

import (
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

// docs/workflow.md describes every kind in its table of kinds.
func TestWorkflowDocListsEveryKind(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "workflow.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Kinds() {
		if !strings.Contains(string(b), "\n| `"+k.Name+" ") && !strings.Contains(string(b), "\n| `"+k.Name+":") {
			t.Errorf("docs/workflow.md has no row for the %s kind in its table of kinds", k.Name)
		}
	}
}
