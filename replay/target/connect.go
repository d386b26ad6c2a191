package target

import (
	"context"
	"io"

	"github.com/joinbench/joinbench/internal/usage"
)

// SandboxOptions choose and configure a sandbox server.
type SandboxOptions struct {
	Name           string // connect to this running named sandbox
	Dir            string // where named sandboxes live
	ServerBinary   string // mariadbd or mysqld; empty: search PATH
	BufferPoolSize string // innodb_buffer_pool_size of a started server
	Keep           bool   // keep a throwaway server's data directory
}

// Connect resolves the options into a reachable target: the endpoints the
// options name, a running named sandbox, or else a throwaway sandbox
// started now and stopped by Target.Close. The database is created where it
// is missing. Progress goes to log.
func Connect(ctx context.Context, o Options, sb SandboxOptions, log io.Writer) (*Target, error) {
	names, err := o.NamesServer()
	if err != nil {
		return nil, err
	}
	if sb.Name != "" && names {
		return nil, usage.Errorf("--sandbox cannot be combined with --dsn, --host, --port, --socket or --defaults-file")
	}
	if sb.Name != "" || !names {
		return connectSandbox(ctx, o, sb, log)
	}
	r, err := o.Resolve()
	if err != nil {
		return nil, err
	}
	if err := Check(ctx, r.Endpoints, log); err != nil {
		return nil, err
	}
	return New(r.Endpoints, r.Database, nil), nil
}

func connectSandbox(ctx context.Context, o Options, sb SandboxOptions, log io.Writer) (*Target, error) {
	return nil, usage.Errorf("no server given: use --dsn or --host (sandbox servers are not available yet)")
}
