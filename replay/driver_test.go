package replay

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/replay/checksum"
	"github.com/joinbench/joinbench/results"
)

// execAll runs set-up statements, failing the test on the first error.
func execAll(t *testing.T, db *sql.DB, stmts ...string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// TestDirectDriverMatchesDatabaseSQL checks that statements executed on the
// driver directly, and on the socket (package wire, decoding binary rows
// itself), give the row counts and checksums database/sql gives (Scan into
// sql.RawBytes), for columns of every kind, with prepared statements and
// with text interpolated by the client, and that writes report the rows
// they affect.
func TestDirectDriverMatchesDatabaseSQL(t *testing.T) {
	// Times as text, as Open sets connections up (parseTime off).
	dsn := strings.Replace(testdb.Fresh(t, "replay_direct_driver"), "parseTime=true", "parseTime=false", 1)
	if !strings.Contains(dsn, "parseTime=false") {
		t.Fatalf("DSN %s: want parseTime=true to turn off", dsn)
	}
	setup, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer setup.Close()
	execAll(t, setup,
		`CREATE TABLE dt (id INT PRIMARY KEY, i INT, u BIGINT UNSIGNED, ti TINYINT, d DOUBLE, f FLOAT,
			dec_ DECIMAL(10,3), dt_ DATE, ts DATETIME(6), tm TIME, y YEAR, v VARCHAR(20), b BLOB, bits BIT(5),
			e ENUM('x','y'), j JSON, tm3 TIME(3), dt2 DATETIME(2), m MEDIUMINT UNSIGNED, sm SMALLINT)`,
		`INSERT INTO dt VALUES
			(1, -5, 18446744073709551615, -3, 1.5, 0.1, 12.345, '2024-02-29', '2024-01-02 03:04:05.123456', '-12:00:01', 2024, 'héllo', x'00ff', b'10101', 'y', '{"a": [1, 2]}',
				'838:59:58.999', '2024-01-02 03:04:05.12', 16777215, -32768),
			(2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
			(3, 0, 0, 0, -0.000001, 3.4e38, -0.001, '1000-01-01', '1970-01-01 00:00:00', '00:00:00', 1901, '', '', b'0', 'x', 'null',
				'-00:00:01.250', '1970-01-01 00:00:00.00', 0, 0)`,
		`CREATE TABLE wt (id INT PRIMARY KEY, n INT)`,
		`INSERT INTO wt VALUES (1, 0), (2, 0), (3, 0)`)
	const sel = "SELECT * FROM dt WHERE id <= ? ORDER BY id"
	const upd = "UPDATE wt SET n = n + 1 WHERE id <= ?"

	// What database/sql gives, for ids 1, 2 and 3 (the renderer's counter).
	want := map[int]string{}
	for id := 1; id <= 3; id++ {
		rows, err := setup.Query(sel, id)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		raw := make([]sql.RawBytes, len(cols))
		dest := make([]any, len(cols))
		for i := range raw {
			dest[i] = &raw[i]
		}
		h := checksum.New(false)
		for rows.Next() {
			if err := rows.Scan(dest...); err != nil {
				t.Fatal(err)
			}
			h.AddRow(raw)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
		want[id] = h.Sum()
	}

	for _, mode := range []struct {
		name             string
		prepared, direct bool
	}{{"prepared", true, false}, {"text", false, false}, {"direct", true, true}} {
		prepared := mode.name
		cfg, err := mysql.ParseDSN(dsn)
		if err != nil {
			t.Fatal(err)
		}
		cfg.InterpolateParams = !mode.prepared
		if mode.direct {
			if why := UseBlockingIO(cfg); why != "" {
				t.Fatalf("the test DSN cannot use blocking sockets: %s", why)
			}
		}
		conn, err := mysql.NewConnector(cfg)
		if err != nil {
			t.Fatal(err)
		}
		db := sql.OpenDB(conn)
		sink := &memSink{}
		rc := baseConfig(db, sink, scenario("sel", 1, sel), scenario("upd", 1, upd))
		rc.Events, rc.Prepared, rc.Checksum = 3, mode.prepared, NewChecksum
		rc.Endpoints[0].Direct = mode.direct
		res, err := Run(context.Background(), rc)
		db.Close()
		if err != nil {
			t.Fatal(err)
		}
		if res.Summary.Errors != 0 || len(sink.rows) != 6 {
			t.Fatalf("%s: %d errors, %d rows; want 0, 6", prepared, res.Summary.Errors, len(sink.rows))
		}
		// The run records the path its connections took, and why not direct.
		wantPath, wantWhy := results.PathDriver, []string{whyNotBlocking}
		switch {
		case mode.direct:
			wantPath, wantWhy = results.PathDirect, nil
		case !mode.prepared:
			wantWhy = []string{whyText}
		}
		if p := res.Paths; len(p) != 1 || p[0].Path != wantPath || !slices.Equal(p[0].Reasons, wantWhy) || p[0].Endpoint != "db:3306" {
			t.Errorf("%s: paths %+v; want %s for %q", prepared, p, wantPath, wantWhy)
		}
		for i, r := range sink.rows {
			id := i/2 + 1
			switch r.Scenario {
			case "sel":
				if r.Rows != int64(id) || r.Checksum != want[id] {
					t.Errorf("%s: select id <= %d: %d rows, checksum %s; database/sql: %d rows, %s",
						prepared, id, r.Rows, r.Checksum, id, want[id])
				}
			case "upd":
				if r.Rows != int64(id) || r.Checksum != "" {
					t.Errorf("%s: update id <= %d: %d rows affected, checksum %q; want %d, none",
						prepared, id, r.Rows, r.Checksum, id)
				}
			}
		}
	}
	var n int
	if err := setup.QueryRow("SELECT SUM(n) FROM wt").Scan(&n); err != nil || n != 3*(3+2+1) {
		t.Errorf("updates applied: %d (%v); want %d", n, err, 3*(3+2+1))
	}
}

// TestDirectDriverReportsServerErrors checks that a server error of a
// prepared statement and of a text statement reaches the error policy with
// its number, and that the connection keeps working afterwards.
func TestDirectDriverReportsServerErrors(t *testing.T) {
	dsn := testdb.Fresh(t, "replay_direct_errors")
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE et (id INT PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	for _, prepared := range []bool{true, false} {
		sink := &memSink{}
		// The renderer's counter goes 1, 2 in the first event and 3, 4 in
		// the second: halved, the first insert of the second event repeats
		// the last key (error 1062); what follows it still runs.
		offset := "0"
		if !prepared {
			offset = "100"
		}
		cfg := baseConfig(db, sink, scenario("ins", 2, "INSERT INTO et VALUES (? DIV 2 + "+offset+")"),
			scenario("sel", 1, "SELECT COUNT(*) FROM et WHERE id > ?"))
		cfg.Events, cfg.Prepared, cfg.SkipTrx = 2, prepared, true
		if _, err := Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		var codes []string
		for _, r := range sink.rows {
			codes = append(codes, r.Scenario+":"+map[bool]string{true: "ok", false: "err"}[r.ErrorCode == 0])
			if r.ErrorCode != 0 && (r.ErrorCode != 1062 || r.SQLState != "23000") {
				t.Errorf("prepared=%v: error %d %s %s; want 1062 23000", prepared, r.ErrorCode, r.SQLState, r.ErrorMessage)
			}
		}
		if got := strings.Join(codes, " "); got != "ins:ok ins:ok sel:ok ins:err ins:ok sel:ok" {
			t.Errorf("prepared=%v: %s", prepared, got)
		}
	}
}
