package server

import (
	"context"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/usage"
)

// ConnectExisting resolves the options into a server as it is, for a
// command that only reads from it (lint): the endpoints the options name,
// or the nodes of a running named sandbox, each reached within the
// connect timeout. Unlike Connect it never starts a sandbox and never
// creates a database: a missing one is a user error. Options name the
// server as for Connect (flags, environment and option file alike).
func ConnectExisting(ctx context.Context, o Options, sb SandboxOptions) (*Target, error) {
	names, err := o.NamesServer()
	if err != nil {
		return nil, err
	}
	switch {
	case sb.Name != "" && names:
		return nil, usage.Errorf("--sandbox cannot be combined with --dsn, --host, --port, --socket or --defaults-file")
	case sb.Name == "" && !names:
		return nil, usage.Errorf("no server named: give --dsn, --host, --port, --socket or --sandbox")
	}
	var (
		eps  []Endpoint
		info *SandboxInfo
		db   = o.Database
	)
	if sb.Name != "" {
		if db == "" {
			db = DefaultDatabase
		}
		if eps, info, err = namedSandbox(ctx, o, sb, db); err != nil {
			return nil, err
		}
	} else {
		r, err := o.Resolve()
		if err != nil {
			return nil, err
		}
		eps, db = r.Endpoints, r.Database
	}
	for _, ep := range eps {
		err := reach(ctx, ep, func(_ context.Context, cfg *mysql.Config) error {
			return usage.Errorf("database %s does not exist on %s", cfg.DBName, ep.Name)
		})
		if err != nil {
			return nil, err
		}
	}
	t := New(eps, db, nil)
	t.Sandbox = info
	return t, nil
}
