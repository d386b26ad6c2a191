package workcapture

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/results"
)

// The statement events need the Performance Schema and its history
// consumer, off by default on MariaDB: the test starts a server of its own
// with them on.
func TestStatementEventOnOwnServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	bin, err := sandbox.FindBinary(ctx, "")
	if err != nil {
		testdb.Skipf(t, "a test server of its own: %v", err)
	}
	srv, err := sandbox.Start(ctx, sandbox.Config{
		Binary: bin, Dir: t.TempDir(), BufferPoolSize: "128M",
		ServerArgs: []string{"--innodb-log-file-size=48M", "--performance-schema=ON",
			"--performance-schema-consumer-events-statements-history=ON",
			"--performance-schema-consumer-events-statements-current=ON"},
	})
	if err != nil {
		t.Fatalf("start a test server of its own: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if err := srv.Stop(ctx); err != nil {
			t.Errorf("stop the test's own server: %v", err)
		}
	})
	db, err := sql.Open("mysql", testdb.FreshOn(t, srv.DSN(""), "work_events"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	fl, err := server.DetectFlavor(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, q := range []string{
		"CREATE TABLE t (id INT PRIMARY KEY, a INT, KEY (a)) ENGINE=InnoDB",
		"INSERT INTO t SELECT seq, seq FROM seq_1_to_100",
	} {
		if _, err := c.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	read := func(q string, args ...any) *results.Work {
		t.Helper()
		rows, err := c.QueryContext(ctx, q, args...) // prepared, as the engine runs it
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
		}
		rows.Close()
		w, name, err := ReadStatementEvent(ctx, c, fl)
		if err != nil {
			t.Fatal(err)
		}
		if name == "" {
			t.Error("no event name")
		}
		return w
	}
	a := read("SELECT id, a FROM t WHERE a > ?", 50)
	want(t, "rows_examined", a.RowsExamined, 50)
	want(t, "rows_sent", a.RowsSent, 50)
	if b := read("SELECT id, a FROM t WHERE a > ?", 50); *b.RowsExamined != *a.RowsExamined || *b.RowsSent != *a.RowsSent {
		t.Errorf("the same statement twice: %d, %d rows examined", *a.RowsExamined, *b.RowsExamined)
	}
	if _, err := c.ExecContext(ctx, "UPDATE t SET a = a + 1000 WHERE id <= ?", 10); err != nil {
		t.Fatal(err)
	}
	w, _, err := ReadStatementEvent(ctx, c, fl)
	if err != nil {
		t.Fatal(err)
	}
	want(t, "rows_changed", w.RowsChanged, 10)
	want(t, "rows_examined", w.RowsExamined, 10)
}
