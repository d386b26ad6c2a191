//go:build e2e

package sandbox

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"
)

// TestGaleraCrash kills one node of a real 3-node cluster, then every
// node at once, and checks the order of what the recovery noted, not its
// timings: each node killed, started again, writable, then Synced; after
// one node's crash it rejoins by a state transfer (incremental as a rule:
// the donor holds the write it missed while down); after the whole cluster's, the node with the highest
// seqno bootstraps first, the others join after it, and no write is lost;
// then node3 rejoins with its position cleared, by a full copy (SST).
func TestGaleraCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a 3-node cluster; skipped with -short")
	}
	b := galeraBinary(t)
	ctx := context.Background()
	root := t.TempDir()
	noStrayServers(t, root)
	cfg := ClusterConfig{
		Config: Config{Binary: b, BufferPoolSize: "64M", Database: "jb", StartTimeout: 3 * time.Minute, Log: testLog{t}},
		Nodes:  3,
	}
	c, _, err := StartCluster(ctx, root, "g", cfg)
	if err != nil {
		t.Fatal(err)
	}
	named, err := Open(root, "g")
	if err != nil {
		t.Fatal(err)
	}
	c = named.Cluster
	c.SetLog(testLog{t})
	execOn(t, c.Nodes[0], "CREATE TABLE kept (id INT PRIMARY KEY)")
	execOn(t, c.Nodes[0], "INSERT INTO kept VALUES (1)")

	// One node, which misses a write while it is down.
	wrote := make(chan error, 1)
	go func() {
		for c.Nodes[2].Running() {
			time.Sleep(20 * time.Millisecond)
		}
		db, err := sql.Open("mysql", c.Nodes[0].DSN("jb"))
		if err == nil {
			_, err = db.Exec("INSERT INTO kept VALUES (3)")
			db.Close()
		}
		wrote <- err
	}()
	recs, err := named.Crash(ctx, &c.Nodes[2].Server, 3*time.Second, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := <-wrote; err != nil {
		t.Fatalf("write while node3 was down: %v", err)
	}
	// IST as a rule; SST was seen once on a machine loaded by other
	// clusters' tests, when the donor could not serve it.
	if len(recs) != 1 || recs[0].Node != "node3" || (recs[0].Transfer != TransferIST && recs[0].Transfer != TransferSST) || recs[0].Position == "" {
		t.Fatalf("node3 after its crash: %+v\nits log of the state transfer:\n%s", recs, transferLines(c.Nodes[2].ErrorLog))
	}
	if recs[0].Transfer != TransferIST {
		t.Logf("node3 rejoined by %s; its log of the state transfer:\n%s", recs[0].Transfer, transferLines(c.Nodes[2].ErrorLog))
	}
	checkOrder(t, recs[0])
	if !strings.Contains(recs[0].Notes, "node3: recovered position") {
		t.Errorf("notes of the recovery: %q", recs[0].Notes)
	}
	allSynced(t, c, 3)

	// node2 commits last before the whole cluster dies: it, or a node
	// that applied as much, bootstraps.
	execOn(t, c.Nodes[1], "INSERT INTO kept VALUES (4)")
	recs, err = named.Crash(ctx, &c.Nodes[0].Server, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 {
		t.Fatalf("%d recoveries, want 3", len(recs))
	}
	var boot *Recovery
	for i := range recs {
		checkOrder(t, recs[i])
		if recs[i].Transfer == TransferBootstrap {
			if boot != nil {
				t.Errorf("two nodes bootstrapped: %s and %s", boot.Node, recs[i].Node)
			}
			boot = &recs[i]
		}
	}
	if boot == nil {
		t.Fatalf("no node bootstrapped: %+v", recs)
	}
	for _, r := range recs {
		if r.Node == boot.Node {
			continue
		}
		if !r.Started.After(boot.Writable) {
			t.Errorf("%s started at %v, before %s, which bootstrapped, was writable at %v", r.Node, r.Started, boot.Node, boot.Writable)
		}
		if seqnoOf(r.Position) > seqnoOf(boot.Position) {
			t.Errorf("%s recovered %s, ahead of %s, which bootstrapped at %s", r.Node, r.Position, boot.Node, boot.Position)
		}
	}
	allSynced(t, c, 3)
	if got := syncedRead(t, c.Nodes[2], "SELECT GROUP_CONCAT(id ORDER BY id) FROM kept"); got != "1,3,4" {
		t.Errorf("after the crash of every node node3 reads %q", got)
	}

	// node3 rejoined with its Galera position cleared: a full copy,
	// whatever the donor's write-set cache holds, recognised as an SST,
	// bounded by its log and sized.
	rec, err := c.RejoinBySST(ctx, "node3")
	if err != nil {
		t.Fatal(err)
	}
	checkOrder(t, rec)
	if rec.Transfer != TransferSST || rec.TransferBytes <= 0 || rec.TransferStart.IsZero() || rec.TransferEnd.Before(rec.TransferStart) ||
		rec.TransferStart.Before(rec.Started.Truncate(time.Second)) || rec.TransferSeconds() > rec.JoinSeconds()+1 ||
		rec.StreamStart.IsZero() || rec.StreamSeconds() > rec.TransferSeconds()+1 {
		t.Errorf("node3's rejoin by SST: %+v\nits log of the state transfer:\n%s", rec, transferLines(c.Nodes[2].ErrorLog))
	}
	allSynced(t, c, 3)
	if got := syncedRead(t, c.Nodes[2], "SELECT GROUP_CONCAT(id ORDER BY id) FROM kept"); got != "1,3,4" {
		t.Errorf("after its rejoin by SST node3 reads %q", got)
	}
	// The state saved has the new processes: stop finds them.
	if err := c.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.Remove(); err != nil {
		t.Fatal(err)
	}
}

// checkOrder checks the order of a node's recovery: killed, started
// again, writable, Synced.
func checkOrder(t *testing.T, r Recovery) {
	t.Helper()
	if r.Killed.IsZero() || !r.Started.After(r.Killed) || r.Writable.Before(r.Started) || r.Synced.Before(r.Writable) {
		t.Errorf("%s: killed %v, started %v, writable %v, Synced %v: not in that order", r.Node,
			r.Killed.Format(time.StampMilli), r.Started.Format(time.StampMilli), r.Writable.Format(time.StampMilli), r.Synced.Format(time.StampMilli))
	}
}

func seqnoOf(position string) string {
	_, s, _ := strings.Cut(position, ":")
	return s
}
