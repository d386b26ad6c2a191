package replay

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/results"
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

// TestDrawSamplesFromServer: before a run renders, the values of its
// sample parameters are read from the server, once per column, and every
// value a worker then binds is one the column holds, the same for a seed.
func TestDrawSamplesFromServer(t *testing.T) {
	db := testdb.Open(t, "replay_samples")
	for _, q := range []string{
		"CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT, KEY (customer_id))",
		"INSERT INTO orders VALUES (1, 10), (2, 10), (3, 30), (4, NULL), (5, 50), (6, 60), (7, 70)",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "by_customer.sql"), []byte(
		"-- param a: sample(orders.customer_id, 3)\n-- param b: sample(orders.customer_id, 3)\nSELECT id FROM orders WHERE customer_id IN ({{a}}, {{b}});\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := Options{RunOptions: results.RunOptions{All: true, NoBuiltin: true, CorpusDirs: []string{dir}, Seed: 5,
		Threads: 1, Tables: 1, TableSize: 100, TableName: "main", Distribution: "uniform", IgnoreErrors: "none",
		PsMode: results.PsAuto, ExecPath: results.ExecDirect, Explain: results.ExplainOff}}
	draw := func() []any {
		s, err := NewSession(o)
		if err != nil {
			t.Fatal(err)
		}
		var logged []string
		if err := s.work.drawSamples(context.Background(), db, o.Seed, func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }); err != nil {
			t.Fatal(err)
		}
		if len(logged) != 1 || logged[0] != "sample(orders.customer_id, 3): 3 values" {
			t.Errorf("logged %q, want the one column read once", logged)
		}
		r := s.work.scenarios[0].NewRenderer(o.Seed, 0)
		var out []any
		for i := 0; i < 50; i++ {
			out = append(out, r.Next()[0].Args...)
		}
		return out
	}
	got := draw()
	for _, v := range got {
		var n int
		if err := db.QueryRow("SELECT COUNT(*) FROM orders WHERE customer_id = ?", v).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Errorf("bound %#v, which orders.customer_id does not hold", v)
		}
	}
	if again := draw(); !reflect.DeepEqual(got, again) {
		t.Errorf("seed %d drew %v, then %v", o.Seed, got, again)
	}
}
