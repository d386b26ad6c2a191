package main

import (
	"context"
	"io"
	"os"
	"time"

	"github.com/alecthomas/kong"

	"github.com/joinbench/joinbench/internal/server"
)

// connFlags are the server connection options shared by every command that
// talks to a server. Embed it with `embed:""`.
//
// Precedence: flag > environment > option file ([client] then [joinbench]
// of --defaults-file, else ~/.my.cnf) > built-in default. With no server
// named at all, a throwaway sandbox server is started for the command.
type connFlags struct {
	DSN            []string `name:"dsn" env:"JOINBENCH_DSN" sep:"none" group:"Connection" placeholder:"DSN" help:"Server as a Go MySQL DSN (user:pass@tcp(host:port)/db?param=value). Repeat for several endpoints (e.g. every Galera node); statements are spread over them."`
	Host           string   `env:"JOINBENCH_HOST" group:"Connection" help:"Server host (default 127.0.0.1 when a server is named)."`
	Port           int      `env:"JOINBENCH_PORT" group:"Connection" help:"Server TCP port (default 3306)."`
	Socket         string   `env:"JOINBENCH_SOCKET" group:"Connection" type:"path" placeholder:"PATH" help:"Unix socket file, instead of TCP."`
	loginFlags     `embed:"" group:"Connection"`
	CreateDatabase bool `env:"JOINBENCH_CREATE_DATABASE" group:"Connection" help:"Create the database if the server does not have it (a sandbox's is always created)."`

	Sandbox        string `env:"JOINBENCH_SANDBOX" group:"Sandbox" placeholder:"NAME" help:"Use the running named sandbox NAME (see 'joinbench sandbox start'). With --dsn of a proxy in front of it (HAProxy): statements go to the proxy, while run's actions and status sampling go to the sandbox's nodes directly."`
	SandboxDir     string `env:"JOINBENCH_SANDBOX_DIR" group:"Sandbox" type:"path" placeholder:"DIR" help:"Where named sandboxes live (default $XDG_STATE_HOME/joinbench/sandboxes or ~/.local/state/joinbench/sandboxes)."`
	ServerBinary   string `env:"JOINBENCH_SERVER_BINARY" group:"Sandbox" type:"path" placeholder:"PATH" help:"mariadbd or mysqld binary for a throwaway sandbox (default: found on PATH)."`
	BufferPoolSize string `env:"JOINBENCH_BUFFER_POOL_SIZE" group:"Sandbox" default:"1G" help:"innodb_buffer_pool_size of a throwaway sandbox; given with --sandbox NAME, set on its servers for this command (SET GLOBAL, an online resize) and set back after it; refused with a server named otherwise."`
	Keep           bool   `group:"Sandbox" help:"Keep a throwaway sandbox's data directory when the command ends."`

	// via, when set, reroutes the connected target's endpoints (ab's
	// --candidate-slow puts a proxy in front of each); not a flag.
	via func(*server.Target) error

	// bufferPoolGiven is whether --buffer-pool-size was given (on the
	// command line or in the environment) rather than defaulted: its
	// default sizes a throwaway sandbox only.
	bufferPoolGiven bool
}

// AfterApply notes whether --buffer-pool-size was given: kong marks a
// defaulted flag set too, so the command line and the environment are
// looked at.
func (c *connFlags) AfterApply(kctx *kong.Context) error {
	for _, p := range kctx.Path {
		if p.Flag != nil && p.Flag.Name == "buffer-pool-size" {
			c.bufferPoolGiven = true
		}
	}
	if _, ok := os.LookupEnv("JOINBENCH_BUFFER_POOL_SIZE"); ok {
		c.bufferPoolGiven = true
	}
	return nil
}

func (c *connFlags) options() server.Options {
	o := c.loginOptions()
	o.DSNs, o.Host, o.Port, o.Socket = c.DSN, c.Host, c.Port, c.Socket
	o.CreateDatabase = c.CreateDatabase
	return o
}

// loginFlags are how to log in to a server and talk to it, however it is
// named: the connection flags lint's live-server flags take alike with
// every other command's. Embed it with the group of the flags around it.
type loginFlags struct {
	User           string        `env:"JOINBENCH_USER" help:"User name (default root)."`
	Password       string        `env:"JOINBENCH_PASSWORD,MYSQL_PWD" help:"Password. Prefer the environment or an option file: command lines are visible to other users. Never printed or written to results."`
	Database       string        `env:"JOINBENCH_DATABASE" help:"Database to use (default joinbench)."`
	DefaultsFile   string        `env:"JOINBENCH_DEFAULTS_FILE" type:"existingfile" placeholder:"FILE" help:"Read [client] and [joinbench] options from this file instead of ~/.my.cnf."`
	NoDefaults     bool          `help:"Read no option file."`
	SSLMode        string        `name:"ssl-mode" env:"JOINBENCH_SSL_MODE" placeholder:"MODE" help:"TLS: DISABLED, PREFERRED, REQUIRED, VERIFY_CA or VERIFY_IDENTITY (default: VERIFY_CA with --ssl-ca, REQUIRED with only --ssl-cert, else DISABLED)."`
	SSLCA          string        `name:"ssl-ca" env:"JOINBENCH_SSL_CA" type:"existingfile" placeholder:"FILE" help:"PEM file of the CA that signed the server certificate."`
	SSLCert        string        `name:"ssl-cert" env:"JOINBENCH_SSL_CERT" type:"existingfile" placeholder:"FILE" help:"PEM client certificate."`
	SSLKey         string        `name:"ssl-key" env:"JOINBENCH_SSL_KEY" type:"existingfile" placeholder:"FILE" help:"PEM client key."`
	ConnectTimeout time.Duration `env:"JOINBENCH_CONNECT_TIMEOUT" default:"10s" help:"Give up connecting after this long."`
}

// loginOptions are the connection options of the flags, naming no
// server.
func (l *loginFlags) loginOptions() server.Options {
	return server.Options{
		User:           l.User,
		Password:       l.Password,
		Database:       l.Database,
		DefaultsFile:   l.DefaultsFile,
		NoDefaults:     l.NoDefaults,
		SSLMode:        l.SSLMode,
		SSLCA:          l.SSLCA,
		SSLCert:        l.SSLCert,
		SSLKey:         l.SSLKey,
		ConnectTimeout: l.ConnectTimeout,
	}
}

// connect resolves the flags into a reachable target (a missing database
// created with --create-database, or on a sandbox). With no server named it starts a throwaway sandbox
// server: always Close the target. Progress is written to log.
func (c *connFlags) connect(ctx context.Context, log io.Writer) (*server.Target, error) {
	bufferPool := ""
	if c.bufferPoolGiven {
		bufferPool = c.BufferPoolSize
	}
	tgt, err := server.Connect(ctx, c.options(), server.SandboxOptions{
		Name:           c.Sandbox,
		Dir:            c.SandboxDir,
		ServerBinary:   c.ServerBinary,
		BufferPoolSize: bufferPool,
		Keep:           c.Keep,
	}, log)
	if err != nil || c.via == nil {
		return tgt, err
	}
	if err := c.via(tgt); err != nil {
		tgt.Close()
		return nil, err
	}
	return tgt, nil
}
