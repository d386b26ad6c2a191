package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"github.com/joinbench/joinbench/internal/server/flavor"
	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/internal/usage"
)

// sandboxCmd manages long-lived named sandbox servers.
type sandboxCmd struct {
	Start  sandboxStartCmd  `cmd:"" help:"Start a named sandbox server (or reuse the running one) and print its DSN."`
	Stop   sandboxStopCmd   `cmd:"" help:"Shut a named sandbox down cleanly and remove its data (unless --keep)."`
	Status sandboxStatusCmd `cmd:"" help:"Show a named sandbox; exit 1 when it is not running."`
	List   sandboxListCmd   `cmd:"" help:"List the named sandboxes."`
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
NAME/nodeI/my.cnf. node1 bootstraps the cluster, then the others join one at
a time, each receiving the data by a mariabackup state transfer, each
within --start-timeout; a DSN per node is printed, one a line. A kept
cluster starts again from the node that left last (grastate.dat
safe_to_bootstrap), or from the one holding the most recent write-set
(mariadbd --wsrep-recover) when none left cleanly; the other nodes rejoin
by incremental transfer. --sandbox NAME then means every node, each an
endpoint.`
}

func (c *sandboxStartCmd) Run(ctx context.Context, cl *cli) error {
	if err := sandbox.CheckName(c.Name); err != nil {
		return err
	}
	if c.Galera != 0 || sandbox.IsCluster(c.SandboxDir, c.Name) {
		return c.runCluster(ctx, cl)
	}
	if c.GaleraProvider != "" {
		return usage.Errorf("--galera-provider is for a cluster: add --galera N")
	}
	bin, err := sandbox.FindBinary(ctx, c.ServerBinary)
	if err != nil {
		return err
	}
	log := logWriter(cl)
	s, running, err := sandbox.StartNamed(ctx, c.SandboxDir, c.Name, sandbox.Config{
		Binary:         bin,
		Port:           c.Port,
		BufferPoolSize: c.BufferPoolSize,
		Database:       c.Database,
		ServerArgs:     c.ServerArg,
		StartTimeout:   c.StartTimeout,
		Log:            log,
	})
	if err != nil {
		return err
	}
	if running {
		fmt.Fprintf(log, "sandbox %s is already running (%s on %s)\n", c.Name, s.Binary, s.Addr())
	} else {
		fmt.Fprintf(log, "sandbox %s started: %s on %s, data in %s\n", c.Name, s.Binary, s.Addr(), s.Dir)
	}
	fmt.Println(s.DSN(c.Database))
	return nil
}

type sandboxStopCmd struct {
	sandboxName
	Keep bool `help:"Keep the data directory, to start the sandbox again later on the same data."`
}

func (c *sandboxStopCmd) Run(ctx context.Context, cl *cli) error {
	if sandbox.IsCluster(c.SandboxDir, c.Name) {
		return c.runCluster(ctx, cl)
	}
	s, err := sandbox.Lookup(c.SandboxDir, c.Name)
	if err != nil {
		return err
	}
	s.SetLog(logWriter(cl))
	if err := s.Stop(ctx); err != nil {
		return fmt.Errorf("sandbox %s: %w", c.Name, err)
	}
	if c.Keep {
		fmt.Fprintf(logWriter(cl), "sandbox %s stopped; data kept in %s\n", c.Name, s.Dir)
		return nil
	}
	if err := s.Remove(); err != nil {
		return fmt.Errorf("sandbox %s: %w", c.Name, err)
	}
	fmt.Fprintf(logWriter(cl), "sandbox %s stopped and removed\n", c.Name)
	return nil
}

type sandboxStatusCmd struct {
	sandboxName
	JSON bool `help:"Print the sandbox's state as JSON."`
}

// sandboxNotRunning exits 1 without being reported as a failure of the tool.
type sandboxNotRunning struct{ name string }

func (e sandboxNotRunning) Error() string { return "sandbox " + e.name + " is not running" }
func (e sandboxNotRunning) ExitCode() int { return 1 }

func (c *sandboxStatusCmd) Run(ctx context.Context, cl *cli) error {
	if sandbox.IsCluster(c.SandboxDir, c.Name) {
		return c.runCluster(ctx)
	}
	s, err := sandbox.Lookup(c.SandboxDir, c.Name)
	if err != nil {
		return err
	}
	running := s.Running()
	if c.JSON {
		if err := sandboxPrintJSON(os.Stdout, sandboxView(s)); err != nil {
			return err
		}
	} else {
		w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintf(w, "name\t%s\nstate\t%s\nserver\t%s\nbinary\t%s\naddress\t%s\nsocket\t%s\npid\t%d\ndata\t%s\nerror log\t%s\nstarted\t%s\ndsn\t%s\n",
			s.Name, sandboxState(running), s.Binary.Flavour().String(), s.Binary.Path, s.Addr(), s.Socket, s.PID,
			s.DataDir, s.ErrorLog, s.StartedAt.Local().Format(time.RFC3339), s.DSN(""))
		if err := w.Flush(); err != nil {
			return err
		}
	}
	if !running {
		return sandboxNotRunning{c.Name}
	}
	return nil
}

type sandboxListCmd struct {
	SandboxDir string `env:"JOINBENCH_SANDBOX_DIR" type:"path" placeholder:"DIR" help:"Where named sandboxes live (default $XDG_STATE_HOME/joinbench/sandboxes or ~/.local/state/joinbench/sandboxes)."`
	JSON       bool   `help:"Print a JSON array."`
}

func (c *sandboxListCmd) Run(ctx context.Context) error {
	list, err := sandbox.List(c.SandboxDir)
	if err != nil {
		return err
	}
	clusters, err := sandbox.ListClusters(c.SandboxDir)
	if err != nil {
		return err
	}
	if c.JSON {
		views := make([]any, 0, len(list)+len(clusters))
		for _, s := range list {
			views = append(views, sandboxView(s))
		}
		for _, cl := range clusters {
			views = append(views, clusterView(ctx, cl))
		}
		return sandboxPrintJSON(os.Stdout, views)
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tSTATE\tADDRESS\tFLAVOR\tVERSION\tPID\tDIR")
	for _, s := range list {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%d\t%s\n", s.Name, sandboxState(s.Running()), s.Addr(), s.Binary.Flavor, s.Binary.Version, s.PID, s.Dir)
	}
	for _, cl := range clusters {
		listClusterRow(w, cl)
	}
	return w.Flush()
}

type sandboxJSON struct {
	Name    string      `json:"name"`
	Running bool        `json:"running"`
	Flavor  flavor.Name `json:"flavor"`
	Version string      `json:"version"`
	Binary  string      `json:"binary"`
	Address string      `json:"address"`
	Port    int         `json:"port"`
	Socket  string      `json:"socket"`
	PID     int         `json:"pid"`
	Dir     string      `json:"dir"`
	DSN     string      `json:"dsn"`
}

func sandboxView(s *sandbox.Server) sandboxJSON {
	return sandboxJSON{
		Name: s.Name, Running: s.Running(), Flavor: s.Binary.Flavor, Version: s.Binary.Version,
		Binary: s.Binary.Path, Address: s.Addr(), Port: s.Port, Socket: s.Socket, PID: s.PID,
		Dir: s.Dir, DSN: s.DSN(""),
	}
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
