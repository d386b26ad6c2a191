package workcapture

import (
	"context"
	"database/sql"
	"testing"

	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/testdb"
)

// BenchmarkSampleCost measures what a sample costs the client's connection
// (wall time per operation, server included) next to the execution it
// measures: a point select by primary key, that statement under ANALYZE,
// and the two session status readings around an execution. docs/work.md
// has the server's CPU per operation, which wall time on a shared machine
// does not show.
func BenchmarkSampleCost(b *testing.B) {
	db := testdb.Open(b, "replay_work_bench")
	ctx := context.Background()
	for _, q := range []string{
		"CREATE TABLE t (id INT PRIMARY KEY, c CHAR(120), pad CHAR(60)) ENGINE=InnoDB",
		"INSERT INTO t SELECT seq, REPEAT('x', 120), REPEAT('y', 60) FROM seq_1_to_10000",
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			b.Skipf("%v (the table needs MariaDB's sequence engine)", err)
		}
	}
	fl, err := server.DetectFlavor(ctx, db)
	if err != nil {
		b.Fatal(err)
	}
	c, err := db.Conn(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	const q = "SELECT c FROM t WHERE id = ?"
	stmt, err := c.PrepareContext(ctx, q)
	if err != nil {
		b.Fatal(err)
	}
	defer stmt.Close()
	pointSelect := func(i int) error {
		var s sql.RawBytes
		rows, err := stmt.QueryContext(ctx, 1+i%10000)
		if err != nil {
			return err
		}
		for rows.Next() {
			_ = rows.Scan(&s)
		}
		rows.Close()
		return rows.Err()
	}
	b.Run("point select", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if err := pointSelect(i); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("analyze point select", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, _, err := Analyze(ctx, c, fl, q, []any{1 + i%10000}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("status readings", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for range 2 {
				if _, err := ReadStatus(ctx, c); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
