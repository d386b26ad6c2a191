package liveplan

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/analyzer/lint"
	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/ddl/load"
	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/usage"
)

// Server is the live server lint reads the schema and the flavour from,
// and explains scenarios on (lint.Server). It is reached as
// internal/server resolves connection options for every command, but
// only read: nothing is started or created on it.
type Server struct {
	endpoint server.Endpoint
	database string
	target   *server.Target
	db       *sql.DB
	// hidden says why the user may not see every table of the database
	// ("" when it sees them all), once Schema has read it.
	hidden string
}

var _ lint.Server = (*Server)(nil)

// Open reaches the server the options name (a DSN, host and port, an
// option file, or a running named sandbox), within their connect timeout.
// With several endpoints (a cluster's nodes) it reads from the first:
// they share one schema. Close it when done.
func Open(ctx context.Context, o server.Options, sb server.SandboxOptions) (*Server, error) {
	t, err := server.ConnectExisting(ctx, o, sb)
	if err != nil {
		return nil, err
	}
	s := &Server{endpoint: t.Endpoints[0], database: t.Database, target: t}
	if s.db, err = s.endpoint.OpenDB(); err != nil {
		t.Close()
		return nil, usage.Errorf("%s: %v", s.endpoint.Name, err)
	}
	return s, nil
}

// Name is the endpoint read from: host:port or a socket, never a password.
func (s *Server) Name() string { return s.endpoint.Name }

// Close closes the connections.
func (s *Server) Close() error {
	err := s.db.Close()
	if cerr := s.target.Close(); err == nil {
		err = cerr
	}
	return err
}

// Schema reads the tables of the server's database and its flavour. A
// database without tables is a user error: lint resolves names against
// them.
func (s *Server) Schema(ctx context.Context, tableName string) (*ddl.Schema, flavor.Flavor, error) {
	fl, err := server.DetectFlavor(ctx, s.db)
	if err != nil {
		return nil, flavor.Flavor{}, fmt.Errorf("%s: %w", s.Name(), err)
	}
	schema, err := load.SchemaFromServer(ctx, s.db, s.database)
	if err != nil {
		return nil, flavor.Flavor{}, fmt.Errorf("%s: read schema of %s: %w", s.Name(), s.database, err)
	}
	schema.GroupFamily(tableName)
	if s.hidden, err = s.visibility(ctx); err != nil {
		return nil, flavor.Flavor{}, fmt.Errorf("%s: %w", s.Name(), err)
	}
	if len(schema.Tables()) == 0 {
		if s.hidden != "" {
			return nil, flavor.Flavor{}, usage.Errorf("database %q on %s: no table is visible to this user (%s)", s.database, s.Name(), s.hidden)
		}
		return nil, flavor.Flavor{}, usage.Errorf("database %q on %s has no tables: run joinbench prepare first, or lint against the built-in schema", s.database, s.Name())
	}
	return schema, fl, nil
}

// NotVisible says why the user may not see every table of the database
// (it reads only the tables it was granted a privilege on), "" when it
// sees them all: tables lint does not find may then exist (analyzer's
// Lint says so once, instead of an unknown table per use).
func (s *Server) NotVisible() string { return s.hidden }

// visibility asks whether the user has SELECT on every table of the
// database (globally, or on the database); if not, information_schema
// shows it only the tables it was granted something on.
func (s *Server) visibility(ctx context.Context) (string, error) {
	var user string
	var global, schema int
	err := s.db.QueryRowContext(ctx, `SELECT CURRENT_USER(),
		(SELECT COUNT(*) FROM information_schema.USER_PRIVILEGES WHERE PRIVILEGE_TYPE = 'SELECT'),
		(SELECT COUNT(*) FROM information_schema.SCHEMA_PRIVILEGES WHERE PRIVILEGE_TYPE = 'SELECT' AND ? LIKE TABLE_SCHEMA)`,
		s.database).Scan(&user, &global, &schema)
	if err != nil {
		return "", fmt.Errorf("read the privileges of the user: %w", err)
	}
	if global > 0 || schema > 0 {
		return "", nil
	}
	return fmt.Sprintf("%s has no SELECT on %s.*: it sees only the tables it was granted something on", user, s.database), nil
}

// CheckPlans explains the plain reads of files on the server and runs the
// plan rules on them (Check).
func (s *Server) CheckPlans(ctx context.Context, files []analyzer.File, base *analyzer.Options, tableName string) (*lint.PlanReport, error) {
	res, err := Check(ctx, s.db, files, base, Options{TableName: tableName})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name(), err)
	}
	res.Server = s.Name()
	return res, nil
}
