package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/joinbench/joinbench/internal/dirlist"
	"github.com/joinbench/joinbench/internal/ledger"
	"github.com/joinbench/joinbench/internal/usage"
)

// DefaultRoot is where named sandboxes live unless told otherwise:
// $XDG_STATE_HOME/joinbench/sandboxes, else
// ~/.local/state/joinbench/sandboxes.
func DefaultRoot() string {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "joinbench", "sandboxes")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "joinbench-sandboxes")
	}
	return filepath.Join(home, ".local", "state", "joinbench", "sandboxes")
}

// nameRE is a sandbox name's letters; CheckName bounds its length apart:
// as {0,63} in the pattern, the bound made a program that took every
// joinbench command 2 ms to compile when it started.
var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// CheckName validates a sandbox name: letters, digits, '.', '_' and '-'.
func CheckName(name string) error {
	if len(name) > 64 || !nameRE.MatchString(name) {
		return usage.Errorf("sandbox name %q: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit", name)
	}
	return nil
}

func root(dir string) string {
	if dir == "" {
		return DefaultRoot()
	}
	return dir
}

// Lookup loads the named sandbox's state from root (DefaultRoot when
// empty). A sandbox that does not exist is a user error; a stopped one is
// returned with Running() false.
func Lookup(rootDir, name string) (*Server, error) {
	s := &Server{log: io.Discard}
	dir, found, err := loadState(rootDir, name, stateFile, s)
	switch {
	case err != nil:
		return nil, err
	case !found && IsCluster(rootDir, name):
		return nil, usage.Errorf("sandbox %s is a Galera cluster, not a single server", name)
	case !found:
		return nil, usage.Errorf("no sandbox named %q in %s: start it with 'joinbench sandbox start --name %s'", name, root(rootDir), name)
	}
	s.Name, s.Dir = name, dir
	return s, nil
}

