//go:build e2e

package sandbox

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The line a joiner's Galera logs when its view is installed: whether it
// needs a state transfer (SST or IST) to catch up with the cluster.
const (
	noTransferNeeded = "state transfer needed: no"
	transferNeeded   = "state transfer needed: yes"
)

// TestSeededClusterJoinsWithoutTransfer starts a new 3-node cluster and
// checks that node2 and node3 joined from their copies of node1's data
// with no state transfer, as their Galera logs state it; then that the
// kept cluster, stopped and started again, is whole with its data.
func TestSeededClusterJoinsWithoutTransfer(t *testing.T) {
	b := galeraBinary(t)
	ctx := context.Background()
	root := t.TempDir()
	noStrayServers(t, root)
	var progress bytes.Buffer
	cfg := ClusterConfig{
		Config: Config{Binary: b, BufferPoolSize: "64M", Database: "jb", StartTimeout: 3 * time.Minute, Log: &progress},
		Nodes:  3,
	}
	c, _, err := StartCluster(ctx, root, "seeded", cfg)
	t.Log(progress.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Stop(context.Background()) })
	allSynced(t, c, 3)
	if !strings.Contains(progress.String(), "copied to node2, node3, which join with no state transfer") {
		t.Error("the start's progress does not say the joiners start from a copy of node1's data")
	}
	for _, n := range c.Nodes[1:] {
		if !strings.Contains(progress.String(), n.Name+": its copy stands at the cluster's position") {
			t.Errorf("the start's progress does not say %s's copy was given the cluster's position", n.Name)
		}
		log, err := os.ReadFile(n.ErrorLog)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(log, []byte(noTransferNeeded)) || bytes.Contains(log, []byte(transferNeeded)) || bytes.Contains(log, []byte("SST started on joiner")) {
			t.Errorf("%s did not join without a state transfer: its log says:\n%s", n.Name, transferLines(n.ErrorLog))
		}
	}
	// The copies' position holds while only configuration changes
	// followed the seed, and no longer once a write-set did.
	m := regexp.MustCompile(`node1's data \(position ([0-9a-f-]{36}):(\d+)\)`).FindStringSubmatch(progress.String())
	if m == nil {
		t.Fatal("the start's progress does not say the seed's position")
	}
	seqno, _ := strconv.ParseInt(m[2], 10, 64)
	seed := graState{UUID: m[1], Seqno: seqno}
	if pos, atCluster, err := seededPosition(ctx, c.Nodes[0], seed); err != nil || !atCluster {
		t.Errorf("after the joins, a copy of the seed would join at %s (the cluster's position: %v, %v)", pos, atCluster, err)
	}
	// The database made on node1 before the copy is on every node, and
	// they replicate.
	execOn(t, c.Nodes[2], "CREATE TABLE kept (id INT PRIMARY KEY)")
	syncedRead(t, c.Nodes[0], "SELECT 1")
	if pos, atCluster, err := seededPosition(ctx, c.Nodes[0], seed); err != nil || atCluster || pos != m[1]+":"+m[2] {
		t.Errorf("after a write, a copy of the seed would join at %s (the cluster's position: %v, %v), want the seed's", pos, atCluster, err)
	}
	execOn(t, c.Nodes[2], "INSERT INTO kept VALUES (1), (2)")
	if got := syncedRead(t, c.Nodes[1], "SELECT COUNT(*) FROM kept"); got != "2" {
		t.Errorf("node2 reads %s rows of the table written on node3", got)
	}
	// Each node is itself, with the settings of every sandbox: its own
	// name, state transfers by mariabackup for its later joins, and the
	// 1 GiB redo log (the copies carried a small one).
	for _, n := range c.Nodes {
		want := n.Name + " " + SSTMethod + " 1073741824"
		if got := syncedRead(t, n, "SELECT CONCAT_WS(' ', @@wsrep_node_name, @@wsrep_sst_method, @@innodb_log_file_size)"); got != want {
			t.Errorf("%s says %q, want %q", n.Name, got, want)
		}
		if st, err := os.Stat(filepath.Join(n.DataDir, "ib_logfile0")); err != nil || st.Size() != 1<<30 {
			t.Errorf("%s's redo log: %v, %v; want 1 GiB", n.Name, st, err)
		}
	}

	// Stopped with its data (sandbox stop --keep) and started again: the
	// kept cluster's own path.
	if err := c.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	progress.Reset()
	c, running, err := StartCluster(ctx, root, "seeded", ClusterConfig{Config: cfg.Config})
	if err != nil || running {
		t.Fatalf("start of the kept cluster: %v (running %v)\n%s", err, running, progress.String())
	}
	t.Cleanup(func() { _ = c.Stop(context.Background()) })
	if strings.Contains(progress.String(), "copied to") {
		t.Errorf("the kept cluster was seeded again:\n%s", progress.String())
	}
	allSynced(t, c, 3)
	if got := syncedRead(t, c.Nodes[0], "SELECT COUNT(*) FROM kept"); got != "2" {
		t.Errorf("after the restart node1 reads %s rows", got)
	}
}

// TestClusterJoinByTransfer checks the other start of a new cluster, kept
// for benchmarks and where no copy can be made: the joiner receives the
// data by a full state transfer.
func TestClusterJoinByTransfer(t *testing.T) {
	b := galeraBinary(t)
	ctx := context.Background()
	root := t.TempDir()
	noStrayServers(t, root)
	cfg := ClusterConfig{
		Config:         Config{Binary: b, BufferPoolSize: "64M", Database: "jb", StartTimeout: 3 * time.Minute, Log: testLog{t}},
		Nodes:          2,
		JoinByTransfer: true,
	}
	c, _, err := StartCluster(ctx, root, "transfer", cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Stop(context.Background()) })
	allSynced(t, c, 2)
	log, err := os.ReadFile(c.Nodes[1].ErrorLog)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(log, []byte(transferNeeded)) || !bytes.Contains(log, []byte("SST started on joiner")) {
		t.Errorf("node2 joined without a state transfer: its log says:\n%s", transferLines(c.Nodes[1].ErrorLog))
	}
	if got := syncedRead(t, c.Nodes[1], "SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'jb'"); got != "1" {
		t.Errorf("node2 has %s databases jb", got)
	}
}
