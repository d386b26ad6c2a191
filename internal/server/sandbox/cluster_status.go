package sandbox

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
)

// NodeStatus is what a node says of its place in the cluster.
type NodeStatus struct {
	Node    string `json:"node"`
	Address string `json:"address"`
	PID     int    `json:"pid"`
	Running bool   `json:"running"`
	// State is wsrep_local_state_comment: Synced, Donor/Desynced, Joining,
	// Joined, Initialized...
	State string `json:"state,omitempty"`
	// ClusterSize is wsrep_cluster_size: the members this node sees.
	ClusterSize int `json:"cluster_size"`
	// ClusterStatus is wsrep_cluster_status: Primary, or non-Primary when
	// the node lost the quorum.
	ClusterStatus string `json:"cluster_status,omitempty"`
	// Ready is wsrep_ready: the node accepts queries.
	Ready bool `json:"ready"`
	// Error says why a running node could not be asked.
	Error string `json:"error,omitempty"`
}

// Synced reports whether the node is a ready, synced member of a primary
// component.
func (s NodeStatus) Synced() bool {
	return s.Running && s.Ready && s.State == "Synced" && s.ClusterStatus == "Primary"
}

// Status asks every node, in order.
func (c *Cluster) Status(ctx context.Context) []NodeStatus {
	out := make([]NodeStatus, 0, len(c.Nodes))
	for _, n := range c.Nodes {
		out = append(out, n.Status(ctx))
	}
	return out
}

// Status asks the node for its wsrep status; a stopped node is reported as
// such without asking.
func (n *Node) Status(ctx context.Context) NodeStatus {
	st := NodeStatus{Node: n.Name, Address: n.Addr(), PID: n.PID, Running: n.Running()}
	if !st.Running {
		st.PID = 0
		return st
	}
	vars, err := n.wsrepStatus(ctx)
	if err != nil {
		st.Error = err.Error()
		return st
	}
	st.State = vars["wsrep_local_state_comment"]
	st.ClusterSize, _ = strconv.Atoi(vars["wsrep_cluster_size"])
	st.ClusterStatus = vars["wsrep_cluster_status"]
	st.Ready = strings.EqualFold(vars["wsrep_ready"], "ON")
	return st
}

func (n *Node) wsrepStatus(ctx context.Context) (map[string]string, error) {
	return n.status(ctx, "wsrep_local_state_comment", "wsrep_cluster_size", "wsrep_cluster_status", "wsrep_ready")
}

// status reads the node's global status variables names (lower case),
// keyed by their lower-case names.
func (n *Node) status(ctx context.Context, names ...string) (map[string]string, error) {
	conn, err := mysql.NewConnector(n.socketConfig())
	if err != nil {
		return nil, err
	}
	db := sql.OpenDB(conn)
	defer db.Close()
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	rows, err := db.QueryContext(ctx, "SHOW GLOBAL STATUS WHERE Variable_name IN ('"+strings.Join(names, "', '")+"')")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	vars := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		vars[strings.ToLower(k)] = v
	}
	return vars, rows.Err()
}

// waitSynced waits until the node (answering on its socket) is Synced. A
// joiner answers once its state transfer is done, and then applies what the
// cluster committed meanwhile.
func (n *Node) waitSynced(ctx context.Context) error {
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	var last NodeStatus
	for {
		last = n.Status(ctx)
		if last.Synced() {
			return nil
		}
		if !last.Running {
			return fmt.Errorf("%s exited: %s (log: %s)", filepath.Base(n.Binary.Path), errorLines(readTail(n.ErrorLog)), n.ErrorLog)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("not Synced within the start timeout (state %q, cluster %q, ready %v): %s (log: %s)",
				last.State, last.ClusterStatus, last.Ready, errorLines(readTail(n.ErrorLog)), n.ErrorLog)
		case <-tick.C:
		}
	}
}