// loadState reads the state file of the sandbox called name (a single
// server's or a cluster's) into v. found is false when there is none.
func loadState(rootDir, name, file string, v any) (dir string, found bool, err error) {
	if err := CheckName(name); err != nil {
		return "", false, err
	}
	dir = filepath.Join(root(rootDir), name)
	b, err := os.ReadFile(filepath.Join(dir, file))
	if errors.Is(err, os.ErrNotExist) {
		return dir, false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("sandbox %s: %w", name, err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return "", false, fmt.Errorf("sandbox %s: %s: %w", name, filepath.Join(dir, file), err)
	}
	return dir, true, nil
}

// SetLog sets where progress lines go.
func (s *Server) SetLog(w io.Writer) {
	if w == nil {
		w = io.Discard
	}
	s.log = w
}

// StartNamed starts the sandbox called name under root, or returns it when
// it already runs (running is then true). A stopped sandbox whose data was
// kept starts again on its data and, unless cfg.Port says otherwise, its
// old port when free. The server outlives this process.
func StartNamed(ctx context.Context, rootDir, name string, cfg Config) (s *Server, running bool, err error) {
	if err := CheckName(name); err != nil {
		return nil, false, err
	}
	if IsCluster(rootDir, name) {
		return nil, false, usage.Errorf("sandbox %s is a Galera cluster: start it with --galera, or stop it first ('joinbench sandbox stop --name %s')", name, name)
	}
	old, err := Lookup(rootDir, name)
	if err == nil {
		if old.Running() {
			return old, true, nil
		}
		// A server on its data that its state does not name (a killed
		// restart's) is stopped, not joined by a second one.
		old.SetLog(cfg.Log)
		if err := old.StopOrphans(ctx); err != nil {
			return nil, false, err
		}
		if cfg.Port == 0 && portFree(old.Port) {
			cfg.Port = old.Port
		}
	} else if !usage.Is(err) {
		return nil, false, err
	}
	cfg.Dir = filepath.Join(root(rootDir), name)
	cfg.Detach = true
	// A sandbox that never started is not one: without its state file list
	// would not show it nor stop remove it, so its directory (a data
	// directory can be a gigabyte of redo log) goes with the failure. A
	// kept sandbox that fails to start again keeps its data.
	_, statErr := os.Stat(filepath.Join(cfg.Dir, stateFile))
	known := statErr == nil
	s, err = Start(ctx, cfg)
	if err != nil {
		if !known {
			if rmErr := os.RemoveAll(cfg.Dir); rmErr != nil {
				err = fmt.Errorf("%w (and its directory %s could not be removed: %v)", err, cfg.Dir, rmErr)
			}
		}
		return nil, false, err
	}
	s.Name = name
	if err := s.saveState(); err != nil {
		_ = s.Stop(context.Background())
		return nil, false, fmt.Errorf("sandbox %s: save state: %w", name, err)
	}
	return s, false, nil
}

// Named is a named sandbox of either kind, for what commands do alike to
// both (start, stop, status, list, connect): a single server is the
// one-server case of a cluster.
type Named struct {
	Name   string
	Dir    string
	Binary Binary
	// Servers are its servers: the single server, or the nodes in order.
	Servers []*Server
	// Cluster is the Galera cluster; nil for a single server.
	Cluster *Cluster
}

func namedServer(s *Server) *Named {
	return &Named{Name: s.Name, Dir: s.Dir, Binary: s.Binary, Servers: []*Server{s}}
}

func namedCluster(c *Cluster) *Named {
	n := &Named{Name: c.Name, Dir: c.Dir, Binary: c.Binary, Cluster: c}
	for _, node := range c.Nodes {
		n.Servers = append(n.Servers, &node.Server)
	}
	return n
}

// Open loads the sandbox called name under root, whichever its kind. One
// that does not exist is a user error.
func Open(rootDir, name string) (*Named, error) {
	if IsCluster(rootDir, name) {
		c, err := LookupCluster(rootDir, name)
		if err != nil {
			return nil, err
		}
		return namedCluster(c), nil
	}
	s, err := Lookup(rootDir, name)
	if err != nil {
		return nil, err
	}
	return namedServer(s), nil
}

// List returns the sandboxes under root: the single servers, then the
// clusters, each by name.
func List(rootDir string) ([]*Named, error) {
	names, err := dirlist.Names(root(rootDir))
	if err != nil {
		return nil, fmt.Errorf("list sandboxes: %w", err)
	}
	var servers, clusters []*Named
	for _, name := range names {
		if CheckName(name) != nil {
			continue
		}
		if _, err := os.Stat(filepath.Join(root(rootDir), name, stateFile)); err != nil && !IsCluster(rootDir, name) {
			continue // not a sandbox, or one that never started
		}
		n, err := Open(rootDir, name)
		if err != nil {
			return nil, err
		}
		if n.Cluster != nil {
			clusters = append(clusters, n)
		} else {
			servers = append(servers, n)
		}
	}
	return append(servers, clusters...), nil
}

// StartAny starts the sandbox called name under root, or returns it when
// it already runs (running is then true): a Galera cluster of cfg.Nodes
// when cfg.Nodes is set or name is a cluster already (StartCluster), else
// a single server (StartNamed, with cfg.Config). The sandbox outlives this
// process.
func StartAny(ctx context.Context, rootDir, name string, cfg ClusterConfig) (n *Named, running bool, err error) {
	if err := CheckName(name); err != nil {
		return nil, false, err
	}
	cfg.Detach = true
	if cfg.Nodes == 0 && !IsCluster(rootDir, name) {
		if cfg.Provider != "" {
			return nil, false, usage.Errorf("--galera-provider is for a cluster: add --galera N")
		}
		if len(cfg.NodeOptions) > 0 {
			return nil, false, usage.Errorf("--node-option is for a node of a cluster (--galera N); give a single server its options with --server-arg")
		}
		s, running, err := StartNamed(ctx, rootDir, name, cfg.Config)
		if err != nil {
			return nil, false, err
		}
		return namedServer(s), running, nil
	}
	switch {
	case cfg.Port != 0:
		return nil, false, usage.Errorf("--port cannot be combined with a cluster: each node gets free ports")
	case cfg.Nodes < 0:
		return nil, false, usage.Errorf("--galera %d: give the number of nodes", cfg.Nodes)
	}
	c, running, err := StartCluster(ctx, rootDir, name, cfg)
	if err != nil {
		return nil, false, err
	}
	return namedCluster(c), running, nil
}

// Kind is the word messages call it by: "sandbox" for a single server,
// "cluster" for a Galera cluster.
func (n *Named) Kind() string {
	if n.Cluster != nil {
		return "cluster"
	}
	return "sandbox"
}

// Summary says what it runs: "BINARY on ADDRESS" for a single server, "N
// nodes of BINARY" for a cluster.
func (n *Named) Summary() string {
	if n.Cluster != nil {
		return fmt.Sprintf("%d nodes of %s", len(n.Servers), n.Binary)
	}
	return fmt.Sprintf("%s on %s", n.Binary, n.Servers[0].Addr())
}

// RunningServers counts its servers that run.
func (n *Named) RunningServers() int {
	k := 0
	for _, s := range n.Servers {
		if s.Running() {
			k++
		}
	}
	return k
}

// CheckRunning is a user error naming the first of its servers that does
// not run, with the command that starts it; nil when all run.
func (n *Named) CheckRunning() error {
	for _, s := range n.Servers {
		switch {
		case s.Running():
		case n.Cluster != nil:
			return usage.Errorf("sandbox %s: %s is not running: start the cluster with 'joinbench sandbox start --name %s'", n.Name, s.Name, n.Name)
		default:
			return usage.Errorf("sandbox %s is not running: start it with 'joinbench sandbox start --name %s'", n.Name, n.Name)
		}
	}
	return nil
}

// SetLog sets where progress lines go.
func (n *Named) SetLog(w io.Writer) {
	if n.Cluster != nil {
		n.Cluster.SetLog(w)
		return
	}
	n.Servers[0].SetLog(w)
}

// Stop shuts its servers down cleanly (a cluster's in the order Galera
// needs).
func (n *Named) Stop(ctx context.Context) error {
	if n.Cluster != nil {
		return n.Cluster.Stop(ctx)
	}
	return n.Servers[0].Stop(ctx)
}

// Remove deletes its directory. Stop first.
func (n *Named) Remove() error {
	if n.Cluster != nil {
		return n.Cluster.Remove()
	}
	return n.Servers[0].Remove()
}

// Restart restarts s, one of its servers, as a fault of a run: a single
// server with Server.Restart, a node with Cluster.RestartNode.
func (n *Named) Restart(ctx context.Context, s *Server, down time.Duration) (err error) {
	done, err := n.Ledger().Add(ledger.Entry{Kind: ChangeNodeDown, Node: s.Name, What: s.Name + " restarted (stopped, to be started again)"})
	if err != nil {
		return err
	}
	defer func() {
		if err == nil {
			err = done()
		}
	}()
	if n.Cluster == nil {
		return s.Restart(ctx, down)
	}
	for _, node := range n.Cluster.Nodes {
		if &node.Server == s {
			return n.Cluster.RestartNode(ctx, node, down)
		}
	}
	return fmt.Errorf("sandbox %s: %s is not one of its nodes", n.Name, s.Name)
}

// Crash kills s, one of its servers, with SIGKILL (with all, every server
// at once), waits down and recovers as an operator does: a single server
// with Server.Crash, a node with Cluster.CrashNode, the whole cluster with
// Cluster.CrashCluster. It returns how each server came back, in node
// order, with the steps of the recovery in their Notes.
func (n *Named) Crash(ctx context.Context, s *Server, down time.Duration, all bool) ([]Recovery, error) {
	who, node := s.Name+" crashed", s.Name
	if all {
		who, node = "every server crashed", ""
	}
	done, err := n.Ledger().Add(ledger.Entry{Kind: ChangeNodeDown, Node: node, What: who + " (killed, to be recovered)"})
	if err != nil {
		return nil, err
	}
	notes := &lockedBuffer{}
	recs, err := n.crash(ctx, s, down, all, notes)
	if err == nil {
		err = done()
	}
	for i := range recs {
		recs[i].Notes = notes.String()
	}
	return recs, err
}

func (n *Named) crash(ctx context.Context, s *Server, down time.Duration, all bool, notes io.Writer) ([]Recovery, error) {
	if n.Cluster == nil {
		old := s.log
		s.SetLog(io.MultiWriter(old, notes))
		defer s.SetLog(old)
		rec, err := s.Crash(ctx, down)
		return []Recovery{rec}, err
	}
	old := n.Cluster.log
	n.Cluster.SetLog(io.MultiWriter(old, notes))
	defer n.Cluster.SetLog(old)
	if all {
		return n.Cluster.CrashCluster(ctx, down)
	}
	for _, node := range n.Cluster.Nodes {
		if &node.Server == s {
			rec, err := n.Cluster.CrashNode(ctx, node, down)
			return []Recovery{rec}, err
		}
	}
	return nil, fmt.Errorf("sandbox %s: %s is not one of its nodes", n.Name, s.Name)
}
