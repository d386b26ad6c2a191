package ledger

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/usage"
)

// TableName is the table in which a server reached by its address (--dsn,
// --host, --socket) keeps its ledger, in the database joinbench uses on
// it: such a server's machine may not be this one, and whatever reaches
// the server next, from any machine, must find the entry.
const TableName = "joinbench_ledger"

// tableDDL makes the table on the first Add: a server on which joinbench
// never changed anything has none.
const tableDDL = "CREATE TABLE IF NOT EXISTS " + TableName + ` (
	id VARCHAR(128) NOT NULL PRIMARY KEY,
	entry TEXT NOT NULL
) ENGINE=InnoDB`

// tableTimeout bounds each statement on the ledger table: a ledger that
// cannot be written in that time fails the change it was to note.
const tableTimeout = 30 * time.Second

// Table is a ledger kept as a table on the server the changes are made
// to, one row per entry (its ID and its JSON).
type Table struct {
	where string
	open  func() (*sql.DB, error)
}

// OpenTable is the ledger in TableName of the database that the pools
// open returns are on; where names that server in messages (host:port
// and database). Each use opens a pool and closes it: entries are few
// and far between.
func OpenTable(where string, open func() (*sql.DB, error)) *Table {
	return &Table{where: where, open: open}
}

// Where names it in messages.
func (t *Table) Where() string { return "the table " + TableName + " on " + t.where }

// Add writes e as a row, creating the table when it is the first. An
// entry that names no node is given the server's own name (ServerName):
// the table of a Galera cluster is every node's, while a global
// variable is set on one of them.
func (t *Table) Add(e Entry) (func() error, error) {
	e = e.stamped()
	err := t.with(func(ctx context.Context, db *sql.DB) error {
		if e.Node == "" {
			name, err := serverName(ctx, db)
			if err != nil {
				return err
			}
			e.Node = name
		}
		b, err := json.Marshal(e)
		if err != nil {
			return err
		}
		if _, err := db.ExecContext(ctx, tableDDL); err != nil {
			return fmt.Errorf("create: %w", err)
		}
		_, err = db.ExecContext(ctx, "INSERT INTO "+TableName+" (id, entry) VALUES (?, ?)", e.ID, string(b))
		return err
	})
	if err != nil {
		return nil, err
	}
	return func() error { return t.Remove(e.ID) }, nil
}

// ServerName is how the entries of the table's server name it (its
// @@hostname:@@port), to tell its entries from those of another node of
// a cluster sharing the table.
func (t *Table) ServerName() (string, error) {
	var name string
	err := t.with(func(ctx context.Context, db *sql.DB) (err error) {
		name, err = serverName(ctx, db)
		return err
	})
	return name, err
}

func serverName(ctx context.Context, db *sql.DB) (string, error) {
	var name string
	if err := db.QueryRowContext(ctx, "SELECT CONCAT(@@hostname, ':', @@port)").Scan(&name); err != nil {
		return "", fmt.Errorf("server name: %w", err)
	}
	return name, nil
}

// Remove deletes the row of entry id.
func (t *Table) Remove(id string) error {
	return t.with(func(ctx context.Context, db *sql.DB) error {
		_, err := db.ExecContext(ctx, "DELETE FROM "+TableName+" WHERE id = ?", id)
		if noTable(err) {
			return nil
		}
		return err
	})
}

// Entries are every row, oldest first; none when the table or the
// database does not exist. A row that is not an entry is an error naming
// it, as a folder's unreadable file is.
func (t *Table) Entries() ([]Entry, error) {
	var out []Entry
	err := t.with(func(ctx context.Context, db *sql.DB) error {
		rows, err := db.QueryContext(ctx, "SELECT id, entry FROM "+TableName)
		if noTable(err) {
			return nil
		}
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id, text string
			if err := rows.Scan(&id, &text); err != nil {
				return err
			}
			var e Entry
			if err := json.Unmarshal([]byte(text), &e); err != nil {
				return fmt.Errorf("row %q: %w", id, err)
			}
			out = append(out, e)
		}
		return rows.Err()
	})
	slices.SortFunc(out, func(a, b Entry) int { return a.Made.Compare(b.Made) })
	return out, err
}

