package action

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"time"
)

// conn is the connection of one action: its statements run to their end
// unless the action's context ends, which kills the one running on the
// server (KILL QUERY from another connection) rather than leave it there.
type conn struct {
	ctx  context.Context
	db   *sql.DB
	conn *sql.Conn
	id   int64
}

// killTimeout bounds the KILL QUERY of a statement whose action must stop.
const killTimeout = 10 * time.Second

// withConn runs fn on a connection of its own to db.
func withConn(ctx context.Context, db *sql.DB, fn func(*conn) error) error {
	sc, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	c := &conn{ctx: ctx, db: db, conn: sc}
	defer func() {
		// The session may hold a lock or a session variable: it is not
		// handed back to the workers' pool.
		_ = sc.Raw(func(any) error { return driver.ErrBadConn })
		sc.Close()
	}()
	if err := sc.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&c.id); err != nil {
		return err
	}
	return fn(c)
}

// exec runs one statement and returns the rows it affected.
func (c *conn) exec(q string) (int64, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
		case <-c.ctx.Done():
			kctx, cancel := context.WithTimeout(context.Background(), killTimeout)
			_, _ = c.db.ExecContext(kctx, fmt.Sprintf("KILL QUERY %d", c.id))
			cancel()
		}
	}()
	res, err := c.conn.ExecContext(context.Background(), q)
	close(done)
	if err != nil {
		return 0, err
	}
	n, _ := res.RowsAffected()
	return n, nil
}

// setLockWait bounds the session's metadata lock waits (lock_wait_timeout):
// past it the action fails (error 1205) rather than hold up the cluster.
func (c *conn) setLockWait(d time.Duration) error {
	_, err := c.exec(fmt.Sprintf("SET SESSION lock_wait_timeout = %d", int(d.Seconds())))
	return err
}

// wait sleeps d, or less when ctx ends.
func wait(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
