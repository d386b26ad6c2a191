package main

import (
	"context"
	"io"
	"time"

	"github.com/joinbench/joinbench/internal/server"
)

// connFlags are the server connection options shared by every command that
// talks to a server. Embed it with `embed:""`.
//
// Precedence: flag > environment > option file ([client] then [joinbench]
// of --defaults-file, else ~/.my.cnf) > built-in default. With no server
// named at all, a throwaway sandbox server is started for the command.
type connFlags struct {
	DSN            []string      `name:"dsn" env:"JOINBENCH_DSN" sep:"none" group:"Connection" placeholder:"DSN" help:"Server as a Go MySQL DSN (user:pass@tcp(host:port)/db?param=value). Repeat for several endpoints (e.g. every Galera node); statements are spread over them."`
	Host           string        `env:"JOINBENCH_HOST" group:"Connection" help:"Server host (default 127.0.0.1 when a server is named)."`
	Port           int           `env:"JOINBENCH_PORT" group:"Connection" help:"Server TCP port (default 3306)."`
	Socket         string        `env:"JOINBENCH_SOCKET" group:"Connection" type:"path" placeholder:"PATH" help:"Unix socket file, instead of TCP."`
	User           string        `env:"JOINBENCH_USER" group:"Connection" help:"User name (default root)."`
	Password       string        `env:"JOINBENCH_PASSWORD,MYSQL_PWD" group:"Connection" help:"Password. Prefer the environment or an option file: command lines are visible to other users. Never printed or written to results."`
	Database       string        `env:"JOINBENCH_DATABASE" group:"Connection" help:"Database to use (default joinbench)."`
	CreateDatabase bool          `env:"JOINBENCH_CREATE_DATABASE" group:"Connection" help:"Create the database if the server does not have it (a sandbox's is always created)."`
	DefaultsFile   string        `env:"JOINBENCH_DEFAULTS_FILE" group:"Connection" type:"existingfile" placeholder:"FILE" help:"Read [client] and [joinbench] options from this file instead of ~/.my.cnf."`
	NoDefaults     bool          `group:"Connection" help:"Read no option file."`
	SSLMode        string        `name:"ssl-mode" env:"JOINBENCH_SSL_MODE" group:"Connection" placeholder:"MODE" help:"TLS: DISABLED, PREFERRED, REQUIRED, VERIFY_CA or VERIFY_IDENTITY (default: VERIFY_CA with --ssl-ca, REQUIRED with only --ssl-cert, else DISABLED)."`
	SSLCA          string        `name:"ssl-ca" env:"JOINBENCH_SSL_CA" group:"Connection" type:"existingfile" placeholder:"FILE" help:"PEM file of the CA that signed the server certificate."`
	SSLCert        string        `name:"ssl-cert" env:"JOINBENCH_SSL_CERT" group:"Connection" type:"existingfile" placeholder:"FILE" help:"PEM client certificate."`
	SSLKey         string        `name:"ssl-key" env:"JOINBENCH_SSL_KEY" group:"Connection" type:"existingfile" placeholder:"FILE" help:"PEM client key."`
	ConnectTimeout time.Duration `env:"JOINBENCH_CONNECT_TIMEOUT" group:"Connection" default:"10s" help:"Give up connecting after this long."`

	Sandbox        string `env:"JOINBENCH_SANDBOX" group:"Sandbox" placeholder:"NAME" help:"Use the running named sandbox NAME (see 'joinbench sandbox start'). With --dsn of a proxy in front of it (HAProxy): statements go to the proxy, while run's actions and status sampling go to the sandbox's nodes directly."`
	SandboxDir     string `env:"JOINBENCH_SANDBOX_DIR" group:"Sandbox" type:"path" placeholder:"DIR" help:"Where named sandboxes live (default $XDG_STATE_HOME/joinbench/sandboxes or ~/.local/state/joinbench/sandboxes)."`
	ServerBinary   string `env:"JOINBENCH_SERVER_BINARY" group:"Sandbox" type:"path" placeholder:"PATH" help:"mariadbd or mysqld binary for a throwaway sandbox (default: found on PATH)."`
	BufferPoolSize string `env:"JOINBENCH_BUFFER_POOL_SIZE" group:"Sandbox" default:"1G" help:"innodb_buffer_pool_size of a throwaway sandbox."`
	Keep           bool   `group:"Sandbox" help:"Keep a throwaway sandbox's data directory when the command ends."`
}

func (c *connFlags) options() server.Options {
	return server.Options{
		DSNs:           c.DSN,
		Host:           c.Host,
		Port:           c.Port,
		Socket:         c.Socket,
		User:           c.User,
		Password:       c.Password,
		Database:       c.Database,
		DefaultsFile:   c.DefaultsFile,
		NoDefaults:     c.NoDefaults,
		SSLMode:        c.SSLMode,
		SSLCA:          c.SSLCA,
		SSLCert:        c.SSLCert,
		SSLKey:         c.SSLKey,
		ConnectTimeout: c.ConnectTimeout,
		CreateDatabase: c.CreateDatabase,
	}
}

// connect resolves the flags into a reachable target (a missing database
// created with --create-database, or on a sandbox). With no server named it starts a throwaway sandbox
// server: always Close the target. Progress is written to log.
func (c *connFlags) connect(ctx context.Context, log io.Writer) (*server.Target, error) {
	return server.Connect(ctx, c.options(), server.SandboxOptions{
		Name:           c.Sandbox,
		Dir:            c.SandboxDir,
		ServerBinary:   c.ServerBinary,
		BufferPoolSize: c.BufferPoolSize,
		Keep:           c.Keep,
	}, log)
}
