package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"time"

	"github.com/joinbench/joinbench/internal/ledger"
	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/internal/sqllex"
	"github.com/joinbench/joinbench/internal/usage"
)

// ServerRepairLockWait bounds how long a repair of a server reached by
// its address waits for another: undoing a server's leftovers is a few
// statements and stopping a schema change tool (at most 30 s).
const ServerRepairLockWait = 2 * time.Minute

// ServerLedger is what the ledger table on an endpoint's server holds,
// sorted by what may be done about each entry.
type ServerLedger struct {
	// Left are the entries a joinbench of this machine left when it was
	// killed: Repair undoes them.
	Left []ledger.Entry
	// Elsewhere are entries of a joinbench that ran on another machine,
	// which cannot tell from here whether it still runs: undone only
	// when named by --force.
	Elsewhere []ledger.Entry
	// Live are entries of a joinbench of this machine that still runs.
	Live []ledger.Entry
	// Others are entries of another server sharing the table (another
	// node of a cluster): that server's repair undoes them.
	Others []ledger.Entry
}

// ReadServerLedger reads the ledger table on ep's server.
func ReadServerLedger(ctx context.Context, ep Endpoint) (*ServerLedger, error) {
	l := ep.TableLedger()
	all, err := l.Entries()
	if err != nil || len(all) == 0 {
		return &ServerLedger{}, err
	}
	self, err := l.ServerName()
	if err != nil {
		return nil, err
	}
	sl := &ServerLedger{}
	for _, e := range all {
		switch {
		case e.Node != "" && e.Node != self:
			sl.Others = append(sl.Others, e)
		case e.Elsewhere():
			sl.Elsewhere = append(sl.Elsewhere, e)
		case e.Orphaned():
			sl.Left = append(sl.Left, e)
		default:
			sl.Live = append(sl.Live, e)
		}
	}
	return sl, nil
}

// RepairServer undoes what joinbench processes of this machine that were
// killed left on the server ep names, as its ledger table notes it, each
// in one line on log: a schema change tool still running stopped and its
// triggers and copy dropped, a global variable set back. An entry of a
// joinbench that ran on another machine is never undone on a guess: it is
// named, with the command that undoes it once that joinbench is gone
// (joinbench repair ... --force ID), and undone when force holds its ID.
// One repair at a time holds the server's lock (ledger.Table.Lock). It
// returns how many entries it undid.
func RepairServer(ctx context.Context, ep Endpoint, log io.Writer, force []string) (int, error) {
	if log == nil {
		log = io.Discard
	}
	sl, err := ReadServerLedger(ctx, ep)
	if err != nil {
		return 0, err
	}
	if len(sl.Left) == 0 && len(sl.Elsewhere) == 0 && len(force) == 0 {
		return 0, nil
	}
	l := ep.TableLedger()
	unlock, err := l.Lock(ctx, ServerRepairLockWait, log)
	if err != nil {
		return 0, err
	}
	defer unlock()
	// Read again under the lock: another repair may have undone them.
	if sl, err = ReadServerLedger(ctx, ep); err != nil {
		return 0, err
	}
	undone := 0
	var errs []error
	handled := map[string]bool{} // the IDs --force may name
	undo := func(e ledger.Entry, who string) {
		if err := undoOnServer(ctx, ep, e); err != nil {
			errs = append(errs, err)
			return
		}
		errs = append(errs, l.Remove(e.ID))
		_, how, _ := sandbox.UndoStatements(e)
		fmt.Fprintf(log, "server %s: %s, left by %s: %s\n", ep.Name, e.What, who, how)
		undone++
	}
	for _, e := range sl.Left {
		handled[e.ID] = true
		undo(e, fmt.Sprintf("a joinbench that was killed (pid %d)", e.Owner.PID))
	}
	for _, e := range sl.Elsewhere {
		if slices.Contains(force, e.ID) {
			handled[e.ID] = true
			undo(e, fmt.Sprintf("a joinbench on %s (pid %d), as --force asked", e.Owner.Host, e.Owner.PID))
			continue
		}
		fmt.Fprintf(log, "server %s: %s, left by a joinbench on %s (pid %d, %s, at %s), which cannot be checked from here: once it is gone, run '%s'\n",
			ep.Name, e.What, e.Owner.Host, e.Owner.PID, e.Command, e.Made.Format(time.RFC3339), RepairCommand(ep, "--force", e.ID))
	}
	for _, id := range force {
		if handled[id] {
			continue
		}
		live := slices.ContainsFunc(append(sl.Live, sl.Others...), func(e ledger.Entry) bool { return e.ID == id })
		if live {
			errs = append(errs, usage.Errorf("--force %s: that entry is a running joinbench's on this machine, or another server's: it is not undone", id))
		} else {
			errs = append(errs, usage.Errorf("--force %s: no such entry in %s", id, l.Where()))
		}
	}
	return undone, errors.Join(errs...)
}

// undoOnServer undoes one entry on ep's server: a schema change tool this
// machine runs is stopped first, or it would make its triggers again.
func undoOnServer(ctx context.Context, ep Endpoint, e ledger.Entry) error {
	stmts, _, ok := sandbox.UndoStatements(e)
	if !ok {
		return usage.Errorf("server %s: %s cannot be undone by joinbench on a server reached by its address: undo it yourself, then delete its entry: DELETE FROM %s.%s WHERE id = '%s'",
			ep.Name, e.What, sqllex.QuoteIdent(endpointDatabase(ep)), ledger.TableName, e.ID)
	}
	if e.Kind == sandbox.ChangeOnlineSchemaChange && e.Owner.Here() {
		sandbox.StopHelper(ctx, e)
	}
	db, err := ep.OpenDB()
	if err != nil {
		return err
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return usage.Errorf("server %s: %s, left by a joinbench that was killed, cannot be undone: %s: %v; once it can, run '%s'", ep.Name, e.What, q, err, RepairCommand(ep))
		}
	}
	return nil
}

// RepairCommand is the command that repairs ep's server, extra appended:
// its address, user and database as flags (never its password).
func RepairCommand(ep Endpoint, extra ...string) string {
	args := []string{"joinbench", "repair"}
	cfg, err := ep.Config()
	if err == nil {
		if cfg.Net == "unix" {
			args = append(args, "--socket", cfg.Addr)
		} else if host, port, err := net.SplitHostPort(cfg.Addr); err == nil {
			args = append(args, "--host", host, "--port", port)
		}
		if cfg.User != "" {
			args = append(args, "--user", cfg.User)
		}
		args = append(args, "--database", cfg.DBName)
	}
	return strings.Join(append(args, extra...), " ")
}

func endpointDatabase(ep Endpoint) string {
	if cfg, err := ep.Config(); err == nil {
		return cfg.DBName
	}
	return ep.database
}
