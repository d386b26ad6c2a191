package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/internal/sqllex"
	"github.com/joinbench/joinbench/internal/usage"
)

// Endpoint is one server to send statements to.
type Endpoint struct {
	// Name identifies the endpoint in logs and result files: host:port or
	// the socket path. It never holds a password.
	Name string
	// DSN is a go-sql-driver/mysql DSN, password included, with the
	// database selected. A DSN cannot hold a user name with a ':' (the
	// driver reads the password from there): connect with Config or
	// OpenDB, which keep the configuration the endpoint was made of.
	DSN string
	// Node is the name of the sandbox server behind the endpoint (node1,
	// node2, ... for a cluster's nodes), empty for other servers: run
	// actions name their endpoint by it.
	Node string
	// Process controls the sandbox server behind the endpoint (nil for
	// other servers): the pause and restart faults of a run need it.
	Process Process

	cfg      *mysql.Config // nil: parse DSN
	database string
}

// NewEndpoint is the endpoint named name that connects with cfg (kept, not
// written as a DSN and parsed again).
func NewEndpoint(name string, cfg *mysql.Config) Endpoint {
	return Endpoint{Name: name, DSN: cfg.FormatDSN(), cfg: cfg.Clone(), database: cfg.DBName}
}

// Config returns a copy of the endpoint's driver configuration, for callers
// that need to adjust driver parameters (interpolateParams, local infile,
// ...).
func (e Endpoint) Config() (*mysql.Config, error) {
	if e.cfg != nil {
		return e.cfg.Clone(), nil
	}
	cfg, err := mysql.ParseDSN(e.DSN)
	if err != nil {
		return nil, fmt.Errorf("endpoint %s: %w", e.Name, err)
	}
	return cfg, nil
}

// OpenDB opens a pool on the endpoint, as sql.Open would with its DSN.
func (e Endpoint) OpenDB() (*sql.DB, error) {
	cfg, err := e.Config()
	if err != nil {
		return nil, err
	}
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, fmt.Errorf("endpoint %s: %w", e.Name, err)
	}
	return sql.OpenDB(conn), nil
}

// Ping checks that db, opened on this endpoint, answers. A failure is a user
// error naming the endpoint, with the DSN's password masked wherever the
// driver's message repeats it.
func (e Endpoint) Ping(ctx context.Context, db *sql.DB) error {
	err := db.PingContext(ctx)
	if err == nil {
		return nil
	}
	password := ""
	if cfg, perr := e.Config(); perr == nil {
		password = cfg.Passwd
	}
	return usage.Errorf("cannot connect to %s: %s", e.Name, redact(err, password))
}

// Target is where a command's statements go: one or several endpoints
// sharing a database name.
type Target struct {
	Endpoints []Endpoint
	Database  string
	// Nodes are the servers behind Endpoints when these are a proxy's
	// (--dsn of a proxy with --sandbox NAME): the named sandbox's nodes,
	// on which a run's actions run and whose status it reads directly.
	Nodes []Endpoint
	// Sandbox is set when the target is a sandbox server started by, or
	// named to, this command; it describes the server.
	Sandbox *SandboxInfo

	closer func() error
	closed bool
}

// SandboxInfo describes a sandbox server behind a target.
type SandboxInfo struct {
	Name    string      // empty for a throwaway server
	Flavor  flavor.Name // mariadb, mysql, percona
	Version string
	DataDir string // the first node's, for a cluster
	Nodes   int    // nodes of a Galera cluster sandbox; 0 for a single server
}

// New builds a target; closer (may be nil) runs once on Close.
func New(endpoints []Endpoint, database string, closer func() error) *Target {
	return &Target{Endpoints: endpoints, Database: database, closer: closer}
}

// Close releases the target: it stops a throwaway sandbox server (unless it
// was asked to be kept). Closing twice is harmless.
func (t *Target) Close() error {
	if t == nil || t.closed {
		return nil
	}
	t.closed = true
	if t.closer != nil {
		return t.closer()
	}
	return nil
}

// Check connects to every endpoint. A database that does not exist yet is
// created when create is set, else it is a user error saying how to create
// it. An endpoint that cannot be reached or refuses the login is a user
// error naming the endpoint (never the password).
func Check(ctx context.Context, eps []Endpoint, create bool, log io.Writer) error {
	for _, ep := range eps {
		if err := check(ctx, ep, create, log); err != nil {
			return err
		}
	}
	return nil
}

func check(ctx context.Context, ep Endpoint, create bool, log io.Writer) error {
	return reach(ctx, ep, func(ctx context.Context, cfg *mysql.Config) error {
		db := cfg.DBName
		if !create {
			return usage.Errorf("database %s does not exist on %s: create it, or add --create-database", db, ep.Name)
		}
		cfg.DBName = ""
		if err := exec(ctx, cfg, "CREATE DATABASE IF NOT EXISTS "+sqllex.QuoteIdent(db)); err != nil {
			return fmt.Errorf("%s: create database %s: %w", ep.Name, db, err)
		}
		if log != nil {
			fmt.Fprintf(log, "created database %s on %s\n", db, ep.Name)
		}
		return nil
	})
}

// reach connects to ep once, within its connect timeout. A database the
// server does not have is missing's to deal with, within that time; any
// other failure is a user error naming the endpoint (never the password).
func reach(ctx context.Context, ep Endpoint, missing func(ctx context.Context, cfg *mysql.Config) error) error {
	cfg, err := ep.Config()
	if err != nil {
		return usage.Wrap(err)
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout+handshakeSlack)
	defer cancel()
	switch err := ping(ctx, cfg); {
	case noDatabase(err, cfg):
		return missing(ctx, cfg)
	case err != nil:
		return usage.Errorf("cannot connect to %s as %s: %v", ep.Name, cfg.User, redact(err, cfg.Passwd))
	}
	return nil
}

// handshakeSlack is how long connecting may take beyond the connect
// timeout, which bounds the dial only: a server that accepts the
// connection but never answers (a stopped process) would otherwise hang
// the handshake.
const handshakeSlack = 5 * time.Second

// noDatabase reports whether err is the server's "unknown database" for
// the database cfg names.
func noDatabase(err error, cfg *mysql.Config) bool {
	var me *mysql.MySQLError
	return errors.As(err, &me) && me.Number == 1049 && cfg.DBName != ""
}

func ping(ctx context.Context, cfg *mysql.Config) error {
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return err
	}
	db := sql.OpenDB(conn)
	defer db.Close()
	return db.PingContext(ctx)
}

func exec(ctx context.Context, cfg *mysql.Config, q string) error {
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return err
	}
	db := sql.OpenDB(conn)
	defer db.Close()
	_, err = db.ExecContext(ctx, q)
	return err
}

// redact makes sure an error message never repeats the password.
func redact(err error, password string) string {
	msg := err.Error()
	if password != "" {
		msg = strings.ReplaceAll(msg, password, "****")
	}
	return msg
}