// Lock holds a named lock of the server (GET_LOCK), one per database, on
// a connection of its own: the server lets it go when that connection
// ends, however its holder ends.
func (t *Table) Lock(ctx context.Context, wait time.Duration, log io.Writer) (func(), error) {
	db, err := t.open()
	if err != nil {
		return nil, t.wrap(err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, t.wrap(err)
	}
	release := func() {
		conn.Close()
		db.Close()
	}
	// Lock names are at most 64 characters (MySQL 5.7 and later refuse
	// longer ones).
	const name = "LEFT(CONCAT('" + TableName + ".', DATABASE()), 64)"
	// A first wait of a second goes unsaid: two connections of one command
	// to one server (ab with the same server on both sides) meet here for
	// the moment the first takes to find nothing (lockQuiet).
	got, err := getLock(ctx, conn, name, lockQuiet)
	if err == nil && !got {
		holder := lockHolderOn(ctx, conn, name)
		if log != nil {
			fmt.Fprintf(log, "waiting up to %s for another joinbench (%s), repairing what a killed joinbench left on %s\n", wait, holder, t.where)
		}
		got, err = getLock(ctx, conn, name, wait)
		if err == nil && !got {
			release()
			return nil, usage.Errorf("another joinbench (%s) is still repairing what a killed joinbench left on %s: run the command again once it is done", holder, t.where)
		}
	}
	if err != nil {
		release()
		return nil, t.wrap(fmt.Errorf("lock: %w", err))
	}
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), tableTimeout)
		defer cancel()
		_, _ = conn.ExecContext(ctx, "DO RELEASE_LOCK("+name+")")
		release()
	}, nil
}

// getLock tries GET_LOCK for up to wait (whole seconds, rounded up).
func getLock(ctx context.Context, conn *sql.Conn, name string, wait time.Duration) (bool, error) {
	var got sql.NullInt64
	secs := int64(math.Ceil(wait.Seconds()))
	if err := conn.QueryRowContext(ctx, "SELECT GET_LOCK("+name+", ?)", secs).Scan(&got); err != nil {
		return false, err
	}
	if !got.Valid {
		return false, errors.New("GET_LOCK returned NULL")
	}
	return got.Int64 == 1, nil
}

// lockHolderOn names the connection holding the lock: its id and the
// client's address, as the server's process list shows them.
func lockHolderOn(ctx context.Context, conn *sql.Conn, name string) string {
	var id sql.NullInt64
	if err := conn.QueryRowContext(ctx, "SELECT IS_USED_LOCK("+name+")").Scan(&id); err != nil || !id.Valid {
		return "a connection that has since ended"
	}
	var host sql.NullString
	_ = conn.QueryRowContext(ctx, "SELECT HOST FROM information_schema.PROCESSLIST WHERE ID = ?", id.Int64).Scan(&host)
	if host.String == "" {
		return fmt.Sprintf("connection %d", id.Int64)
	}
	return fmt.Sprintf("connection %d from %s", id.Int64, host.String)
}

// with runs f on a pool of the server, within tableTimeout.
func (t *Table) with(f func(ctx context.Context, db *sql.DB) error) error {
	db, err := t.open()
	if err != nil {
		return t.wrap(err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), tableTimeout)
	defer cancel()
	return t.wrap(f(ctx, db))
}

func (t *Table) wrap(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("ledger %s on %s: %w", TableName, t.where, err)
}

// noTable reports whether err says the table, or its database, is not
// there: a server with nothing noted.
func noTable(err error) bool {
	var me *mysql.MySQLError
	return errors.As(err, &me) && (me.Number == 1146 || me.Number == 1049)
}
