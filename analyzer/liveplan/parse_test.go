package liveplan

import (
	"context"
	"testing"

	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/testdb"
)

// TestParseOnServer: the server's parser reads what it reads, whatever
// the tables (an unknown table is an error after parsing), and a write
// is prepared, never executed; a mistake is a parse error with the
// server's position in its message.
func TestParseOnServer(t *testing.T) {
	db := testdb.Open(t, "liveplan_parse")
	ctx := context.Background()
	for _, q := range []string{"CREATE TABLE t1 (a INT PRIMARY KEY, b INT)", "INSERT INTO t1 VALUES (1, 1), (2, 2)"} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	fl, err := server.DetectFlavor(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		read bool
		code int
	}
	cases := map[string]want{
		"SELECT a FROM t1 WHERE a = ?":                  {read: true},
		"SELECT a FROM nosuch WHERE a = 1":              {read: true}, // 1146, after parsing
		"UPDATE t1 SET b = 0 WHERE a > ?":               {read: true}, // 1792 in a read-only transaction, or prepared
		"SELECT a INTO @x FROM t1 WHERE a = 1":          {read: true},
		"SELECT a FROM t1 JION t2 ON t1.a = t2.a":       {code: 1064},
		"SELECT a FROM t1 WHERE a IN (1 2)":             {code: 1064},
		"DELETE t1 FROM t1, t2 WHERE t1.a = 1 LIMIT 10": {code: 1064},
	}
	if fl.Name == flavor.MariaDB {
		cases["DELETE FROM t1 WHERE a = 1 RETURNING a"] = want{read: true}
		cases["SELECT a FROM t1 LIMIT 1 ROWS EXAMINED 10"] = want{read: true}
		cases["SELECT rank FROM t1"] = want{read: true} // 1054: rank is a name there
	}
	var stmts []string
	for q := range cases {
		stmts = append(stmts, q)
	}
	got, err := Parse(ctx, db, stmts)
	if err != nil {
		t.Fatal(err)
	}
	for i, q := range stmts {
		w := cases[q]
		if got[i].Read != w.read || got[i].Code != w.code {
			t.Errorf("%s: read %v, code %d (%s); want read %v, code %d", q, got[i].Read, got[i].Code, got[i].Message, w.read, w.code)
		}
		if !w.read && got[i].Message == "" {
			t.Errorf("%s: no message", q)
		}
	}
	var n int
	if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM t1 WHERE b > 0").Scan(&n); err != nil || n != 2 {
		t.Errorf("the rows of t1 changed: %d left (%v)", n, err)
	}
}
