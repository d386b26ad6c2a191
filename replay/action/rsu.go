package action

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// rsuKind runs a statement under rolling schema upgrade
// (wsrep_OSU_method=RSU); on "all", on each node in turn.
var rsuKind = &Kind{
	Name:    "rsu",
	Syntax:  "rsu: STATEMENT",
	Doc:     "runs it with `wsrep_OSU_method = RSU`: the node desyncs, applies it alone, catches up; the action ends once the node is Synced again. On `all`, node after node, as an operator does a rolling change (one row per node in `actions.parquet`). The statement waits at most 30 s for its metadata lock (`lock_wait_timeout`): the node's own open transactions on the table cannot commit while it is desynced, so on a table its clients write an RSU change waits for ever otherwise",
	Rolling: true,
	Parse: func(a Args) (Job, error) {
		q, err := statementArg(a)
		if err != nil {
			return nil, err
		}
		return rsuJob{stmt: q}, nil
	},
}

// rsuLockWait bounds the statement's wait for its metadata lock: while the
// node is desynced, its own open transactions on the table cannot commit
// and release theirs, and the server would wait lock_wait_timeout (a year
// by default), the whole node stalled.
const rsuLockWait = 30 * time.Second

type rsuJob struct{ stmt string }

func (j rsuJob) What(Target) string { return j.stmt }

// Do runs the statement under RSU: the node leaves the cluster's flow of
// write-sets while it runs, and catches up after. It ends once the node is
// Synced again, so that a rolling change moves to the next node only then.
func (j rsuJob) Do(ctx context.Context, at Site, out *Outcome) error {
	return withConn(ctx, at.DB, func(c *conn) error {
		if err := c.setLockWait(rsuLockWait); err != nil {
			return err
		}
		if _, err := c.exec("SET SESSION wsrep_OSU_method = 'RSU'"); err != nil {
			return fmt.Errorf("wsrep_OSU_method: %w", err)
		}
		n, err := c.exec(j.stmt)
		out.Rows = n
		if err != nil {
			return err
		}
		if _, err := c.exec("SET SESSION wsrep_OSU_method = 'TOI'"); err != nil {
			return fmt.Errorf("wsrep_OSU_method: %w", err)
		}
		return c.waitSynced()
	})
}

// waitSynced waits until the node says it is Synced.
func (c *conn) waitSynced() error {
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
