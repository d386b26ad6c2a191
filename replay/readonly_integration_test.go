package replay_test

import (
	"context"
	"database/sql"
	"testing"

	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/replay"
)

// TestReadOnlyRefusedByServer: under ReadOnly a SELECT that calls a stored
// function which writes fails (ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION)
// instead of writing, in a transaction and in autocommit alike; without
// it, the same SELECT writes.
func TestReadOnlyRefusedByServer(t *testing.T) {
	for _, p := range paths {
		t.Run(p.name, func(t *testing.T) {
			for _, skipTrx := range []bool{false, true} {
				readOnlyRefusedByServer(t, p.direct, skipTrx)
			}
		})
	}
}

func readOnlyRefusedByServer(t *testing.T, direct, skipTrx bool) {
	dsn := testdb.Fresh(t, "replay_read_only")
	admin, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	for _, q := range []string{
		"CREATE TABLE written (id INT AUTO_INCREMENT PRIMARY KEY) ENGINE=InnoDB",
		"CREATE FUNCTION note_read() RETURNS INT MODIFIES SQL DATA BEGIN INSERT INTO written VALUES (NULL); RETURN 1; END",
	} {
		if _, err := admin.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db := open(t, dsn, direct)
	q := "SELECT note_read()"
	sc := &replay.Scenario{Name: "reads_and_writes", Count: 1, Queries: []string{q},
		NewRenderer: func(uint64, int) replay.Renderer { return constRenderer(q) }}
	run := func(readOnly bool) *countSink {
		sink := &countSink{}
		_, err := replay.Run(context.Background(), replay.Config{
			RunID: "t", Threads: 1, Events: 3, SkipTrx: skipTrx, Prepared: true, ReadOnly: readOnly,
			Endpoints: []replay.Endpoint{{Name: "test", DB: db, Direct: direct}}, Scenarios: []*replay.Scenario{sc}, Sink: sink,
		})
		if err != nil {
			t.Fatal(err)
		}
		return sink
	}
	written := func() (n int) {
		if err := admin.QueryRow("SELECT COUNT(*) FROM written").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	sink := run(true)
	if n := written(); n != 0 {
		t.Errorf("skip-trx %v: --read-only let the function write %d row(s)", skipTrx, n)
	}
	for _, r := range sink.rows {
		if r.ErrorCode != 1792 {
			t.Errorf("skip-trx %v: execution %+v, want error 1792 (read-only transaction)", skipTrx, r)
		}
	}
	if len(sink.rows) == 0 {
		t.Errorf("skip-trx %v: no execution recorded", skipTrx)
	}
	run(false)
	if n := written(); n == 0 {
		t.Errorf("skip-trx %v: without --read-only the function wrote nothing: the test proves nothing", skipTrx)
	}
}
