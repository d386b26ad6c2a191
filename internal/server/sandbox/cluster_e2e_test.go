//go:build e2e

package sandbox

import (
	"context"
	"database/sql"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/testdb"
)

// galeraBinary skips the test when no server or no Galera library is
// installed (fails it under CI).
func galeraBinary(t *testing.T) *Binary {
	t.Helper()
	b := serverBinary(t)
	if _, err := galeraNeeds(b, os.Getenv("JOINBENCH_GALERA_PROVIDER")); err != nil {
		testdb.Skipf(t, "%v", err)
	}
	return b
}

// TestGaleraCluster starts a real 3-node cluster and checks what a user
// relies on: every node Synced in a cluster of 3, a table made on node1
// read on node3, a restart of the kept cluster after node1 left first
// (bootstrapped from the node that left last), and a restart after every
// node was killed (same cluster history, data intact).
func TestGaleraCluster(t *testing.T) {
	b := galeraBinary(t)
	ctx := context.Background()
	root := t.TempDir()
	noStrayServers(t, root)
	cfg := ClusterConfig{
		Config: Config{Binary: b, BufferPoolSize: "64M", Database: "jb", StartTimeout: 3 * time.Minute, Log: testLog{t}},
		Nodes:  3,
	}
	c, running, err := StartCluster(ctx, root, "g", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if running {
		t.Error("a new cluster reported as already running")
	}
	allSynced(t, c, 3)

	execOn(t, c.Nodes[0], "CREATE TABLE kept (id INT PRIMARY KEY, v VARCHAR(10))")
	execOn(t, c.Nodes[0], "INSERT INTO kept VALUES (1, 'one'), (2, 'two')")
	if got := syncedRead(t, c.Nodes[2], "SELECT GROUP_CONCAT(v ORDER BY id) FROM kept"); got != "one,two" {
		t.Errorf("node3 reads %q of the table written on node1", got)
	}
	uuid := syncedRead(t, c.Nodes[0], "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'WSREP_CLUSTER_STATE_UUID'")

	// Starting a running cluster returns it.
	again, running, err := StartCluster(ctx, root, "g", ClusterConfig{Config: Config{Binary: b}})
	if err != nil || !running || again.Nodes[0].Port != c.Nodes[0].Port {
		t.Fatalf("start of the running cluster: %v, running %v", err, running)
	}
	// A single-server start on the cluster's name is refused.
	if _, _, err := StartNamed(ctx, root, "g", Config{Binary: b}); err == nil {
		t.Error("StartNamed on a cluster's name succeeded")
	}

	// node1 leaves first, then the cluster stops (node3, then node2):
	// node2 left last, and only it is safe to bootstrap from.
	if err := c.Nodes[0].Stop(ctx); err != nil {
		t.Fatal(err)
	}
	execOn(t, c.Nodes[1], "INSERT INTO kept VALUES (3, 'three')") // node1 misses it
	loaded, err := LookupCluster(root, "g")
	if err != nil {
		t.Fatal(err)
	}
	if err := loaded.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	for _, n := range loaded.Nodes {
		if n.Running() {
			t.Fatalf("%s still running after Stop", n.Name)
		}
	}
	if g, _, _ := readGrastate(loaded.Nodes[1].DataDir); !g.SafeToBootstrap {
		t.Errorf("node2 left last but is not safe to bootstrap: %+v", g)
	}
	c, running, err = StartCluster(ctx, root, "g", ClusterConfig{Config: cfg.Config})
	if err != nil {
		t.Fatalf("restart of the kept cluster: %v", err)
	}
	if running {
		t.Error("the restarted cluster reported as already running")
	}
	allSynced(t, c, 3)
	if got := syncedRead(t, c.Nodes[0], "SELECT GROUP_CONCAT(v ORDER BY id) FROM kept"); got != "one,two,three" {
		t.Errorf("after the restart node1 reads %q", got)
	}

	// Every node killed: no grastate.dat knows its position; the restart
	// recovers them from InnoDB and keeps the cluster's history.
	execOn(t, c.Nodes[2], "INSERT INTO kept VALUES (4, 'four')")
	for _, n := range c.Nodes {
		if err := syscall.Kill(n.PID, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range c.Nodes {
		for n.Running() {
			time.Sleep(50 * time.Millisecond)
		}
	}
	c, _, err = StartCluster(ctx, root, "g", ClusterConfig{Config: cfg.Config})
	if err != nil {
		t.Fatalf("restart after a crash of every node: %v", err)
	}
	allSynced(t, c, 3)
	if got := syncedRead(t, c.Nodes[1], "SELECT GROUP_CONCAT(v ORDER BY id) FROM kept"); got != "one,two,three,four" {
		t.Errorf("after the crash node2 reads %q", got)
	}
	if got := syncedRead(t, c.Nodes[1], "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'WSREP_CLUSTER_STATE_UUID'"); got != uuid {
		t.Errorf("the cluster's history changed across the crash: uuid %s, was %s", got, uuid)
	}

	if err := c.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.Remove(); err != nil {
		t.Fatal(err)
	}
	if list, err := List(root); err != nil || len(list) != 0 {
		t.Errorf("after remove: %v, %v", list, err)
	}
}

// allSynced checks, through Status as "sandbox status" shows it, that
// every node is a Synced, ready member of a primary component of size.
func allSynced(t *testing.T, c *Cluster, size int) {
	t.Helper()
	sts := c.Status(context.Background())
	if len(sts) != size {
		t.Fatalf("status of %d nodes, want %d", len(sts), size)
	}
	for i, st := range sts {
		if want := "node" + strconv.Itoa(i+1); st.Node != want || !st.Synced() || st.ClusterSize != size || st.Address != c.Nodes[i].Addr() {
			t.Errorf("%s: status %+v, want %s synced in a cluster of %d", c.Nodes[i].Name, st, want, size)
		}
	}
}

func execOn(t *testing.T, n *Node, q string) {
	t.Helper()
	db, err := sql.Open("mysql", n.DSN("jb"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(q); err != nil {
		t.Fatalf("%s: %s: %v", n.Name, q, err)
	}
}

// syncedRead reads one value on n once n has applied every write-set the
// cluster committed before (wsrep_sync_wait): Galera applies them on the
// other nodes after the commit returns.
func syncedRead(t *testing.T, n *Node, q string) string {
	t.Helper()
	db, err := sql.Open("mysql", n.DSN("jb"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("SET SESSION wsrep_sync_wait = 1"); err != nil {
		t.Fatalf("%s: %v", n.Name, err)
	}
	var v string
	if err := db.QueryRow(q).Scan(&v); err != nil {
		t.Fatalf("%s: %s: %v", n.Name, q, err)
	}
	return v
}
