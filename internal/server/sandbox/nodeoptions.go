package sandbox

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/joinbench/joinbench/internal/usage"
)

// nodeOptions groups the options given per node (sandbox start
// --node-option NODE:OPTION), by node name, each as --name[=value], in
// the order given.
func parseNodeOptions(specs []string, nodes int) (map[string][]string, error) {
	out := map[string][]string{}
	for _, spec := range specs {
		node, opt, ok := strings.Cut(spec, ":")
		node, opt = strings.TrimSpace(node), strings.TrimSpace(opt)
		if !ok || node == "" || opt == "" || strings.HasPrefix(node, "-") {
			return nil, usage.Errorf("--node-option %q: give the node and the option, e.g. node3:innodb_flush_log_at_trx_commit=1", spec)
		}
		name := node
		if n, err := strconv.Atoi(node); err == nil {
			name = fmt.Sprintf("node%d", n)
		}
		i, err := strconv.Atoi(strings.TrimPrefix(name, "node"))
		if !strings.HasPrefix(name, "node") || err != nil || i < 1 || i > nodes {
			return nil, usage.Errorf("--node-option %q: no node %q; the cluster has node1 to node%d", spec, node, nodes)
		}
		if !strings.HasPrefix(opt, "--") {
			opt = "--" + opt
		}
		out[name] = append(out[name], opt)
	}
	return out, nil
}

// setNodeOptions gives each node the options given for it; a node given
// none keeps those it had (a kept cluster started again). A node that
// runs cannot change them: its option file must say what it runs with.
func (c *Cluster) setNodeOptions(specs []string) error {
	byNode, err := parseNodeOptions(specs, len(c.Nodes))
	if err != nil {
		return err
	}
	for _, n := range c.Nodes {
		opts, given := byNode[n.Name]
		if !given || slices.Equal(opts, n.Options) {
			continue
		}
		if n.Running() {
			return usage.Errorf("--node-option: %s of sandbox %s is running with other options: stop the cluster with --keep to start it again with these", n.Name, c.Name)
		}
		n.Options = opts
	}
	return nil
}
