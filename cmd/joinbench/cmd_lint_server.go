package main

import (
	"context"

	"github.com/joinbench/joinbench/analyzer/liveplan"
	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/usage"
)

// lintServerFlags are lint's flags for a live server: the connection
// flags of every other command (conn.go's loginFlags, and the flags
// naming a server with the same help), less what lint never does (start
// a throwaway sandbox, create a database, spread over several
// endpoints), in a group of their own. The flags that name a server read
// no environment variable: lint goes live only when its command line
// says so, so that a JOINBENCH_DSN set for run leaves the pre-commit
// lint offline.
type lintServerFlags struct {
	DSN        string `name:"dsn" group:"Live server" placeholder:"DSN" help:"Read the schema (tables, columns, indexes) from this live server's database instead of the built-in model, and detect the flavour (and Galera) from it: a Go MySQL DSN, e.g. root@tcp(127.0.0.1:3306)/joinbench (the database defaults to --database)."`
	Host       string `group:"Live server" help:"Server host (default 127.0.0.1 when a server is named)."`
	Port       int    `group:"Live server" help:"Server TCP port (default 3306)."`
	Socket     string `group:"Live server" type:"path" placeholder:"PATH" help:"Unix socket file, instead of TCP."`
	loginFlags `embed:"" group:"Live server"`

	Sandbox    string `group:"Live server" placeholder:"NAME" help:"Use the running named sandbox NAME (its joinbench database) as the live server, as --dsn would."`
	SandboxDir string `env:"JOINBENCH_SANDBOX_DIR" group:"Live server" type:"path" placeholder:"DIR" help:"Where named sandboxes live (default $XDG_STATE_HOME/joinbench/sandboxes or ~/.local/state/joinbench/sandboxes)."`

	CheckPlans bool `group:"Live server" help:"With a live server (--dsn, --sandbox ...): also EXPLAIN each plain SELECT scenario (rendered with sample values, in a read-only transaction; nothing is executed) and report index and join-order hints the plan does not follow and full scans of joined tables whose join column has an index (the plan-* rules)."`
}

// named reports whether the command line names a live server.
func (f *lintServerFlags) named() bool {
	return f.DSN != "" || f.Host != "" || f.Port != 0 || f.Socket != "" || f.Sandbox != ""
}

// check refuses the flag combinations that name no server, or two.
func (f *lintServerFlags) check() error {
	switch {
	case f.Sandbox != "" && (f.DSN != "" || f.Host != "" || f.Port != 0 || f.Socket != ""):
		return usage.Errorf("--sandbox and --dsn, --host, --port or --socket both name a server: give one")
	case f.CheckPlans && !f.named():
		return usage.Errorf("--check-plans explains scenarios on a live server: give --dsn or --sandbox")
	}
	return nil
}

// serverOptions are the connection options, merged with the environment and
// the option file as for every other command.
func (f *lintServerFlags) serverOptions() server.Options {
	o := f.loginOptions()
	o.Host, o.Port, o.Socket = f.Host, f.Port, f.Socket
	if f.DSN != "" {
		o.DSNs = []string{f.DSN}
	}
	return o
}

// open reaches the live server the flags name, or returns nil when they
// name none: lint is then offline.
func (f *lintServerFlags) open(ctx context.Context) (*liveplan.Server, error) {
	if !f.named() {
		return nil, nil
	}
	return liveplan.Open(ctx, f.serverOptions(), server.SandboxOptions{Name: f.Sandbox, Dir: f.SandboxDir})
}
