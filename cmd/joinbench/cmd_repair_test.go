package main

import (
	"database/sql"
	"os"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/ledger"
	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/internal/testdb"
)

// repair --list names what a killed joinbench left on a server named by
// --dsn and exits 1; repair undoes it (a pt-osc's triggers dropped); then
// --list finds nothing and exits 0.
func TestRepairListsAndUndoesOnAServer(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	dsn := testdb.Fresh(t, "cmd_repair")
	r, err := (&server.Options{DSNs: []string{dsn}}).Resolve()
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var database string
	if err := db.QueryRow("SELECT DATABASE()").Scan(&database); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"CREATE TABLE big (id INT PRIMARY KEY)", "CREATE TRIGGER pt_osc_" + database + "_big_ins AFTER INSERT ON big FOR EACH ROW SET @x = 1"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	gone := ledger.Self()
	gone.Start++ // this pid at another start time: a dead joinbench's
	if _, err := r.Endpoints[0].Ledger().Add(ledger.Entry{Kind: sandbox.ChangeOnlineSchemaChange, What: "pt-online-schema-change on big",
		Undo: map[string]string{"database": database, "table": "big"}, Owner: gone}); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCapturedAll(t, "repair", "--dsn", dsn, "--list")
	if code != 1 || !strings.Contains(out, "left by a joinbench that was killed") || !strings.Contains(out, "pt-online-schema-change on big") {
		t.Fatalf("repair --list: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCapturedAll(t, "repair", "--dsn", dsn)
	if code != 0 || !strings.Contains(errOut, "triggers and copy dropped") {
		t.Fatalf("repair: exit %d\n%s%s", code, out, errOut)
	}
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE()").Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d triggers after repair (%v)", n, err)
	}
	if code, out, errOut := runCapturedAll(t, "repair", "--dsn", dsn, "--list"); code != 0 || !strings.Contains(out, "nothing noted") {
		t.Fatalf("repair --list after repair: exit %d\n%s%s", code, out, errOut)
	}
}

// repair needs one server: none, or a sandbox and a server, is one line
// and exit 2, as is --force on a sandbox.
func TestRepairFlagsNameOneServer(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	for _, v := range []string{"JOINBENCH_DSN", "JOINBENCH_HOST", "JOINBENCH_PORT", "JOINBENCH_SOCKET", "JOINBENCH_SANDBOX"} {
		t.Setenv(v, "") // restored after the test
		os.Unsetenv(v)  // an empty --dsn would name a server
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"repair"}, "no server named"},
		{[]string{"repair", "--sandbox", "x", "--force", "id"}, "--force"},
	} {
		code, _, stderr := runCapturedAll(t, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%v: exit %d, %q; want 2 and one line with %q", c.args, code, stderr, c.want)
		}
	}
}
