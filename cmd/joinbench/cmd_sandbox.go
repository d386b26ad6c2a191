package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"github.com/joinbench/joinbench/internal/server/sandbox"
)

// sandboxCmd manages long-lived named sandbox servers.
type sandboxCmd struct {
	Start  sandboxStartCmd  `cmd:"" help:"Start a named sandbox server (or reuse the running one) and print its DSN."`
	Stop   sandboxStopCmd   `cmd:"" help:"Undo what a killed joinbench left that outlives the servers (limits, orphan servers, triggers), then shut a named sandbox down cleanly and remove its data (unless --keep)."`
	Status sandboxStatusCmd `cmd:"" help:"Show a named sandbox and what a killed joinbench left on it; exit 1 when it is not running or has leftovers."`
	Repair sandboxRepairCmd `cmd:"" help:"Undo what a killed joinbench left on a named sandbox: limits, settings, triggers, orphan servers, servers left down."`
	List   sandboxListCmd   `cmd:"" help:"List the named sandboxes."`
	// Restore: cmd_sandbox_restore.go.
	Restore sandboxRestoreCmd `cmd:"" help:"Rebuild a cluster node from a backup: mariabackup of another running node, the prepare (redo apply) timed on its own, the node's data replaced, then its join by IST or SST."`
}

type sandboxName struct {
	Name       string `short:"n" default:"default" env:"JOINBENCH_SANDBOX" help:"Sandbox name: letters, digits, '.', '_', '-'."`
	SandboxDir string `env:"JOINBENCH_SANDBOX_DIR" type:"path" placeholder:"DIR" help:"Where named sandboxes live (default $XDG_STATE_HOME/joinbench/sandboxes or ~/.local/state/joinbench/sandboxes)."`
}

type sandboxStartCmd struct {
	sandboxName
	ServerBinary   string        `env:"JOINBENCH_SERVER_BINARY" type:"path" placeholder:"PATH" help:"mariadbd or mysqld to run (default: mariadbd, else mysqld, found on PATH or in /usr/sbin)."`
	Port           int           `help:"TCP port on 127.0.0.1 (default: the port it had before if free, else any free port)."`
	BufferPoolSize string        `default:"1G" help:"innodb_buffer_pool_size."`
	Database       string        `default:"joinbench" help:"Database to create; the printed DSN selects it. Empty: none."`
	ServerArg      []string      `sep:"none" placeholder:"--OPTION=VALUE" help:"Extra server option, e.g. --server-arg=--optimizer-switch=... (repeatable)."`
	StartTimeout   time.Duration `default:"2m" help:"Give up when initialisation plus start-up take longer (for a cluster: each node's start, state transfer included)."`
	Galera         int           `placeholder:"N" help:"Start a MariaDB Galera cluster of N nodes on 127.0.0.1 instead of one server (needs galera-4, mariadb-backup and socat)."`
	GaleraProvider string        `type:"path" placeholder:"PATH" help:"The Galera library, libgalera_smm.so (default: where galera-4 installs it)."`
	// GaleraJoinByTransfer is for bench/galera_start.sh alone, which times
	// a new cluster's start both ways.
	GaleraJoinByTransfer bool     `hidden:"" help:"Have the nodes of a new cluster join by a full state transfer each, rather than start from a copy of node1's data (for benchmarks of the two starts)."`
	NodeOption           []string `sep:"none" placeholder:"NODE:OPTION" help:"A server option of one node of a cluster, e.g. node3:innodb_flush_log_at_trx_commit=1 or node2:innodb-buffer-pool-size=256M (repeatable): written last in that node's my.cnf, so that it wins, and kept when the cluster is started again."`
}

func (c *sandboxStartCmd) Help() string {
	return `The server runs from a fresh data directory under the sandbox directory,
with --no-defaults (no my.cnf on the machine applies), listening on
127.0.0.1 only, as root without a password. Benchmark settings:
innodb_flush_log_at_trx_commit=2 (redo flushed once a second, not at every
commit), a 1 GiB redo log (fewer checkpoints while loading), no binary log, local_infile=ON, max_connections=2000,
skip_name_resolve, character_set_server=utf8mb4.

The server keeps running after this command ends. Starting a running
sandbox prints its DSN again; starting a stopped one that was kept
(stop --keep) reuses its data. Use it from other commands with
--sandbox NAME.

With --galera N the sandbox is a MariaDB Galera cluster of N such servers
(nodes), each on its own free ports (client, group communication,
incremental and snapshot state transfer), with its options in
NAME/nodeI/my.cnf. node1's data is made once (the database created),
then each other node starts from a copy of it, so that node1 bootstraps
the cluster and the others join with no state transfer, each within
--start-timeout; a DSN per node is printed, one a line. A kept
cluster starts again from the node that left last (grastate.dat
safe_to_bootstrap), or from the one holding the most recent write-set
(mariadbd --wsrep-recover) when none left cleanly; the other nodes rejoin
by incremental transfer. --sandbox NAME then means every node, each an
endpoint.

--node-option makes one node different for good (a node with a smaller
buffer pool, or flushing its redo log at every commit): the option goes
into that node's my.cnf after the others, is shown by sandbox status, and
stays when the kept cluster is started again; giving the node's options
again replaces them.`
}

