package liveplan

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/ddl/load"
	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/server/flavor"
	"github.com/joinbench/joinbench/internal/usage"
)

// Server is the live server lint reads the schema and the flavour from,
// and explains scenarios on (analyzer.Server). It is reached as
// internal/server resolves connection options for every command, but
// only read: nothing is started or created on it.
type Server struct {
	endpoint server.Endpoint
	database string
	target   *server.Target
	db       *sql.DB
}

var _ analyzer.Server = (*Server)(nil)

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
	if len(schema.Tables()) == 0 {
		return nil, flavor.Flavor{}, usage.Errorf("database %q on %s has no tables: run joinbench prepare first, or lint against the built-in schema", s.database, s.Name())
	}
	return schema, fl, nil
}

// CheckPlans explains the plain reads of files on the server and runs the
// plan rules on them (Check).
func (s *Server) CheckPlans(ctx context.Context, files []analyzer.File, base *analyzer.Options, tableName string) (*analyzer.PlanReport, error) {
	res, err := Check(ctx, s.db, files, base, Options{TableName: tableName})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name(), err)
	}
	res.Server = s.Name()
	return res, nil
}
