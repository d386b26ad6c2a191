package sandbox

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/ledger"
	"github.com/joinbench/joinbench/internal/sqllex"
)

// The kinds of change joinbench notes in a ledger before it makes them
// (package ledger), and Repair undoes when the process that made them is
// gone: a sandbox's ledger, or for a global variable and an online schema
// change, the table ledger of a server reached by its address (undone by
// internal/server's RepairServer with UndoStatements and StopHelper).
const (
	// ChangeCgroup: a server moved into a cgroup of its own and limited
	// (a slow action). Undo: "group", the group; "from", where it was.
	ChangeCgroup = "cgroup"
	// ChangeGlobal: a global variable set on a node (a lesson's setting).
	// Undo: "name" and "value", the value it had.
	ChangeGlobal = "global"
	// ChangeBufferPool: a server's buffer pool resized for one command
	// (--buffer-pool-size). Undo: "bytes", the size it had.
	ChangeBufferPool = "buffer-pool"
	// ChangeOnlineSchemaChange: pt-online-schema-change running on a
	// table: its triggers and its copy of the table. Undo: "database",
	// "table"; "pgid" and "start", its process group while it runs.
	ChangeOnlineSchemaChange = "pt-osc"
	// ChangeNodeDown: a server stopped or killed to be started again (a
	// crash, a restart, a restore). Node empty: every server. Undo:
	// "rebuild" = "sst" when its data was being replaced (a restore):
	// the data is emptied and the node joins by a full state transfer.
	ChangeNodeDown = "node-down"
	// ChangeScratch: a folder a restore works in. Undo: "path", removed.
	ChangeScratch = "scratch"
	// ChangeServerArgs: a single server restarted with options of one
	// command's own (a lesson's innodb_flush_method). Undo: "args", the
	// options it ran with before (a JSON list), with which it is
	// restarted.
	ChangeServerArgs = "server-args"
)

// Ledger is the sandbox's ledger of changes not yet undone, in its folder.
func (n *Named) Ledger() *ledger.Folder { return LedgerOf(n.Dir) }

// LedgerOf is the ledger of the sandbox whose folder is dir.
func LedgerOf(dir string) *ledger.Folder { return ledger.Open(filepath.Join(dir, "ledger")) }

// UndoStatements are the statements that undo a change made through SQL,
// run on the server it was made on, and how to say it is undone: a global
// variable set back, an online schema change's triggers and copy dropped.
// ok is false for a change of another kind. A sandbox's repair and a
// server's (internal/server) share them.
func UndoStatements(e ledger.Entry) (stmts []string, how string, ok bool) {
	switch e.Kind {
	case ChangeGlobal:
		return []string{SetGlobalSQL(e.Undo["name"], e.Undo["value"])}, "set back to " + e.Undo["value"], true
	case ChangeOnlineSchemaChange:
		return OnlineSchemaChangeLeftovers(e.Undo["database"], e.Undo["table"]), "triggers and copy dropped", true
	}
	return nil, "", false
}

// OnlineSchemaChangeLeftovers are the statements that drop what
// pt-online-schema-change leaves when it is stopped before it can clean
// up: its three triggers on the table, its copy of it, and, when it was
// stopped after the swap (one atomic RENAME TABLE of both), the old
// table it had yet to drop.
func OnlineSchemaChangeLeftovers(database, table string) []string {
	var stmts []string
	for _, t := range []string{"ins", "upd", "del"} {
		stmts = append(stmts, fmt.Sprintf("DROP TRIGGER IF EXISTS %s.%s", sqllex.QuoteIdent(database),
			sqllex.QuoteIdent(fmt.Sprintf("pt_osc_%s_%s_%s", database, table, t))))
	}
	for _, copy := range []string{"_" + table + "_new", "_" + table + "_old"} {
		stmts = append(stmts, fmt.Sprintf("DROP TABLE IF EXISTS %s.%s", sqllex.QuoteIdent(database), sqllex.QuoteIdent(copy)))
	}
	return stmts
}

// SetGlobalSQL sets a global variable back to a value as SELECT
// @@GLOBAL read it: a number as it is, anything else quoted.
func SetGlobalSQL(name, value string) string {
	if _, err := strconv.ParseFloat(value, 64); err == nil {
		return fmt.Sprintf("SET GLOBAL %s = %s", name, value)
	}
	return fmt.Sprintf("SET GLOBAL %s = '%s'", name, strings.ReplaceAll(strings.ReplaceAll(value, `\`, `\\`), "'", "''"))
}

// exec runs statements on the server as root over its socket.
func (s *Server) exec(ctx context.Context, stmts ...string) error {
	conn, err := mysql.NewConnector(s.socketConfig())
	if err != nil {
		return err
	}
	db := sql.OpenDB(conn)
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %s: %w", s.Name, q, err)
		}
	}
	return nil
}
