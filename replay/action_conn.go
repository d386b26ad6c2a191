package replay

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/joinbench/joinbench/internal/sqllex"
	"github.com/joinbench/joinbench/replay/results"
)

// actionConn is the connection of one action: its statements run to their
// end unless the action's context ends, which kills the one running on the
// server (KILL QUERY from another connection) rather than leave it there.
type actionConn struct {
	ctx  context.Context
	db   *sql.DB
	conn *sql.Conn
	id   int64
}

// withConn runs fn on a connection of its own to db.
func withConn(ctx context.Context, db *sql.DB, fn func(*actionConn) error) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	c := &actionConn{ctx: ctx, db: db, conn: conn}
	defer func() {
		// The session may hold a lock or a session variable: it is not
		// handed back to the workers' pool.
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		conn.Close()
	}()
	if err := conn.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&c.id); err != nil {
		return err
	}
	return fn(c)
}

// exec runs one statement and returns the rows it affected.
func (c *actionConn) exec(q string) (int64, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	done := make(chan struct{})
	killed := make(chan struct{})
	go func() {
		select {
		case <-done:
		case <-c.ctx.Done():
			kctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			_, _ = c.db.ExecContext(kctx, fmt.Sprintf("KILL QUERY %d", c.id))
			cancel()
			close(killed)
		}
	}()
	res, err := c.conn.ExecContext(context.Background(), q)
	close(done)
	select {
	case <-killed:
	default:
	}
	if err != nil {
		return 0, err
	}
	n, _ := res.RowsAffected()
	return n, nil
}

// rsu runs a statement under rolling schema upgrade: the node leaves the
// cluster's flow of write-sets while it runs, and catches up after. It
// ends once the node is Synced again, so that a rolling change moves to
// the next node only then.
//
// The statement waits at most rsuLockWait for its metadata lock: while the
// node is desynced, its own open transactions on the table cannot commit
// and release theirs, and the server would wait lock_wait_timeout (a year
// by default), the whole node stalled.
func (c *actionConn) rsu(q string, row *results.Action) error {
	if _, err := c.exec(fmt.Sprintf("SET SESSION lock_wait_timeout = %d", int(rsuLockWait.Seconds()))); err != nil {
		return err
	}
	if _, err := c.exec("SET SESSION wsrep_OSU_method = 'RSU'"); err != nil {
		return fmt.Errorf("wsrep_OSU_method: %w", err)
	}
	n, err := c.exec(q)
	row.Rows = n
	if err != nil {
		return err
	}
	if _, err := c.exec("SET SESSION wsrep_OSU_method = 'TOI'"); err != nil {
		return fmt.Errorf("wsrep_OSU_method: %w", err)
	}
	return c.waitSynced()
}

// waitSynced waits until the node says it is Synced.
func (c *actionConn) waitSynced() error {
	for {
		var name, state string
		err := c.conn.QueryRowContext(c.ctx, "SHOW STATUS LIKE 'wsrep_local_state_comment'").Scan(&name, &state)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && state == "Synced") {
			return nil
		}
		if err != nil {
			return fmt.Errorf("wsrep_local_state_comment: %w", err)
		}
		if err := wait(c.ctx, 100*time.Millisecond); err != nil {
			return err
		}
	}
}

// Bounds of the metadata lock waits of actions (lock_wait_timeout): past
// them the action fails (error 1205) rather than hold up the cluster.
const (
	rsuLockWait  = 30 * time.Second
	lockLockWait = 10 * time.Second
)

// lock holds LOCK TABLES ... WRITE for d: on a Galera node, the applier
// waits for the lock and the node's receive queue grows until flow control
// throttles the whole cluster.
//
// Taking the lock waits at most lockLockWait: on a Galera node whose own
// clients write the table, the pending lock stops the appliers, the local
// transactions that hold the table wait in commit order behind them, and
// nothing moves on any node until the wait ends (with the server's default
// of a year, never).
func (c *actionConn) lock(tables []string, d time.Duration) error {
	if _, err := c.exec(fmt.Sprintf("SET SESSION lock_wait_timeout = %d", int(lockLockWait.Seconds()))); err != nil {
		return err
	}
	var parts []string
	for _, t := range tables {
		parts = append(parts, quoteTableName(t)+" WRITE")
	}
	if _, err := c.exec("LOCK TABLES " + strings.Join(parts, ", ")); err != nil {
		return err
	}
	werr := wait(c.ctx, d)
	_, err := c.conn.ExecContext(context.Background(), "UNLOCK TABLES")
	return errors.Join(werr, err)
}

