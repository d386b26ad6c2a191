package server

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/internal/usage"
)

// SandboxOptions choose and configure a sandbox server.
type SandboxOptions struct {
	Name           string // connect to this running named sandbox
	Dir            string // where named sandboxes live
	ServerBinary   string // mariadbd or mysqld; empty: search PATH
	BufferPoolSize string // innodb_buffer_pool_size of a started server (empty: 1G); of a named one's, set online for the command
	Keep           bool   // keep a throwaway server's data directory
}

// Connect resolves the options into a reachable target: the endpoints the
// options name, a running named sandbox, or else a throwaway sandbox
// started now and stopped by Target.Close. A server named together with a
// named sandbox is a proxy in front of the sandbox's nodes: statements go
// to the server, and the nodes are the target's Nodes. A missing database
// is created on a sandbox, and on a named server only with
// o.CreateDatabase. What a killed joinbench left on the servers is undone
// first (sandbox.Named.Repair, RepairServer). Progress goes to log.
func Connect(ctx context.Context, o Options, sb SandboxOptions, log io.Writer) (*Target, error) {
	names, err := o.NamesServer()
	if err != nil {
		return nil, err
	}
	if names && sb.BufferPoolSize != "" {
		return nil, usage.Errorf("--buffer-pool-size sizes a sandbox's buffer pool: on a server named by --dsn, --host, --port, --socket or --defaults-file (a proxy too), set innodb_buffer_pool_size yourself")
	}
	if !names {
		return connectSandbox(ctx, o, sb, log)
	}
	r, err := o.Resolve()
	if err != nil {
		return nil, err
	}
	var nodes []Endpoint
	var info *SandboxInfo
	if sb.Name != "" {
		// The nodes first: their database, created as on any sandbox, is
		// the one the proxy reaches.
		if nodes, info, err = namedSandbox(ctx, o, sb, r.Database); err != nil {
			return nil, err
		}
		if err := Check(ctx, nodes, true, log); err != nil {
			return nil, err
		}
	}
	if err := Check(ctx, r.Endpoints, o.CreateDatabase, log); err != nil {
		return nil, err
	}
	// What a killed joinbench left on the server, as its ledger table
	// notes it, is undone first (RepairServer), each in a line on stderr
	// also under --quiet, as on a sandbox.
	for _, ep := range r.Endpoints {
		if _, err := RepairServer(ctx, ep, os.Stderr, nil); err != nil {
			return nil, err
		}
	}
	t := New(r.Endpoints, r.Database, nil)
	t.Nodes, t.Sandbox = nodes, info
	return t, nil
}

func connectSandbox(ctx context.Context, o Options, sb SandboxOptions, log io.Writer) (*Target, error) {
	if log == nil {
		log = io.Discard
	}
	db := o.Database
	if db == "" {
		db = DefaultDatabase
	}
	if sb.Name != "" {
		eps, info, err := namedSandbox(ctx, o, sb, db)
		if err != nil {
			return nil, err
		}
		if err := Check(ctx, eps, true, log); err != nil {
			return nil, err
		}
		restore, err := resizeBufferPool(ctx, sb, log)
		if err != nil {
			return nil, err
		}
		t := New(eps, db, restore)
		t.Sandbox = info
		return t, nil
	}
	bin, err := sandbox.FindBinary(ctx, sb.ServerBinary)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "no server given (--dsn, --host, --socket or --sandbox): starting a throwaway %s\n", bin)
	s, err := sandbox.Start(ctx, sandbox.Config{
		Binary:         bin,
		BufferPoolSize: sb.BufferPoolSize,
		Database:       db,
		Log:            log,
	})
	if err != nil {
		return nil, err
	}
	t := New([]Endpoint{sandboxEndpoint(s, db, o.ConnectTimeout)}, db, func() error {
		if err := s.Stop(context.Background()); err != nil {
			return err
		}
		if sb.Keep {
			fmt.Fprintf(log, "kept the sandbox data directory %s\n", s.DataDir)
			return nil
		}
		return s.Remove()
	})
	t.Sandbox = sandboxInfo(s)
	return t, nil
}

// namedSandbox returns the endpoints of the running named sandbox: its
// server, or every node of a Galera cluster in node order. What a killed
// joinbench left on it is undone first (sandbox.Named.Repair), each in
// a line on stderr. A stopped node is an error: a run on part of a cluster
// would not measure what the user asked for.
func namedSandbox(ctx context.Context, o Options, sb SandboxOptions, db string) ([]Endpoint, *SandboxInfo, error) {
	named, err := sandbox.Open(sb.Dir, sb.Name)
	if err != nil {
		return nil, nil, err
	}
	// What was undone is said on stderr also under --quiet: a command
	// that changed the sandbox must not do it silently.
	if _, err := named.Repair(ctx, os.Stderr); err != nil {
		return nil, nil, err
	}
	if err := named.CheckRunning(); err != nil {
		return nil, nil, err
	}
	var eps []Endpoint
	mu := &sync.Mutex{}
	for _, s := range named.Servers {
		ep := sandboxEndpoint(s, db, o.ConnectTimeout)
		ep.Node, ep.Process = s.Name, &sandboxProcess{mu: mu, sb: named, s: s}
		eps = append(eps, ep)
	}
	info := sandboxInfo(named.Servers[0])
	info.Name = named.Name
	if named.Cluster != nil {
		info.Nodes = len(named.Servers)
	}
	return eps, info, nil
}

// resizeBufferPool sets the buffer pool of the named sandbox's servers for
// the command, when --buffer-pool-size was given; restore sets it back.
func resizeBufferPool(ctx context.Context, sb SandboxOptions, log io.Writer) (restore func() error, err error) {
	if sb.BufferPoolSize == "" {
		return nil, nil
	}
	named, err := sandbox.Open(sb.Dir, sb.Name)
	if err != nil {
		return nil, err
	}
	return named.SetBufferPool(ctx, sb.BufferPoolSize, log)
}

func sandboxEndpoint(s *sandbox.Server, db string, timeout time.Duration) Endpoint {
	cfg := s.Config(db)
	cfg.Timeout = cmp.Or(timeout, DefaultConnectTimeout)
	return endpoint(cfg)
}

func sandboxInfo(s *sandbox.Server) *SandboxInfo {
	return &SandboxInfo{Name: s.Name, Flavor: s.Binary.Flavor, Version: s.Binary.Version, DataDir: s.DataDir}
}
