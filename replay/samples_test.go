package replay

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/replay/results"
)

// TestSessionOnOwnSchema: a corpus on tables of its own compiles against
// SchemaFile (its enum placeholder finds the column there, not in the
// built-in schema), needs no prepared tables, and keeps its sample
// parameters for the run to read.
func TestSessionOnOwnSchema(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	schema := write("shop.sql", "CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT, status ENUM('new','paid') NOT NULL);\n")
	corpusDir := filepath.Join(dir, "corpus")
	if err := os.Mkdir(corpusDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(corpusDir, "by_customer.sql"), []byte(
		"-- param c: sample(orders.customer_id)\n-- param s: enum(orders.status)\nSELECT id FROM orders WHERE customer_id = {{c}} AND status = {{s}};\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := Options{RunOptions: results.RunOptions{All: true, NoBuiltin: true, CorpusDirs: []string{corpusDir}, ReadOnly: true,
		Threads: 1, Tables: 1, TableSize: 100, TableName: "main", Distribution: "uniform", IgnoreErrors: "none",
		PsMode: results.PsAuto, ExecPath: results.ExecDirect, Explain: results.ExplainOff}}
	if _, err := NewSession(o); err == nil || !usage.Is(err) || !strings.Contains(err.Error(), "enum(orders.status)") {
		t.Errorf("against the built-in schema: err = %v, want a usage error naming enum(orders.status)", err)
	}
	o.SchemaFile = schema
	s, err := NewSession(o)
	if err != nil {
		t.Fatal(err)
	}
	if s.UsesBuiltin() || len(s.work.templates) != 1 || len(s.work.templates[0].Samples()) != 1 {
		t.Errorf("builtin %v, templates with samples %d", s.UsesBuiltin(), len(s.work.templates))
	}
	o.SchemaFile = write("bad.sql", "CREATE TABLE (;\n")
	if _, err := NewSession(o); err == nil || !usage.Is(err) || !strings.Contains(err.Error(), "bad.sql:") {
		t.Errorf("a schema file that does not parse: err = %v", err)
	}
}

// TestImportedWritesOffUnlessEnabled: a scenario tagged imported that
// writes is refused, naming its file and the flag, unless the run lets
// imported writes run; one not tagged so is not concerned.
func TestImportedWritesOffUnlessEnabled(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"imported_update.sql": "-- tags: imported, update\n-- param id: int(1,5)\nUPDATE orders SET status = 'paid' WHERE id = {{id}};\n",
		"own_update.sql":      "-- tags: update\n-- param id: int(1,5)\nUPDATE orders SET status = 'new' WHERE id = {{id}};\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	o := Options{RunOptions: results.RunOptions{All: true, NoBuiltin: true, CorpusDirs: []string{dir},
		Threads: 1, Tables: 1, TableSize: 100, TableName: "main", Distribution: "uniform", IgnoreErrors: "none",
		PsMode: results.PsAuto, ExecPath: results.ExecDirect, Explain: results.ExplainOff}}
	_, err := NewSession(o)
	if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), "imported_update.sql:3:1: imported scenarios run read-only unless --imported-writes") ||
		strings.Contains(err.Error(), "own_update") {
		t.Errorf("err = %v, want the imported write refused alone", err)
	}
	o.ImportedWrites = true
	if _, err := NewSession(o); err != nil {
		t.Errorf("with ImportedWrites: %v", err)
	}
	o.Scenario, o.All = []string{"own_update"}, false
	o.ImportedWrites = false
	if _, err := NewSession(o); err != nil {
		t.Errorf("only a scenario of one's own that writes: %v", err)
	}
}