// quoteTableName quotes a table name given as name or schema.name, unless
// already quoted.
func quoteTableName(t string) string {
	if strings.Contains(t, "`") {
		return t
	}
	parts := strings.Split(t, ".")
	for i, p := range parts {
		parts[i] = sqllex.QuoteIdent(p)
	}
	return strings.Join(parts, ".")
}

// chunked runs a DELETE or UPDATE in chunks, each its own transaction
// (autocommit): by ranges of ChunkSize primary key values from the
// smallest to the largest key the statement's condition selects, or with LIMIT ChunkSize until a chunk
// affects fewer rows.
func (c *actionConn) chunked(a *Action, row *results.Action) error {
	d, err := splitDML(a.Statement)
	if err != nil {
		return err
	}
	if a.ChunkBy == ChunkByLimit {
		q := d.Head
		if d.Cond != "" {
			q += " WHERE " + d.Cond
		}
		q += fmt.Sprintf(" LIMIT %d", a.ChunkSize)
		for {
			n, err := c.exec(q)
			row.Rows += n
			row.Chunks++
			if err != nil {
				return err
			}
			if n < a.ChunkSize {
				return nil
			}
		}
	}
	key, err := c.integerKey(d)
	if err != nil {
		return err
	}
	table := sqllex.QuoteIdent(d.Table)
	if d.Schema != "" {
		table = sqllex.QuoteIdent(d.Schema) + "." + table
	}
	var lo, hi sql.NullInt64
	// The range of the rows the statement changes: when its condition is
	// on the key, no chunk is spent on keys it leaves alone.
	bounds := fmt.Sprintf("SELECT MIN(%s), MAX(%s) FROM %s", key, key, table)
	if d.Cond != "" {
		bounds += " WHERE " + d.Cond
	}
	if err := c.conn.QueryRowContext(c.ctx, bounds).Scan(&lo, &hi); err != nil {
		return fmt.Errorf("key range of %s: %w", d.Table, err)
	}
	if !lo.Valid {
		return nil // no row to change
	}
	for from := lo.Int64; from <= hi.Int64; from += a.ChunkSize {
		q := d.withCond(fmt.Sprintf("%s >= %d AND %s < %d", key, from, key, from+a.ChunkSize))
		n, err := c.exec(q)
		row.Rows += n
		row.Chunks++
		if err != nil {
			return err
		}
	}
	return nil
}

// integerKey returns the quoted primary key column of the statement's
// table: chunks by key need a primary key of one integer column.
func (c *actionConn) integerKey(d chunkable) (string, error) {
	schema := d.Schema
	if schema == "" {
		if err := c.conn.QueryRowContext(c.ctx, "SELECT DATABASE()").Scan(&schema); err != nil {
			return "", err
		}
	}
	rows, err := c.conn.QueryContext(c.ctx, `SELECT k.COLUMN_NAME, c.DATA_TYPE
FROM information_schema.KEY_COLUMN_USAGE k
JOIN information_schema.COLUMNS c ON c.TABLE_SCHEMA = k.TABLE_SCHEMA AND c.TABLE_NAME = k.TABLE_NAME AND c.COLUMN_NAME = k.COLUMN_NAME
WHERE k.TABLE_SCHEMA = ? AND k.TABLE_NAME = ? AND k.CONSTRAINT_NAME = 'PRIMARY'`, schema, d.Table)
	if err != nil {
		return "", fmt.Errorf("primary key of %s: %w", d.Table, err)
	}
	defer rows.Close()
	var cols, types []string
	for rows.Next() {
		var col, typ string
		if err := rows.Scan(&col, &typ); err != nil {
			return "", err
		}
		cols, types = append(cols, col), append(types, strings.ToLower(typ))
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	if len(cols) != 1 || !strings.HasSuffix(types[0], "int") {
		return "", fmt.Errorf("chunks by pk need a primary key of one integer column on %s (it has %s): use 'chunked N limit'", d.Table, describeKey(cols))
	}
	return sqllex.QuoteIdent(cols[0]), nil
}

func describeKey(cols []string) string {
	if len(cols) == 0 {
		return "none"
	}
	return strings.Join(cols, ", ")
}
