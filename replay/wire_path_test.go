package replay

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/testdb"
)

// TestWirePathMatchesDriver runs the same statements through a worker that
// executes them on the socket (package wire) and through one that uses the
// driver, on a real server, and checks that both report the same rows
// returned and affected, the same result checksums and the same server
// errors: arguments of every
// type, empty results, a procedure's several result sets, a statement that
// cannot be prepared, and transaction control (sent through the driver)
// between them.
func TestWirePathMatchesDriver(t *testing.T) {
	dsn := testdb.Fresh(t, "replay_wire_path")
	setup, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer setup.Close()
	execAll(t, setup,
		`CREATE TABLE wt (id INT PRIMARY KEY, n INT, s VARCHAR(20), f DOUBLE, d DATETIME(6), b TINYINT, u BIGINT UNSIGNED)`,
		`INSERT INTO wt VALUES (1, 0, 'x', 0.5, '2024-01-01 00:00:00', 1, 1), (2, 0, 'x', 1.5, '2024-06-01 12:00:00', 0, 2),
			(3, NULL, 'y', 2.5, '2025-01-01 00:00:00', 1, 18446744073709551615), (4, 0, 'héllo', 3.5, NULL, NULL, 4)`,
		`CREATE PROCEDURE two_sets(k INT) BEGIN SELECT id FROM wt WHERE id <= k; SELECT id, s FROM wt; END`)
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.ParseTime = false // times as text, as Open sets connections up
	if why := UseBlockingIO(cfg); why != "" {
		t.Skip("the test server's DSN cannot use blocking sockets:", why)
	}
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(conn)
	defer db.Close()
	// A connection left idle in the pool has no socket to share: the
	// worker must dial its own.
	if err := db.Ping(); err != nil {
		t.Fatal(err)
	}

	type step struct {
		tx   string // BEGIN, ROLLBACK: sent as transaction control
		sql  string
		args []any
	}
	steps := []step{
		{sql: "SELECT * FROM wt WHERE id <= ?", args: []any{int64(3)}},
		{sql: "SELECT id FROM wt WHERE s = ? AND f > ?", args: []any{"x", 0.75}},
		{sql: "SELECT id FROM wt WHERE s = ?", args: []any{[]byte("héllo")}},
		{sql: "SELECT id FROM wt WHERE d >= ?", args: []any{time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)}}, // the driver sends times
		{sql: "SELECT id FROM wt WHERE b = ?", args: []any{true}},
		{sql: "SELECT id FROM wt WHERE n <=> ?", args: []any{nil}},
		{sql: "SELECT id FROM wt WHERE id = ?", args: []any{2}},        // int: converted
		{sql: "SELECT id FROM wt WHERE u = ?", args: []any{uint32(4)}}, // converted
		{sql: "SELECT id FROM wt WHERE id > ?", args: []any{int64(100)}},
		{sql: "CALL two_sets(?)", args: []any{int64(2)}},
		{sql: "CALL two_sets(?)", args: []any{int64(3)}}, // again: the first set's metadata may be cached
		{sql: "UPDATE wt SET n = n + 1 WHERE id <= ?", args: []any{int64(2)}},
		{sql: "INSERT INTO wt (id) VALUES (?)", args: []any{int64(1)}}, // duplicate key
		{sql: "SELECT * FROM no_such_table WHERE id = ?", args: []any{int64(1)}},
		{tx: "BEGIN"},
		{sql: "DELETE FROM wt WHERE id = ?", args: []any{int64(4)}},
		{sql: "SELECT COUNT(*) FROM wt WHERE id > ?", args: []any{int64(0)}},
		{tx: "ROLLBACK"},
		{sql: "SELECT id FROM wt WHERE id >= ?", args: []any{int64(0)}},
	}
	type outcome struct {
		rows int64
		code int32
		sum  string // result checksum; the same whichever path
	}
	type mode struct {
		name               string
		direct, driverPath bool
	}
	run := func(m mode) []outcome {
		// Every mode starts from the same rows (the steps update some).
		execAll(t, setup, "UPDATE wt SET n = 0 WHERE n IS NOT NULL")
		var log strings.Builder
		e := &engine{cfg: Config{Prepared: true, RunID: "t", DriverPath: m.driverPath, Checksum: NewChecksum}, counts: make([]counts, 1),
			log: &lockedWriter{w: &log}}
		e.eps = []*endpointState{{Endpoint: Endpoint{Name: "test", DB: db, Direct: m.direct}}}
		defer func() {
			// The direct path does not send times: that one statement went
			// through the driver, which was logged and recorded.
			p := e.paths()[0]
			direct := m.direct && !m.driverPath
			if direct != (p.Path == "direct") || direct != (p.DriverStatements == 1) ||
				direct != strings.Contains(log.String(), "argument of type time.Time") {
				t.Errorf("%s: path %+v, log %q", m.name, p, log.String())
			}
		}()
		w := e.newWorker(0)
		if err := w.open(context.Background()); err != nil {
			t.Fatal(err)
		}
		defer w.closeConn()
		if (w.wire != nil) != (m.direct && !m.driverPath) {
			t.Fatalf("%s: the worker's wire connection is %v", m.name, w.wire)
		}
		var out []outcome
		for _, s := range steps {
			if s.tx != "" {
				if err := w.txControl(s.tx); err != nil {
					t.Fatalf("%s: %v", s.tx, err)
				}
				continue
			}
			n, sum, err := w.do(&Statement{SQL: s.sql, Args: s.args})
			o := outcome{rows: n, sum: sum}
			if err != nil {
				o.code, _, _ = errorFields(err)
			}
			out = append(out, o)
		}
		return out
	}
	want := []outcome{{3, 0, ""}, {1, 0, ""}, {1, 0, ""}, {2, 0, ""}, {2, 0, ""}, {1, 0, ""}, {1, 0, ""}, {1, 0, ""}, {0, 0, ""},
		{2 + 4, 0, ""}, {3 + 4, 0, ""}, {2, 0, ""}, {0, 1062, ""}, {0, 1146, ""}, {1, 0, ""}, {1, 0, ""}, {4, 0, ""}}
	var driverGot []outcome
	for _, m := range []mode{{"driver", false, false}, {"direct", true, false}, {"direct endpoint, driver path", true, true}} {
		got := run(m)
		if driverGot == nil {
			driverGot = slices.Clone(got)
		}
		var sqls []string
		for _, s := range steps {
			if s.tx == "" {
				sqls = append(sqls, s.sql)
			}
		}
		for i := range want {
			if got[i].sum != driverGot[i].sum {
				t.Errorf("%s: %s: checksum %s, through the driver %s", m.name, sqls[i], got[i].sum, driverGot[i].sum)
			}
			got[i].sum = ""
			if got[i] != want[i] {
				t.Errorf("%s: %s: %d rows, error %d; want %d rows, error %d",
					m.name, sqls[i], got[i].rows, got[i].code, want[i].rows, want[i].code)
			}
		}
	}
	var n int
	if err := setup.QueryRow("SELECT SUM(n) FROM wt").Scan(&n); err != nil || n != 2 {
		t.Errorf("updates applied: %d (%v); want 2 (2 rows, once since the last reset)", n, err)
	}
}
