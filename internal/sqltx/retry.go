package sqltx

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/go-sql-driver/mysql"
)

// Retry runs fn in a transaction, again after a deadlock, a lock wait
// timeout or a Galera certification failure (which reports a deadlock):
// clients that arrive at once serialise on the same rows, and the loser
// tries again. Any other error of fn is returned as is, the transaction
// rolled back.
func Retry(ctx context.Context, db *sql.DB, fn func(*sql.Tx) error) error {
	var err error
	for attempt := range 20 {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Duration(attempt) * 20 * time.Millisecond):
			}
		}
		err = func() error {
			tx, err := db.BeginTx(ctx, nil)
			if err != nil {
				return err
			}
			defer tx.Rollback()
			if err := fn(tx); err != nil {
				return err
			}
			return tx.Commit()
		}()
		if !retryable(err) {
			return err
		}
	}
	return err
}

// retryable: ER_LOCK_DEADLOCK (1213) or ER_LOCK_WAIT_TIMEOUT (1205).
func retryable(err error) bool {
	var me *mysql.MySQLError
	return errors.As(err, &me) && (me.Number == 1213 || me.Number == 1205)
}
