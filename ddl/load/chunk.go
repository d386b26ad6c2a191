package load

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/sqllex"
	"github.com/joinbench/joinbench/internal/usage"
)

// loadSession opens a connection with the bulk-load session settings:
//   - time_zone '+00:00': TIMESTAMP values store the same instant on
//     every server whatever its time zone;
//   - unique_checks=0 when the indexes are built during the load: InnoDB
//     may buffer unique secondary index changes (the generated UUIDs are
//     unique by construction), and MariaDB 10.6+ sorts the rows of a
//     statement into an empty table and builds its indexes at once. With
//     deferred indexes unique_checks stays 1: that sorting only costs
//     when the table has no secondary index to build (bench/README.md,
//     "Loading and the sandboxes' settings");
//   - foreign_key_checks=0: harmless for this schema, needed for users'
//     variants with foreign keys to load tables in any order;
//   - sql_mode without NO_BACKSLASH_ESCAPES, which the row encoding needs;
//   - sql_log_bin=0 only when asked (SkipBinlog), since replicas then miss
//     the rows and it needs a privilege.
func loadSession(ctx context.Context, db *sql.DB, opts PrepareOptions) (*sql.Conn, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	stmts := []string{
		"SET SESSION time_zone = '+00:00'",
		"SET SESSION unique_checks = " + map[bool]string{true: "0", false: "1"}[opts.IndexesDuringLoad],
		"SET SESSION foreign_key_checks = 0",
		"SET SESSION sql_mode = REPLACE(@@SESSION.sql_mode, 'NO_BACKSLASH_ESCAPES', '')",
	}
	if opts.SkipBinlog {
		stmts = append(stmts, "SET SESSION sql_log_bin = 0")
	}
	for _, q := range stmts {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			conn.Close()
			if opts.SkipBinlog && strings.Contains(q, "sql_log_bin") {
				return nil, usage.Errorf("--skip-binlog: %v", err)
			}
			return nil, fmt.Errorf("%s: %w", q, err)
		}
	}
	return conn, nil
}

// loader sends chunks of rows on one connection.
type loader struct {
	conn      *sql.Conn
	gen       *ddl.Generator
	method    Method
	maxPacket int64
	buf       []byte
}

var readerSeq atomic.Int64

// pipeBatch is how many bytes the generator hands the driver at a time.
const pipeBatch = 256 << 10

// chunk loads rows from..to of t, the n-th table of its kind, in one
// statement (LOAD DATA) or one transaction (INSERTs).
func (l *loader) chunk(ctx context.Context, t ddl.BuiltinTable, n int, from, to int64) error {
	cols := ddl.Columns(t.Kind)
	if l.method == MethodInsert {
		return l.insertChunk(ctx, t, n, cols, from, to)
	}
	name := "joinbench-" + strconv.FormatInt(readerSeq.Add(1), 10)
	pr, pw := io.Pipe()
	mysql.RegisterReaderHandler(name, func() io.Reader { return pr })
	defer mysql.DeregisterReaderHandler(name)
	go func() {
		buf := make([]byte, 0, pipeBatch+4096)
		for id := from; id <= to; id++ {
			buf = l.gen.AppendRow(buf, t.Kind, n, id, ddl.TSV)
			if len(buf) >= pipeBatch {
				if _, err := pw.Write(buf); err != nil {
					return
				}
				buf = buf[:0]
			}
		}
		if len(buf) > 0 {
			if _, err := pw.Write(buf); err != nil {
				return
			}
		}
		pw.Close()
	}()
	q := "LOAD DATA LOCAL INFILE 'Reader::" + name + "' INTO TABLE " + sqllex.QuoteIdent(t.Name) +
		" CHARACTER SET binary FIELDS TERMINATED BY '\\t' ESCAPED BY '\\\\' LINES TERMINATED BY '\\n' (" + strings.Join(cols, ",") + ")"
	_, err := l.conn.ExecContext(ctx, q)
	pr.CloseWithError(errors.New("load ended")) // unblocks the generator if the server stopped reading
	if err != nil {
		return err
	}
	return nil
}

func (l *loader) insertChunk(ctx context.Context, t ddl.BuiltinTable, n int, cols []string, from, to int64) error {
	limit := int(min(l.maxPacket, 16<<20)) - 1024
	head := "INSERT INTO " + sqllex.QuoteIdent(t.Name) + " (" + strings.Join(cols, ",") + ") VALUES "
	tx, err := l.conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	l.buf = append(l.buf[:0], head...)
	rows := 0
	var row []byte
	for id := from; id <= to; id++ {
		row = l.gen.AppendRow(row[:0], t.Kind, n, id, ddl.SQLValues)
		if rows > 0 && len(l.buf)+1+len(row) > limit {
			if _, err := tx.ExecContext(ctx, string(l.buf)); err != nil {
				return err
			}
			l.buf, rows = append(l.buf[:0], head...), 0
		}
		if rows > 0 {
			l.buf = append(l.buf, ',')
		}
		l.buf = append(l.buf, row...)
		rows++
	}
	if rows > 0 {
		if _, err := tx.ExecContext(ctx, string(l.buf)); err != nil {
			return err
		}
	}
	return tx.Commit()
}
