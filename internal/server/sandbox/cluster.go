package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/joinbench/joinbench/internal/usage"
)

// ClusterConfig says how to start a Galera cluster sandbox.
type ClusterConfig struct {
	// Binary, BufferPoolSize (each node's), Database, ServerArgs (given to
	// every node), StartTimeout (each node's start, state transfer
	// included), Detach and Log as for a single server; Dir and Port are
	// not used: nodes live under the sandbox directory, on free ports.
	Config
	// Nodes is the cluster size. 0 when starting a kept cluster again: the
	// size it had.
	Nodes int
	// Provider is the Galera library (libgalera_smm.so). Empty: searched
	// where distributions install it.
	Provider string
	// NodeOptions are options for one node each, NODE:OPTION (node3 or 3,
	// an option with or without its leading --): "node3:innodb_flush_log_at_trx_commit=1".
	// A node given none keeps those it had.
	NodeOptions []string
	// JoinByTransfer has the nodes of a new cluster join as they did
	// before seeding (seed.go): each receives node1's data by a full state
	// transfer. For benchmarks of the two starts (bench/galera_start.sh).
	JoinByTransfer bool
}

// MaxNodes bounds a cluster sandbox: each node is a full server on one
// machine.
const MaxNodes = 9

// Cluster is a Galera cluster sandbox: N MariaDB nodes on 127.0.0.1, each
// with its own directory, ports and option file. Its exported fields are
// saved as its state.
type Cluster struct {
	Name      string    `json:"name"`
	Dir       string    `json:"dir"`
	Binary    Binary    `json:"binary"`
	Provider  string    `json:"provider"`
	SST       string    `json:"sst_method"`
	Nodes     []*Node   `json:"nodes"`
	StartedAt time.Time `json:"started_at"`

	log io.Writer
}

// Node is one server of a cluster. Its Name is node1, node2, ...
type Node struct {
	Server
	// GroupPort is Galera's group communication port (4567 by default),
	// ISTPort the incremental state transfer's (4568), SSTPort the state
	// snapshot transfer's (4444).
	GroupPort  int    `json:"group_port"`
	ISTPort    int    `json:"ist_port"`
	SSTPort    int    `json:"sst_port"`
	OptionFile string `json:"option_file"`
	// Options are the node's own server options (sandbox start
	// --node-option), written last in its option file, kept across starts.
	Options []string `json:"options,omitempty"`

	// startPosition is the uuid:seqno recovered from a node that crashed,
	// given to its next start.
	startPosition string
}

const clusterStateFile = "cluster.json"

// IsCluster reports whether the sandbox called name under root is a Galera
// cluster.
func IsCluster(rootDir, name string) bool {
	if CheckName(name) != nil {
		return false
	}
	_, err := os.Stat(filepath.Join(root(rootDir), name, clusterStateFile))
	return err == nil
}

// LookupCluster loads the named cluster's state. One that does not exist is
// a user error.
func LookupCluster(rootDir, name string) (*Cluster, error) {
	c := &Cluster{log: io.Discard}
	dir, found, err := loadState(rootDir, name, clusterStateFile, c)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, usage.Errorf("no cluster sandbox named %q in %s: start it with 'joinbench sandbox start --name %s --galera 3'", name, root(rootDir), name)
	}
	c.Name, c.Dir = name, dir
	c.SetLog(io.Discard)
	return c, nil
}

// SetLog sets where progress lines go.
func (c *Cluster) SetLog(w io.Writer) {
	if w == nil {
		w = io.Discard
	}
	c.log = w
	for _, n := range c.Nodes {
		n.log = w
	}
}

// Running reports whether every node's server runs.
func (c *Cluster) Running() bool {
	for _, n := range c.Nodes {
		if !n.Running() {
			return false
		}
	}
	return len(c.Nodes) > 0
}