func (c *sandboxStartCmd) Run(ctx context.Context, cl *cli) error {
	if err := sandbox.CheckName(c.Name); err != nil {
		return err
	}
	bin, err := sandbox.FindBinary(ctx, c.ServerBinary)
	if err != nil {
		return err
	}
	log := logWriter(cl)
	started := time.Now()
	sb, running, err := sandbox.StartAny(ctx, c.SandboxDir, c.Name, sandbox.ClusterConfig{
		Config: sandbox.Config{
			Binary:         bin,
			Port:           c.Port,
			BufferPoolSize: c.BufferPoolSize,
			Database:       c.Database,
			ServerArgs:     c.ServerArg,
			StartTimeout:   c.StartTimeout,
			Log:            log,
		},
		Nodes:          c.Galera,
		Provider:       c.GaleraProvider,
		NodeOptions:    c.NodeOption,
		JoinByTransfer: c.GaleraJoinByTransfer,
	})
	if err != nil {
		return err
	}
	if running {
		fmt.Fprintf(log, "%s %s is already running (%s)\n", sb.Kind(), c.Name, sb.Summary())
	} else {
		fmt.Fprintf(log, "%s %s started in %.1fs: %s, data in %s\n", sb.Kind(), c.Name, time.Since(started).Seconds(), sb.Summary(), sb.Dir)
	}
	for _, s := range sb.Servers {
		fmt.Println(s.DSN(c.Database))
	}
	return nil
}

type sandboxStopCmd struct {
	sandboxName
	Keep bool `help:"Keep the data directory, to start the sandbox again later on the same data."`
}

func (c *sandboxStopCmd) Run(ctx context.Context, cl *cli) error {
	sb, err := sandbox.Open(c.SandboxDir, c.Name)
	if err != nil {
		return err
	}
	log := logWriter(cl)
	sb.SetLog(log)
	// What a killed joinbench left that outlives the servers (a limit, an
	// orphan server, triggers) is undone before they stop. When it cannot
	// be, a sandbox whose data goes with it is stopped anyway; a kept one
	// is not, so that the command it names can still be run.
	if _, err := sb.RepairToStop(ctx, os.Stderr); err != nil {
		if c.Keep {
			return err
		}
		fmt.Fprintf(os.Stderr, "sandbox %s: %v; stopped anyway, its data being removed\n", c.Name, err)
	}
	if err := sb.Stop(ctx); err != nil {
		return fmt.Errorf("sandbox %s: %w", c.Name, err)
	}
	if c.Keep {
		fmt.Fprintf(log, "%s %s stopped; data kept in %s\n", sb.Kind(), c.Name, sb.Dir)
		return nil
	}
	if err := sb.Remove(); err != nil {
		return fmt.Errorf("sandbox %s: %w", c.Name, err)
	}
	fmt.Fprintf(log, "%s %s stopped and removed\n", sb.Kind(), c.Name)
	return nil
}

type sandboxStatusCmd struct {
	sandboxName
	Format string `short:"f" enum:"text,json" default:"text" help:"Output format: text or json (the sandbox's state)."`
	JSON   bool   `hidden:"" aliasof:"format=json" help:"Print the sandbox's state as JSON: --format json."`
}

// sandboxNotRunning exits 1 without being reported as a failure of the
// tool: the sandbox, or some node of a cluster, is stopped.
type sandboxNotRunning struct {
	sb      *sandbox.Named
	running int
}

func (e sandboxNotRunning) Error() string {
	if e.sb.Cluster == nil {
		return "sandbox " + e.sb.Name + " is not running"
	}
	return fmt.Sprintf("sandbox %s: %d of %d nodes running", e.sb.Name, e.running, len(e.sb.Servers))
}
func (e sandboxNotRunning) ExitCode() int { return 1 }

