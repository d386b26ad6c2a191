package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/internal/server/sandbox"
)

// clusterShow shows a Galera cluster sandbox: its nodes, each with what it
// says of its place in the cluster.
type clusterShow struct{ sb *sandbox.Named }

func (v clusterShow) view(ctx context.Context) any { return clusterView(ctx, v.sb.Cluster) }

func (v clusterShow) printStatus(ctx context.Context, out io.Writer) error {
	return printClusterStatus(out, v.sb, clusterView(ctx, v.sb.Cluster))
}

func printClusterStatus(out io.Writer, sb *sandbox.Named, view clusterJSON) error {
	cs := sb.Cluster
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(w, "name\t%s\nkind\tGalera cluster, %d nodes\nstate\t%s\nserver\t%s\nbinary\t%s\nprovider\t%s\nstate transfer\t%s\ndata\t%s\nstarted\t%s\n",
		cs.Name, len(cs.Nodes), clusterState(sb), cs.Binary.Flavour().String(), cs.Binary.Path, cs.Provider, cs.SST, cs.Dir,
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
	if err := w.Flush(); err != nil {
		return err
	}
	return printNodeOptions(out, view)
}

// printNodeOptions lists the options given to single nodes, when any.
func printNodeOptions(out io.Writer, view clusterJSON) error {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	header := false
	for _, n := range view.Nodes {
		for _, o := range n.Options {
			if !header {
				fmt.Fprintln(w, "\nNODE\tOWN OPTION (my.cnf)")
				header = true
			}
			fmt.Fprintf(w, "%s\t%s\n", n.Node, strings.TrimPrefix(o, "--"))
		}
	}
	return w.Flush()
}

func onOff(b bool) string {
	if b {
		return "ON"
	}
	return "OFF"
}

func clusterState(sb *sandbox.Named) string {
	k := sb.RunningServers()
	switch k {
	case len(sb.Servers):
		return "running"
	case 0:
		return "stopped"
	}
	return fmt.Sprintf("degraded (%d of %d nodes running)", k, len(sb.Servers))
}

func (v clusterShow) listRow(w io.Writer) {
	cs := v.sb.Cluster
	addrs := make([]string, 0, len(cs.Nodes))
	pid := 0
	for _, n := range cs.Nodes {
		addrs = append(addrs, n.Addr())
		if pid == 0 && n.Running() {
			pid = n.PID
		}
	}
	fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%d\t%s\n", cs.Name, "galera "+clusterState(v.sb), strings.Join(addrs, ","),
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
	// Options are the node's own server options (--node-option).
	Options []string `json:"options,omitempty"`
}

func clusterView(ctx context.Context, cs *sandbox.Cluster) clusterJSON {
	v := clusterJSON{
		Name: cs.Name, Running: cs.Running(), Kind: "galera", Flavor: cs.Binary.Flavor, Version: cs.Binary.Version,
		Binary: cs.Binary.Path, Provider: cs.Provider, SST: cs.SST, Dir: cs.Dir,
	}
	for _, n := range cs.Nodes {
		v.Nodes = append(v.Nodes, clusterNodeJSON{
			NodeStatus: n.Status(ctx), Port: n.Port, GroupPort: n.GroupPort, ISTPort: n.ISTPort, SSTPort: n.SSTPort,
			Socket: n.Socket, Dir: n.Dir, ErrorLog: n.ErrorLog, DSN: n.DSN(""), Options: n.Options,
		})
	}
	return v
}
