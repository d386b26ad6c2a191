package main

import (
	"context"
	"time"

	"github.com/joinbench/joinbench/analyzer/liveplan"
	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/usage"
)

// lintServerFlags are lint's flags for a live server: the connection
// flags of every other command (conn.go's, with the same help and
// environment), less what lint never does (start a throwaway sandbox,
// create a database, spread over several endpoints). The flags that
// name a server read no environment variable: lint goes live only when
// its command line says so, so that a JOINBENCH_DSN set for run leaves
// the pre-commit lint offline.
type lintServerFlags struct {
	DSN            string        `name:"dsn" group:"Live server" placeholder:"DSN" help:"Read the schema (tables, columns, indexes) from this live server's database instead of the built-in model, and detect the flavour (and Galera) from it: a Go MySQL DSN, e.g. root@tcp(127.0.0.1:3306)/joinbench (the database defaults to --database)."`
	Host           string        `group:"Live server" help:"Server host (default 127.0.0.1 when a server is named)."`
	Port           int           `group:"Live server" help:"Server TCP port (default 3306)."`
	Socket         string        `group:"Live server" type:"path" placeholder:"PATH" help:"Unix socket file, instead of TCP."`
	User           string        `env:"JOINBENCH_USER" group:"Live server" help:"User name (default root)."`
	Password       string        `env:"JOINBENCH_PASSWORD,MYSQL_PWD" group:"Live server" help:"Password. Prefer the environment or an option file: command lines are visible to other users. Never printed or written to results."`
	Database       string        `env:"JOINBENCH_DATABASE" group:"Live server" help:"Database to use (default joinbench)."`
	DefaultsFile   string        `env:"JOINBENCH_DEFAULTS_FILE" group:"Live server" type:"existingfile" placeholder:"FILE" help:"Read [client] and [joinbench] options from this file instead of ~/.my.cnf."`
	NoDefaults     bool          `group:"Live server" help:"Read no option file."`
	SSLMode        string        `name:"ssl-mode" env:"JOINBENCH_SSL_MODE" group:"Live server" placeholder:"MODE" help:"TLS: DISABLED, PREFERRED, REQUIRED, VERIFY_CA or VERIFY_IDENTITY (default: VERIFY_CA with --ssl-ca, REQUIRED with only --ssl-cert, else DISABLED)."`
	SSLCA          string        `name:"ssl-ca" env:"JOINBENCH_SSL_CA" group:"Live server" type:"existingfile" placeholder:"FILE" help:"PEM file of the CA that signed the server certificate."`
	SSLCert        string        `name:"ssl-cert" env:"JOINBENCH_SSL_CERT" group:"Live server" type:"existingfile" placeholder:"FILE" help:"PEM client certificate."`
	SSLKey         string        `name:"ssl-key" env:"JOINBENCH_SSL_KEY" group:"Live server" type:"existingfile" placeholder:"FILE" help:"PEM client key."`
	ConnectTimeout time.Duration `env:"JOINBENCH_CONNECT_TIMEOUT" group:"Live server" default:"10s" help:"Give up connecting after this long."`

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
	o := server.Options{
		Host: f.Host, Port: f.Port, Socket: f.Socket, User: f.User, Password: f.Password, Database: f.Database,
		DefaultsFile: f.DefaultsFile, NoDefaults: f.NoDefaults,
		SSLMode: f.SSLMode, SSLCA: f.SSLCA, SSLCert: f.SSLCert, SSLKey: f.SSLKey,
		ConnectTimeout: f.ConnectTimeout,
	}
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
