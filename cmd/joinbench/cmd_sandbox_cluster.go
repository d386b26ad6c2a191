package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/joinbench/joinbench/internal/server/flavor"
	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/internal/usage"
)

// runCluster starts (or restarts, or reports) a Galera cluster sandbox and
// prints a DSN per node.
func (c *sandboxStartCmd) runCluster(ctx context.Context, cl *cli) error {
	if c.Port != 0 {
		return usage.Errorf("--port cannot be combined with a cluster: each node gets free ports")
	}
	if c.Galera < 0 {
		return usage.Errorf("--galera %d: give the number of nodes", c.Galera)
	}
	bin, err := sandbox.FindBinary(ctx, c.ServerBinary)
	if err != nil {
		return err
	}
	log := logWriter(cl)
	started := time.Now()
	cs, running, err := sandbox.StartCluster(ctx, c.SandboxDir, c.Name, sandbox.ClusterConfig{
		Config: sandbox.Config{
			Binary:         bin,
			BufferPoolSize: c.BufferPoolSize,
			Database:       c.Database,
			ServerArgs:     c.ServerArg,
			StartTimeout:   c.StartTimeout,
			Detach:         true,
			Log:            log,
		},
		Nodes:    c.Galera,
		Provider: c.GaleraProvider,
	})
	if err != nil {
		return err
	}
	if running {
		fmt.Fprintf(log, "cluster %s is already running (%d nodes of %s)\n", c.Name, len(cs.Nodes), cs.Binary)
	} else {
		fmt.Fprintf(log, "cluster %s started in %.1fs: %d nodes of %s, data in %s\n", c.Name, time.Since(started).Seconds(), len(cs.Nodes), cs.Binary, cs.Dir)
	}
	for _, n := range cs.Nodes {
		fmt.Println(n.DSN(c.Database))
	}
	return nil
}

func (c *sandboxStopCmd) runCluster(ctx context.Context, cl *cli) error {
	cs, err := sandbox.LookupCluster(c.SandboxDir, c.Name)
	if err != nil {
		return err
	}
	cs.SetLog(logWriter(cl))
	if err := cs.Stop(ctx); err != nil {
		return fmt.Errorf("sandbox %s: %w", c.Name, err)
	}
	if c.Keep {
		fmt.Fprintf(logWriter(cl), "cluster %s stopped; data kept in %s\n", c.Name, cs.Dir)
		return nil
	}
	if err := cs.Remove(); err != nil {
		return fmt.Errorf("sandbox %s: %w", c.Name, err)
	}
	fmt.Fprintf(logWriter(cl), "cluster %s stopped and removed\n", c.Name)
	return nil
}

// clusterNotRunning exits 1, like a stopped single sandbox, when a node is
// down.
type clusterNotRunning struct {
	name           string
	running, nodes int
}

func (e clusterNotRunning) Error() string {
	return fmt.Sprintf("sandbox %s: %d of %d nodes running", e.name, e.running, e.nodes)
}
func (e clusterNotRunning) ExitCode() int { return 1 }

func (c *sandboxStatusCmd) runCluster(ctx context.Context) error {
	cs, err := sandbox.LookupCluster(c.SandboxDir, c.Name)
	if err != nil {
		return err
	}
	view := clusterView(ctx, cs)
	if c.JSON {
		if err := sandboxPrintJSON(os.Stdout, view); err != nil {
			return err
		}
	} else if err := printClusterStatus(os.Stdout, cs, view); err != nil {
		return err
	}
	if k := cs.RunningNodes(); k < len(cs.Nodes) {
		return clusterNotRunning{c.Name, k, len(cs.Nodes)}
	}
	return nil
}

func printClusterStatus(out io.Writer, cs *sandbox.Cluster, view clusterJSON) error {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(w, "name\t%s\nkind\tGalera cluster, %d nodes\nstate\t%s\nserver\t%s\nbinary\t%s\nprovider\t%s\nstate transfer\t%s\ndata\t%s\nstarted\t%s\n",
		cs.Name, len(cs.Nodes), clusterState(cs), cs.Binary.Flavour().String(), cs.Binary.Path, cs.Provider, cs.SST, cs.Dir,
		cs.StartedAt.Local().Format(time.RFC3339))
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(out)
	w = tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "NODE\tSTATE\tWSREP STATE\tCLUSTER SIZE\tREADY\tADDRESS\tPID\tERROR LOG")
	for _, n := range view.Nodes {
		state, size, ready := "-", "-", "-"
		if n.Running && n.Error == "" {
			state, size, ready = n.State, fmt.Sprint(n.ClusterSize), onOff(n.Ready)
			if n.ClusterStatus != "" && n.ClusterStatus != "Primary" {
				state += " (" + n.ClusterStatus + ")"
			}
		} else if n.Error != "" {
			state = "error: " + n.Error
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\n", n.Node, sandboxState(n.Running), state, size, ready, n.Address, n.PID, n.ErrorLog)
	}
	return w.Flush()
}

func onOff(b bool) string {
	if b {
		return "ON"
	}
	return "OFF"
}

func clusterState(cs *sandbox.Cluster) string {
	k := cs.RunningNodes()
	switch k {
	case len(cs.Nodes):
		return "running"
	case 0:
		return "stopped"
	}
	return fmt.Sprintf("degraded (%d of %d nodes running)", k, len(cs.Nodes))
}

func listClusterRow(w io.Writer, cs *sandbox.Cluster) {
	addrs := make([]string, 0, len(cs.Nodes))
	pid := 0
	for _, n := range cs.Nodes {
		addrs = append(addrs, n.Addr())
		if pid == 0 && n.Running() {
			pid = n.PID
		}
	}
	fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%d\t%s\n", cs.Name, "galera "+clusterState(cs), strings.Join(addrs, ","),
		cs.Binary.Flavor, cs.Binary.Version, pid, cs.Dir)
}

type clusterJSON struct {
	Name     string            `json:"name"`
	Running  bool              `json:"running"`
	Kind     string            `json:"kind"`
	Flavor   flavor.Name       `json:"flavor"`
	Version  string            `json:"version"`
	Binary   string            `json:"binary"`
	Provider string            `json:"provider"`
	SST      string            `json:"sst_method"`
	Dir      string            `json:"dir"`
	Nodes    []clusterNodeJSON `json:"nodes"`
}

type clusterNodeJSON struct {
	sandbox.NodeStatus
	Port      int    `json:"port"`
	GroupPort int    `json:"group_port"`
	ISTPort   int    `json:"ist_port"`
	SSTPort   int    `json:"sst_port"`
	Socket    string `json:"socket"`
	Dir       string `json:"dir"`
	ErrorLog  string `json:"error_log"`
	DSN       string `json:"dsn"`
}

func clusterView(ctx context.Context, cs *sandbox.Cluster) clusterJSON {
	v := clusterJSON{
		Name: cs.Name, Running: cs.Running(), Kind: "galera", Flavor: cs.Binary.Flavor, Version: cs.Binary.Version,
		Binary: cs.Binary.Path, Provider: cs.Provider, SST: cs.SST, Dir: cs.Dir,
	}
	for _, n := range cs.Nodes {
		v.Nodes = append(v.Nodes, clusterNodeJSON{
			NodeStatus: n.Status(ctx), Port: n.Port, GroupPort: n.GroupPort, ISTPort: n.ISTPort, SSTPort: n.SSTPort,
			Socket: n.Socket, Dir: n.Dir, ErrorLog: n.ErrorLog, DSN: n.DSN(""),
		})
	}
	return v
}
