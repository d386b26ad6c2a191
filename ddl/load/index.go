package load

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/go-sql-driver/mysql"
	"github.com/joinbench/joinbench/ddl"
)

// addIndexes runs t's ALTER TABLE adding its secondary indexes on conn, a
// load session, and says how long it took. It stops when either context
// ends: ctx is the caller's (Ctrl-C), gctx the load's (another session
// failed). A server goes on with a statement whose client went away, so
// the ALTER TABLE is then killed from another connection of db.
func addIndexes(ctx, gctx context.Context, db *sql.DB, conn *sql.Conn, t ddl.BuiltinTable) (time.Duration, error) {
	var id int64
	if err := conn.QueryRowContext(gctx, "SELECT CONNECTION_ID()").Scan(&id); err != nil {
		return 0, fmt.Errorf("add indexes to %s: %w", t.Name, err)
	}
	actx, cancel := context.WithCancel(gctx)
	defer cancel()
	defer context.AfterFunc(ctx, cancel)()
	killed := make(chan struct{})
	stopKill := context.AfterFunc(actx, func() {
		defer close(killed)
		kctx, kcancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer kcancel()
		_, _ = db.ExecContext(kctx, "KILL QUERY "+strconv.FormatInt(id, 10))
	})
	start := time.Now()
	_, err := conn.ExecContext(actx, t.AddIndexes)
	if !stopKill() { // the kill started: let it finish before returning
		<-killed
	}
	if err != nil {
		return 0, fmt.Errorf("add indexes to %s: %w", t.Name, err)
	}
	return time.Since(start), nil
}

// addMissingIndexes is the index stage: it adds the secondary indexes of
// the tables that got no row in this load but lack them (plan's
// indexAfter), up to Threads at once. The tables loaded got theirs from
// the session that loaded their last row.
func addMissingIndexes(ctx context.Context, db *sql.DB, opts PrepareOptions, p *loadPlan, st *tally) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(opts.Threads)
	for _, t := range p.indexAfter {
		g.Go(func() error {
			// The server may still have been finishing the interrupted
			// load's ALTER TABLE when the plan was made (a statement whose
			// client went away runs on, and KILL QUERY cannot stop its
			// last phase): ask again, and take a duplicate key name as
			// that ALTER having won the race.
			if bare, err := lacksIndexes(gctx, db, t.Name); err != nil || !bare {
				return err
			}
			opts.logf("adding the secondary indexes of %s", t.Name)
			start := time.Now()
			if _, err := db.ExecContext(gctx, t.AddIndexes); err != nil {
				if bare, cerr := lacksIndexes(gctx, db, t.Name); isDupKeyName(err) && cerr == nil && !bare {
					return nil
				}
				return fmt.Errorf("add indexes to %s: %w", t.Name, err)
			}
			st.indexed(t.Name, time.Since(start))
			return nil
		})
	}
	return g.Wait()
}

// isDupKeyName reports the server's "Duplicate key name" (ER_DUP_KEYNAME):
// an index of that name exists already.
func isDupKeyName(err error) bool {
	var me *mysql.MySQLError
	return errors.As(err, &me) && me.Number == 1061
}
