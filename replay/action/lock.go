package action

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/joinbench/joinbench/internal/sqllex"
)

// lockKind holds LOCK TABLES ... WRITE on the node for a duration: on a
// Galera node, the applier waits for the lock and the node's receive
// queue grows until flow control throttles the whole cluster.
var lockKind = &Kind{
	Name:   "lock",
	Syntax: "lock DURATION: TABLE,...",
	Doc:    "holds `LOCK TABLES ... WRITE` for DURATION: on a Galera node the applier waits for the lock, its receive queue grows and flow control throttles the cluster (a slow node). Taking the lock waits at most 10 s (`lock_wait_timeout`), then the action fails with error 1205: when the node's own clients write the table, the pending lock stops the appliers while the local transactions holding the table wait in commit order behind them, and every node stalls until the wait ends (with the server's default, a year). Lock a table the node's clients do not write, or use `pause`",
	Parse: func(a Args) (Job, error) {
		d, err := a.Duration("how long the lock is held", false)
		if err != nil {
			return nil, err
		}
		text, err := a.NeedText("the tables to lock")
		if err != nil {
			return nil, err
		}
		j := lockJob{hold: d}
		for _, t := range strings.Split(text, ",") {
			if t = strings.TrimSpace(t); t != "" {
				j.tables = append(j.tables, t)
			}
		}
		return j, nil
	},
}

// lockLockWait bounds taking the lock: on a Galera node whose own clients
// write the table, the pending lock stops the appliers, the local
// transactions that hold the table wait in commit order behind them, and
// nothing moves on any node until the wait ends (with the server's default
// of a year, never).
const lockLockWait = 10 * time.Second

type lockJob struct {
	tables []string
	hold   time.Duration
}

func (j lockJob) What(Target) string {
	return fmt.Sprintf("LOCK TABLES %s WRITE for %s", strings.Join(j.tables, ", "), j.hold)
}

func (j lockJob) Do(ctx context.Context, at Site, _ *Outcome) error {
	return withConn(ctx, at.DB, func(c *conn) error {
		if err := c.setLockWait(lockLockWait); err != nil {
			return err
		}
		var parts []string
		for _, t := range j.tables {
			parts = append(parts, quoteTableName(t)+" WRITE")
		}
		if _, err := c.exec("LOCK TABLES " + strings.Join(parts, ", ")); err != nil {
			return err
		}
		werr := wait(c.ctx, j.hold)
		_, err := c.conn.ExecContext(context.Background(), "UNLOCK TABLES")
		return errors.Join(werr, err)
	})
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
