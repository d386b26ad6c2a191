package action

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/ledger"
	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/internal/testdb"
)

// A pt-online-schema-change action on a server named by --dsn notes its
// triggers and copy in the server's ledger table while it runs, and
// crosses them out once it has cleaned up: a joinbench killed meanwhile
// leaves the next command what to drop.
func TestExecNotesAnOnlineSchemaChangeOnTheServer(t *testing.T) {
	t.Setenv("HOME", t.TempDir()) // no ~/.my.cnf of the machine
	dsn := testdb.Fresh(t, "action_exec_ledger")
	r, err := (&server.Options{DSNs: []string{dsn}}).Resolve()
	if err != nil {
		t.Fatal(err)
	}
	release := filepath.Join(t.TempDir(), "release")
	// Not the tool itself: a command that names it, waits to be released,
	// and leaves what the tool leaves when it is stopped.
	sp, err := Parse("0s@1: exec: while [ ! -e " + release + " ]; do sleep 0.05; done; : pt-online-schema-change D={database},t=big")
	if err != nil {
		t.Fatal(err)
	}
	acts, err := Resolve([]Spec{sp}, r.Endpoints)
	if err != nil {
		t.Fatal(err)
	}
	at := acts[0].Targets[0]
	if _, ok := at.Ledger.(*ledger.Table); !ok {
		t.Fatalf("the ledger of a server named by --dsn is %T, want its table", at.Ledger)
	}
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE _big_new (id INT PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- sp.Job.Do(context.Background(), Site{Target: at, DB: db}, &Outcome{}) }()
	var noted []ledger.Entry
	for deadline := time.Now().Add(time.Minute); len(noted) == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if noted, err = at.Ledger.Entries(); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(release, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(noted) != 1 || noted[0].Kind != sandbox.ChangeOnlineSchemaChange || noted[0].Undo["table"] != "big" || noted[0].Undo["pgid"] == "" {
		t.Fatalf("noted while it ran: %+v", noted)
	}
	if es, err := at.Ledger.Entries(); err != nil || len(es) != 0 {
		t.Fatalf("entries once it ended: %+v %v", es, err)
	}
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = '_big_new'").Scan(&n); err != nil || n != 0 {
		t.Fatalf("the copy is still there (%d, %v)", n, err)
	}
}

// A pt-online-schema-change that cannot be noted first (the ledger table
// cannot be written) is stopped at once: the action fails, having changed
// nothing.
func TestExecStopsAnOnlineSchemaChangeItCannotNote(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "ran")
	sp, err := Parse("0s@1: exec: sleep 30 && touch " + marker + "; : pt-online-schema-change D=x,t=big")
	if err != nil {
		t.Fatal(err)
	}
	unwritable := ledger.OpenTable("a server that cannot be reached", func() (*sql.DB, error) {
		return nil, errors.New("cannot be reached")
	})
	db, err := sql.Open("mysql", "root@tcp(127.0.0.1:1)/x")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	at := Site{Target: Target{Conn: &mysql.Config{Net: "tcp", Addr: "127.0.0.1:1"}, Ledger: unwritable}, DB: db}
	err = sp.Job.Do(context.Background(), at, &Outcome{})
	if err == nil || !strings.Contains(err.Error(), "stopped before it changed anything") || !strings.Contains(err.Error(), "cannot be reached") {
		t.Fatalf("Do: %v, want it stopped, naming why", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the command ran to its end")
	}
}