func (c *sandboxStatusCmd) Run(ctx context.Context) error {
	sb, err := sandbox.Open(c.SandboxDir, c.Name)
	if err != nil {
		return err
	}
	v := sandboxShowOf(sb)
	if c.Format == "json" {
		err = sandboxPrintJSON(os.Stdout, v.view(ctx))
	} else {
		err = v.printStatus(ctx, os.Stdout)
	}
	if err != nil {
		return err
	}
	left, err := sb.Leftovers()
	if err != nil {
		return err
	}
	if len(left) > 0 {
		out := io.Writer(os.Stdout)
		if c.Format == "json" {
			out = os.Stderr
		}
		fmt.Fprintf(out, "\nleft by a joinbench that was killed (undo: joinbench sandbox repair --name %s, or any command on the sandbox):\n", sb.Name)
		for _, l := range left {
			fmt.Fprintf(out, "  %s\n", l)
		}
	}
	if k := sb.RunningServers(); k < len(sb.Servers) {
		return sandboxNotRunning{sb, k}
	}
	if len(left) > 0 {
		return leftoversFound{len(left), "joinbench sandbox repair --name " + sb.Name}
	}
	return nil
}

// leftoversFound exits 1, as a stopped sandbox does: the sandbox or
// server is not as it should be, and repair, the command it names, makes
// it so.
type leftoversFound struct {
	n      int
	repair string
}

func (e leftoversFound) Error() string {
	return fmt.Sprintf("%d leftover(s) of a killed joinbench: run '%s'", e.n, e.repair)
}
func (e leftoversFound) ExitCode() int { return 1 }

type sandboxRepairCmd struct {
	sandboxName
}

func (c *sandboxRepairCmd) Help() string {
	return `Every change joinbench makes to a sandbox (a cgroup limit of a slow action,
a global variable a lesson sets, a buffer pool resized for one command, the
triggers and table copy of pt-online-schema-change, a server crashed or
restarted, a restore's folder) is written to the sandbox's ledger before it
is made, and removed once undone. A joinbench that is killed leaves its
entries; repair undoes those whose writer is gone (by process id and start
time), one line each: limits lifted, orphan servers on a node's data folder
or port stopped, servers left down started again (a whole cluster
bootstrapped from its most advanced node), settings set back, triggers and
copies dropped, folders removed. Every command given --sandbox does the
same first, and sandbox stop what outlives the servers; sandbox status
lists what is left. Two repairs at once take turns (a lock file in the
ledger folder): the second finds nothing left. On a server named by
--dsn, see 'joinbench repair'.`
}

func (c *sandboxRepairCmd) Run(ctx context.Context, cl *cli) error {
	return repairSandbox(ctx, cl, c.SandboxDir, c.Name)
}

// repairSandbox undoes what a killed joinbench left on the named sandbox,
// saying so when there was nothing.
func repairSandbox(ctx context.Context, cl *cli, dir, name string) error {
	sb, err := sandbox.Open(dir, name)
	if err != nil {
		return err
	}
	log := logWriter(cl)
	sb.SetLog(log)
	n, err := sb.Repair(ctx, os.Stderr)
	if err != nil {
		return err
	}
	if n == 0 {
		fmt.Fprintf(log, "%s %s: nothing left by a killed joinbench\n", sb.Kind(), sb.Name)
	}
	return nil
}

type sandboxListCmd struct {
	SandboxDir string `env:"JOINBENCH_SANDBOX_DIR" type:"path" placeholder:"DIR" help:"Where named sandboxes live (default $XDG_STATE_HOME/joinbench/sandboxes or ~/.local/state/joinbench/sandboxes)."`
	Format     string `short:"f" enum:"text,json" default:"text" help:"Output format: text (a table) or json (an array)."`
	JSON       bool   `hidden:"" aliasof:"format=json" help:"Print a JSON array: --format json."`
}

func (c *sandboxListCmd) Run(ctx context.Context) error {
	list, err := sandbox.List(c.SandboxDir)
	if err != nil {
		return err
	}
	if c.Format == "json" {
		views := make([]any, 0, len(list))
		for _, sb := range list {
			views = append(views, sandboxShowOf(sb).view(ctx))
		}
		return sandboxPrintJSON(os.Stdout, views)
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tSTATE\tADDRESS\tFLAVOR\tVERSION\tPID\tDIR")
	for _, sb := range list {
		sandboxShowOf(sb).listRow(w)
	}
	return w.Flush()
}

// sandboxShow is how status and list show a sandbox of one kind.
type sandboxShow interface {
	// view is its JSON.
	view(ctx context.Context) any
	printStatus(ctx context.Context, w io.Writer) error
	listRow(w io.Writer)
}

func sandboxShowOf(sb *sandbox.Named) sandboxShow {
	if sb.Cluster != nil {
		return clusterShow{sb}
	}
	return serverShow{sb.Servers[0]}
}

func sandboxState(running bool) string {
	if running {
		return "running"
	}
	return "stopped"
}

func sandboxPrintJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
