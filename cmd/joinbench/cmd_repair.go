package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/joinbench/joinbench/internal/ledger"
	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/internal/usage"
)

// repairCmd sees and undoes what a killed joinbench left on a server: the
// server named as for every other command (the same flags and
// environment), or a named sandbox (as sandbox repair does). It never
// starts a throwaway sandbox nor creates a database: there would be
// nothing on them to repair.
type repairCmd struct {
	DSN        []string `name:"dsn" env:"JOINBENCH_DSN" sep:"none" group:"Server" placeholder:"DSN" help:"Server as a Go MySQL DSN (user:pass@tcp(host:port)/db?param=value), its database the one the commands used. Repeat for several endpoints (e.g. every Galera node): each is repaired."`
	Host       string   `env:"JOINBENCH_HOST" group:"Server" help:"Server host (default 127.0.0.1 when a server is named)."`
	Port       int      `env:"JOINBENCH_PORT" group:"Server" help:"Server TCP port (default 3306)."`
	Socket     string   `env:"JOINBENCH_SOCKET" group:"Server" type:"path" placeholder:"PATH" help:"Unix socket file, instead of TCP."`
	loginFlags `embed:"" group:"Server"`

	Sandbox    string `env:"JOINBENCH_SANDBOX" group:"Server" placeholder:"NAME" help:"Repair the named sandbox NAME, as 'joinbench sandbox repair --name NAME' does (with a server flag too: the sandbox's nodes behind a proxy, and the proxy's server)."`
	SandboxDir string `env:"JOINBENCH_SANDBOX_DIR" group:"Server" type:"path" placeholder:"DIR" help:"Where named sandboxes live (default $XDG_STATE_HOME/joinbench/sandboxes or ~/.local/state/joinbench/sandboxes)."`

	List  bool     `help:"List what the ledger holds, who left it and whether it is left over; undo nothing. Exit 1 when something is left over."`
	Force []string `placeholder:"ID" help:"Undo the entry ID although the joinbench that left it ran on another machine, whose process cannot be checked from here (repeatable): run it once that joinbench is gone; each such entry is named with this command."`
}

func (c *repairCmd) Help() string {
	return `Every change joinbench makes to a server (a global variable a lesson sets,
the triggers and table copy of a pt-online-schema-change action) is written
to a ledger before it is made, and removed once undone: on a server named by
--dsn, --host or --socket, in the table joinbench_ledger of the database the
command uses (made by the first change); on a named sandbox, in its folder.
A joinbench that is killed leaves its entries. Repair undoes those whose
writer, a process of this machine, is gone (by process id and start time),
one line each: a schema change tool still running stopped and its triggers
and copy dropped, settings set back. An entry of a joinbench that ran on
another machine is never undone on a guess: it is named with the command
that undoes it (--force ID), to run once that joinbench is gone. Two
repairs at once take turns (a lock on the server, GET_LOCK; a file lock
on a sandbox): the second finds nothing left.

Every command that connects to a server does the same first; repair does
only that, and --list shows the ledger without changing anything.`
}

func (c *repairCmd) options() server.Options {
	o := c.loginOptions()
	o.DSNs, o.Host, o.Port, o.Socket = c.DSN, c.Host, c.Port, c.Socket
	return o
}