// StartCluster starts the cluster called name under root, or returns it
// when every node already runs (running is then true). A new cluster
// bootstraps node1 on a fresh data directory, and the other nodes start
// from a copy of its data, joining with no state transfer (seed.go); with
// cfg.JoinByTransfer they join one at a time, each receiving the data by a
// full state transfer. Each node starts within cfg.StartTimeout. A kept
// cluster (stopped with its data) bootstraps again from the node that left
// last, or from the one with the most recent write-set (see
// bootstrapNode); the others rejoin, by incremental transfer when the
// bootstrap node still holds what they missed. Nodes of a
// partially running cluster rejoin it. On failure no node started here is
// left running, and a cluster that never started leaves no directory.
func StartCluster(ctx context.Context, rootDir, name string, cfg ClusterConfig) (c *Cluster, running bool, err error) {
	if err := CheckName(name); err != nil {
		return nil, false, err
	}
	if cfg.Binary == nil {
		return nil, false, errors.New("sandbox: no server binary")
	}
	dir := filepath.Join(root(rootDir), name)
	if _, err := os.Stat(filepath.Join(dir, stateFile)); err == nil {
		return nil, false, usage.Errorf("sandbox %s is a single server, not a cluster: stop it first ('joinbench sandbox stop --name %s') or choose another name", name, name)
	}
	c, err = LookupCluster(rootDir, name)
	known := err == nil
	switch {
	case err != nil && !usage.Is(err):
		return nil, false, err
	case known && cfg.Nodes != 0 && cfg.Nodes != len(c.Nodes):
		return nil, false, usage.Errorf("sandbox %s is a cluster of %d nodes, not %d: stop it without --keep to start it again with another size", name, len(c.Nodes), cfg.Nodes)
	case known && c.Running():
		if err := c.setNodeOptions(cfg.NodeOptions); err != nil {
			return nil, false, err
		}
		c.SetLog(cfg.Log)
		return c, true, nil
	case !known && (cfg.Nodes < 1 || cfg.Nodes > MaxNodes):
		return nil, false, usage.Errorf("--galera %d: a cluster sandbox has 1 to %d nodes", cfg.Nodes, MaxNodes)
	}
	size := cfg.Nodes
	if known {
		size = len(c.Nodes)
	}
	if _, err := parseNodeOptions(cfg.NodeOptions, size); err != nil {
		return nil, false, err
	}
	provider, err := galeraNeeds(cfg.Binary, cfg.Provider)
	if err != nil {
		return nil, false, err
	}
	if !known {
		c = &Cluster{Name: name, Dir: dir}
		for i := 1; i <= cfg.Nodes; i++ {
			c.Nodes = append(c.Nodes, newNode(dir, i))
		}
	}
	if err := c.setNodeOptions(cfg.NodeOptions); err != nil {
		return nil, false, err
	}
	c.Binary, c.Provider, c.SST = *cfg.Binary, provider, SSTMethod
	for _, n := range c.Nodes {
		n.Binary = c.Binary
	}
	c.SetLog(cfg.Log)
	if cfg.BufferPoolSize == "" {
		cfg.BufferPoolSize = DefaultBufferPoolSize
	}
	if cfg.StartTimeout == 0 {
		cfg.StartTimeout = 2 * time.Minute
	}
	var wasRunning []*Node
	for _, n := range c.Nodes {
		if n.Running() {
			wasRunning = append(wasRunning, n)
		}
	}
	if err := c.start(ctx, cfg, wasRunning); err != nil {
		c.stopStarted(wasRunning)
		if !known {
			if rmErr := os.RemoveAll(dir); rmErr != nil {
				err = fmt.Errorf("%w (and its directory %s could not be removed: %v)", err, dir, rmErr)
			}
		} else {
			_ = c.saveState()
		}
		return nil, false, err
	}
	return c, false, nil
}

func newNode(dir string, i int) *Node {
	name := fmt.Sprintf("node%d", i)
	d := filepath.Join(dir, name)
	return &Node{
		Server: Server{
			Name:     name,
			Dir:      d,
			DataDir:  filepath.Join(d, "data"),
			TmpDir:   filepath.Join(d, "tmp"),
			ErrorLog: filepath.Join(d, "error.log"),
			PidFile:  filepath.Join(d, "mysqld.pid"),
			Socket:   socketPath(d),
		},
		OptionFile: filepath.Join(d, "my.cnf"),
	}
}

// stopStarted stops, last first, the nodes this start brought up (not
// those that ran before it).
func (c *Cluster) stopStarted(before []*Node) {
	for i := len(c.Nodes) - 1; i >= 0; i-- {
		n := c.Nodes[i]
		kept := false
		for _, b := range before {
			kept = kept || b == n
		}
		if !kept {
			_ = n.Stop(context.Background())
		}
	}
}

