package ledger

import (
	"database/sql"
	"os"
	"strings"
	"testing"

	_ "github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/testdb"
)

// tableOn is a table ledger in a fresh database of the test server.
func tableOn(t *testing.T, name string) (*Table, *sql.DB) {
	t.Helper()
	dsn := testdb.Fresh(t, name)
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return OpenTable("the test server", func() (*sql.DB, error) { return sql.Open("mysql", dsn) }), db
}

// The table is made by the first entry, not before; each entry is a row
// that its done removes, named by the server it is on and owned by this
// process of this machine.
func TestTableAddEntriesRemove(t *testing.T) {
	l, db := tableOn(t, "ledger_table")
	if es, err := l.Entries(); err != nil || len(es) != 0 {
		t.Fatalf("entries before any: %v %v", es, err)
	}
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?", TableName).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%s exists before any entry (%d, %v)", TableName, n, err)
	}
	done, err := l.Add(Entry{Kind: "global", What: "x", Undo: map[string]string{"name": "v", "value": "it's"}})
	if err != nil {
		t.Fatal(err)
	}
	server, err := l.ServerName()
	if err != nil {
		t.Fatal(err)
	}
	es, err := l.Entries()
	if err != nil || len(es) != 1 {
		t.Fatalf("entries: %+v %v", es, err)
	}
	e := es[0]
	if e.Kind != "global" || e.Undo["value"] != "it's" || e.Node != server || e.Owner.PID != os.Getpid() || e.Owner.Host != ThisHost() || e.Orphaned() {
		t.Fatalf("entry %+v (server %s)", e, server)
	}
	var rows int
	if err := db.QueryRow("SELECT COUNT(*) FROM "+TableName+" WHERE id = ?", e.ID).Scan(&rows); err != nil || rows != 1 {
		t.Fatalf("rows with id %s: %d %v", e.ID, rows, err)
	}
	if err := done(); err != nil {
		t.Fatal(err)
	}
	if err := done(); err != nil {
		t.Fatalf("done twice: %v", err)
	}
	if es, _ := l.Entries(); len(es) != 0 {
		t.Fatalf("after done: %+v", es)
	}
}

// An entry whose owner is gone (its pid now another process's) is a
// leftover; a row that is not an entry is an error naming it.
func TestTableLeftoversAndABadRow(t *testing.T) {
	l, db := tableOn(t, "ledger_table_left")
	gone := Self()
	gone.Start++
	if _, err := l.Add(Entry{Kind: "global", Owner: gone}); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Add(Entry{Kind: "pt-osc"}); err != nil {
		t.Fatal(err)
	}
	left, err := Leftovers(l)
	if err != nil || len(left) != 1 || left[0].Kind != "global" {
		t.Fatalf("leftovers %+v %v", left, err)
	}
	if _, err := db.Exec("INSERT INTO " + TableName + " (id, entry) VALUES ('garbled', '{')"); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Entries(); err == nil || !strings.Contains(err.Error(), `"garbled"`) {
		t.Fatalf("a bad row: %v, want an error naming it", err)
	}
}

// The server's named lock excludes a second holder, as the folder's does.
func TestTableLockExcludes(t *testing.T) {
	l, _ := tableOn(t, "ledger_table_lock")
	testLockExcludes(t, l)
}