func (c *repairCmd) Run(ctx context.Context, cl *cli) error {
	o := c.options()
	names, err := o.NamesServer()
	if err != nil {
		return err
	}
	switch {
	case c.Sandbox == "" && !names:
		return usage.Errorf("no server named: give --dsn, --host, --port, --socket or --sandbox")
	case !names && len(c.Force) > 0:
		return usage.Errorf("--force undoes an entry another machine left on a server named by --dsn, --host or --socket: a sandbox's entries are all this machine's, and repair undoes those left over")
	}
	// A sandbox and a server together are a proxy's nodes and the proxy,
	// as for every other command: both are seen to.
	var sandboxErr error
	if c.Sandbox != "" {
		if c.List {
			sandboxErr = listSandboxLeftovers(c.SandboxDir, c.Sandbox)
		} else {
			sandboxErr = repairSandbox(ctx, cl, c.SandboxDir, c.Sandbox)
		}
		if !names || !isLeftoversFound(sandboxErr) && sandboxErr != nil {
			return sandboxErr
		}
	}
	tgt, err := server.ConnectExisting(ctx, o, server.SandboxOptions{})
	if err != nil {
		return err
	}
	defer tgt.Close()
	if c.List {
		if err := listServerLedgers(ctx, tgt.Endpoints); err != nil {
			return err
		}
		return sandboxErr
	}
	log := logWriter(cl)
	for _, ep := range tgt.Endpoints {
		n, err := server.RepairServer(ctx, ep, os.Stderr, c.Force)
		if err != nil {
			return err
		}
		if n == 0 {
			fmt.Fprintf(log, "server %s: nothing undone\n", ep.Name)
		}
	}
	return nil
}

func isLeftoversFound(err error) bool {
	_, ok := err.(leftoversFound)
	return ok
}

// listSandboxLeftovers prints what killed joinbench processes left on a
// named sandbox, as sandbox status does after the sandbox itself.
func listSandboxLeftovers(dir, name string) error {
	sb, err := sandbox.Open(dir, name)
	if err != nil {
		return err
	}
	left, err := sb.Leftovers()
	if err != nil {
		return err
	}
	if len(left) == 0 {
		fmt.Printf("sandbox %s: nothing left by a killed joinbench\n", sb.Name)
		return nil
	}
	fmt.Printf("sandbox %s, left by a joinbench that was killed (undo: joinbench sandbox repair --name %s, or any command on the sandbox):\n", sb.Name, sb.Name)
	for _, l := range left {
		fmt.Printf("  %s\n", l)
	}
	return leftoversFound{len(left), "joinbench sandbox repair --name " + sb.Name}
}

// listServerLedgers prints the ledger table of each endpoint's server,
// entry by entry, with what may be done about it.
func listServerLedgers(ctx context.Context, eps []server.Endpoint) error {
	left := 0
	for _, ep := range eps {
		sl, err := server.ReadServerLedger(ctx, ep)
		if err != nil {
			return err
		}
		fmt.Printf("server %s:", ep.Name)
		if len(sl.Left)+len(sl.Elsewhere)+len(sl.Live)+len(sl.Others) == 0 {
			fmt.Println(" nothing noted")
			continue
		}
		fmt.Println()
		printEntries(os.Stdout, sl.Left, "left by a joinbench that was killed (undo: "+server.RepairCommand(ep)+", or any command on the server)", nil)
		printEntries(os.Stdout, sl.Elsewhere, "left by a joinbench on another machine, which cannot be checked from here (undo once it is gone)",
			func(e ledger.Entry) string { return server.RepairCommand(ep, "--force", e.ID) })
		printEntries(os.Stdout, sl.Live, "of a joinbench running on this machine (it undoes them itself)", nil)
		printEntries(os.Stdout, sl.Others, "of another server sharing the table (a node of a cluster: repair through it)", nil)
		left += len(sl.Left) + len(sl.Elsewhere)
	}
	if left > 0 {
		fix := "joinbench repair with the same server flags"
		if len(eps) == 1 {
			fix = server.RepairCommand(eps[0])
		}
		return leftoversFound{left, fix}
	}
	return nil
}

// printEntries prints entries under a heading, each with its owner and,
// when undo says one, the command that undoes it.
func printEntries(w io.Writer, entries []ledger.Entry, heading string, undo func(ledger.Entry) string) {
	if len(entries) == 0 {
		return
	}
	fmt.Fprintf(w, "  %s:\n", heading)
	for _, e := range entries {
		fmt.Fprintf(w, "    %s (%s, %s, at %s; entry %s)\n", e.What, e.Owner, e.Command, e.Made.Format(time.RFC3339), e.ID)
		if undo != nil {
			fmt.Fprintf(w, "      %s\n", undo(e))
		}
	}
}