func (c *Cluster) start(ctx context.Context, cfg ClusterConfig, running []*Node) error {
	for _, n := range c.Nodes {
		if !n.Running() {
			if err := n.StopOrphans(ctx); err != nil {
				return err
			}
		}
	}
	for _, n := range c.Nodes {
		for _, d := range []string{n.DataDir, n.TmpDir} {
			if err := os.MkdirAll(d, 0o750); err != nil {
				return usage.Errorf("sandbox directory: %v", err)
			}
		}
	}
	if err := c.assignPorts(); err != nil {
		return err
	}
	if err := c.recoverPositions(ctx); err != nil {
		return fmt.Errorf("sandbox %s: %w", c.Name, err)
	}
	if len(running) == 0 {
		boot, hasData, err := c.bootstrapNode(ctx)
		if err != nil {
			return fmt.Errorf("sandbox %s: %w", c.Name, err)
		}
		if !hasData && c.canSeed(cfg) {
			return c.startSeeded(ctx, cfg)
		}
		if !hasData {
			if len(c.Nodes) > 1 {
				fmt.Fprintf(c.log, "cluster %s is new: %s bootstraps it, then %s join one at a time by a full state transfer (%s)\n",
					c.Name, boot.Name, nodeNames(c.Nodes[1:]), c.SST)
			}
			if err := boot.initialise(ctx); err != nil {
				return err
			}
		}
		if err := c.startNode(ctx, boot, cfg, true); err != nil {
			return fmt.Errorf("sandbox %s: bootstrapping %s: %w", c.Name, boot.Name, err)
		}
		if err := boot.setup(ctx, cfg.Database); err != nil {
			return fmt.Errorf("sandbox %s: %s: %w", c.Name, boot.Name, err)
		}
		c.StartedAt = time.Now().UTC()
		if err := c.saveState(); err != nil {
			return fmt.Errorf("sandbox %s: save state: %w", c.Name, err)
		}
	}
	return c.join(ctx, cfg)
}

// join starts, one at a time, every node not running, each joining the
// running ones.
func (c *Cluster) join(ctx context.Context, cfg ClusterConfig) error {
	for _, n := range c.Nodes {
		if n.Running() {
			continue
		}
		if err := c.startNode(ctx, n, cfg, false); err != nil {
			return fmt.Errorf("sandbox %s: %s did not join the cluster: %w", c.Name, n.Name, err)
		}
		if err := c.saveState(); err != nil {
			return fmt.Errorf("sandbox %s: save state: %w", c.Name, err)
		}
	}
	return nil
}

// startNode starts n, bootstrapping a new primary component or joining the
// running nodes, and waits until it is Synced. extra are server options
// for this start only, after the option file's. A port taken meanwhile by
// another process gets the node new ports (three tries). When a joiner
// fails, the errors its donors logged meanwhile (a failed state transfer
// is reported on both sides) follow its own.
func (c *Cluster) startNode(ctx context.Context, n *Node, cfg ClusterConfig, bootstrap bool, extra ...string) error {
	ctx, cancel := context.WithTimeout(ctx, cfg.StartTimeout)
	defer cancel()
	donorLogs := map[*Node]int64{}
	for _, m := range c.Nodes {
		if m != n && m.Running() {
			donorLogs[m] = fileSize(m.ErrorLog)
		}
	}
	started := time.Now()
	if bootstrap {
		fmt.Fprintf(c.log, "%s: bootstrapping cluster %s\n", n.Name, c.Name)
	} else {
		fmt.Fprintf(c.log, "%s: joining cluster %s (state transfer by %s when needed)\n", n.Name, c.Name, c.SST)
	}
	for attempt := 0; ; attempt++ {
		if err := c.writeOptionFiles(cfg); err != nil {
			return err
		}
		n.Args = []string{"--defaults-file=" + n.OptionFile, "--datadir=" + n.DataDir}
		if bootstrap {
			n.Args = append(n.Args, "--wsrep-new-cluster")
		}
		if n.startPosition != "" {
			n.Args = append(n.Args, "--wsrep-start-position="+n.startPosition)
		}
		n.Args = append(n.Args, extra...)
		logStart := fileSize(n.ErrorLog)
		n.abortWithin = abortWithin
		err := n.launch(ctx, cfg.Detach)
		if err == nil {
			err = n.waitSynced(ctx)
		}
		if err == nil {
			fmt.Fprintf(c.log, "%s: synced in %.1fs\n", n.Name, time.Since(started).Seconds())
			return nil
		}
		n.abort()
		if ctx.Err() == context.DeadlineExceeded {
			err = usage.Errorf("not Synced within the start timeout (%s)%s: give a longer --start-timeout (log: %s)",
				cfg.StartTimeout, joinPhase(readTailFrom(n.ErrorLog, logStart)), n.ErrorLog)
		}
		if errors.Is(err, errPortTaken) && attempt < 3 {
			if perr := c.newPorts(n); perr != nil {
				return perr
			}
			continue
		}
		if errors.Is(err, errPortTaken) {
			err = usage.Errorf("its ports stayed taken by other processes")
		}
		var donors []string
		for m, off := range donorLogs {
			if lines := errorLinesOnly(readTailFrom(m.ErrorLog, off)); lines != "" {
				donors = append(donors, fmt.Sprintf("%s logged: %s (log: %s)", m.Name, lines, m.ErrorLog))
			}
		}
		sort.Strings(donors)
		if len(donors) > 0 {
			return fmt.Errorf("%w; %s", err, strings.Join(donors, "; "))
		}
		return err
	}
}

// abortWithin is how long a node that failed to start gets to shut down
// before it is killed: one in the middle of a state transfer may not
// answer SIGTERM until the transfer ends.
const abortWithin = 10 * time.Second

// abort stops a node that failed to start: cleanly if it can within
// abortWithin, else killed; then what it started and left behind (its
// state transfer script, mariadb-backup, socat share its process group)
// is killed too.
func (n *Node) abort() {
	ctx, cancel := context.WithTimeout(context.Background(), abortWithin)
	defer cancel()
	if n.Running() {
		_ = n.Stop(ctx)
	}
	if n.PID > 0 {
		_ = syscall.Kill(-n.PID, syscall.SIGKILL)
	}
	for n.Running() {
		time.Sleep(50 * time.Millisecond)
	}
}

// joinPhase says where a node that timed out was, from its log.
func joinPhase(log string) string {
	switch {
	case strings.Contains(log, "SST started on joiner") && !strings.Contains(log, "SST received"):
		return " while receiving the data by state transfer"
	case strings.Contains(log, "State transfer required") && !strings.Contains(log, "Synchronized with group"):
		return " while catching up with the cluster"
	}
	return ""
}

// errorLinesOnly is errorLines without the fallback to the last line: a
// log that says nothing wrong adds nothing to an error.
func errorLinesOnly(tail string) string {
	if !strings.Contains(tail, "[ERROR]") {
		return ""
	}
	return errorLines(tail)
}

// writeOptionFiles writes every node's my.cnf with the current ports, so
// that each lists every member.
func (c *Cluster) writeOptionFiles(cfg ClusterConfig) error {
	for _, n := range c.Nodes {
		text := optionFile(c.nodeOptions(n, cfg.BufferPoolSize, cfg.ServerArgs), n.Options...)
		if err := os.WriteFile(n.OptionFile, []byte(text), 0o644); err != nil {
			return fmt.Errorf("sandbox %s: %w", c.Name, err)
		}
	}
	return nil
}

// assignPorts gives every stopped node its four ports: those it had when
// all are still free, else new free ones.
func (c *Cluster) assignPorts() error {
	used := map[int]bool{}
	for _, n := range c.Nodes {
		if n.Running() {
			for _, p := range n.ports() {
				used[p] = true
			}
		}
	}
	for _, n := range c.Nodes {
		if n.Running() {
			continue
		}
		keep := n.Port != 0
		for _, p := range n.ports() {
			keep = keep && !used[p] && portFree(p)
		}
		if keep {
			for _, p := range n.ports() {
				used[p] = true
			}
			continue
		}
		if err := c.pickPorts(n, used); err != nil {
			return err
		}
	}
	return nil
}

// newPorts gives n four new free ports, none another node has.
func (c *Cluster) newPorts(n *Node) error {
	used := map[int]bool{}
	for _, m := range c.Nodes {
		for _, p := range m.ports() {
			used[p] = true
		}
	}
	return c.pickPorts(n, used)
}

func (c *Cluster) pickPorts(n *Node, used map[int]bool) error {
	var ports []int
	for tries := 0; len(ports) < 4; tries++ {
		if tries > 100 {
			return fmt.Errorf("sandbox %s: no free ports on 127.0.0.1", c.Name)
		}
		p, err := freePort()
		if err != nil {
			return fmt.Errorf("sandbox %s: find a free port: %w", c.Name, err)
		}
		if !used[p] {
			used[p] = true
			ports = append(ports, p)
		}
	}
	n.Port, n.GroupPort, n.ISTPort, n.SSTPort = ports[0], ports[1], ports[2], ports[3]
	return nil
}

func (n *Node) ports() []int { return []int{n.Port, n.GroupPort, n.ISTPort, n.SSTPort} }

// Stop shuts the nodes down cleanly, last first, so that node1 leaves last
// and is the one a restart bootstraps from.
func (c *Cluster) Stop(ctx context.Context) error {
	var errs []error
	for i := len(c.Nodes) - 1; i >= 0; i-- {
		n := c.Nodes[i]
		if err := n.Stop(ctx); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", n.Name, err))
		}
	}
	return errors.Join(errs...)
}

// Remove deletes the cluster's directory (every node's data, logs, state).
// Stop first.
func (c *Cluster) Remove() error {
	for _, n := range c.Nodes {
		if n.Running() {
			return fmt.Errorf("sandbox: %s of %s is still running", n.Name, c.Name)
		}
		if !strings.HasPrefix(n.Socket, c.Dir) {
			os.Remove(n.Socket)
		}
	}
	return os.RemoveAll(c.Dir)
}

func (c *Cluster) saveState() error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(c.Dir, clusterStateFile+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(c.Dir, clusterStateFile))
}
