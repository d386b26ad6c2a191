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
// seqno bootstraps first, the others join after it, and no write is lost.
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

// A single server killed comes back on its data (InnoDB's own crash
// recovery), writable once it answers; its new process id is saved.
func TestCrashSingleServer(t *testing.T) {
	b := serverBinary(t)
	ctx := context.Background()
	root := t.TempDir()
	noStrayServers(t, root)
	s, _, err := StartNamed(ctx, root, "one", Config{Binary: b, Database: "jb", BufferPoolSize: "64M", Log: testLog{t}})
	if err != nil {
		t.Fatal(err)
	}
	named, err := Open(root, "one")
	if err != nil {
		t.Fatal(err)
	}
	old := s.PID
	recs, err := named.Crash(ctx, named.Servers[0], 0, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].Transfer != "" || !recs[0].Synced.IsZero() {
		t.Fatalf("%+v", recs)
	}
	checkOrderSingle(t, recs[0])
	again, err := Lookup(root, "one")
	if err != nil || again.PID == old || !again.Running() {
		t.Errorf("state after the crash: pid %d (was %d), running %v, %v", again.PID, old, again.Running(), err)
	}
	if err := again.Stop(ctx); err != nil {
		t.Fatal(err)
	}
}

func checkOrderSingle(t *testing.T, r Recovery) {
	t.Helper()
	if r.Killed.IsZero() || !r.Started.After(r.Killed) || r.Writable.Before(r.Started) {
		t.Errorf("killed %v, started %v, writable %v: not in that order", r.Killed, r.Started, r.Writable)
	}
}

// transferLines are the lines of a log that speak of state transfers.
func transferLines(log string) string {
	var out []string
	for _, l := range strings.Split(readFrom(log, 0), "\n") {
		if strings.Contains(l, "IST") || strings.Contains(l, "SST") || strings.Contains(l, "State transfer") || strings.Contains(l, "gcache") {
			out = append(out, l)
		}
	}
	if len(out) > 60 {
		out = out[len(out)-60:]
	}
	return strings.Join(out, "\n")
}

// How a joiner came back, from the lines its log has: the mariabackup
// script's own words for IST and SST, none when no transfer was needed.
func TestTransferOf(t *testing.T) {
	ist := `[Note] WSREP: State transfer required:
WSREP_SST: [INFO] 'xtrabackup_ist' received from donor: Running IST (20261203 14:17:34.270)
WSREP_SST: [INFO] mariabackup IST completed on joiner (20261203 14:17:34.297)
[Note] WSREP: SST received
[Note] WSREP: SST succeeded for position 2849bac7-ef24-11f1-91d0-8b20223d83f2:8
[Note] WSREP: Receiving IST: 3 writesets, seqnos 9-11`
	sst := `[Note] WSREP: State transfer required:
WSREP_SST: [INFO] Proceeding with SST (20261203 14:16:59.913)
WSREP_SST: [INFO] mariabackup SST completed on joiner (20261203 14:17:11.408)
[Note] WSREP: SST received
[Note] WSREP: Receiving IST... 100.0% (5/5 events) complete.`
	none := `[Note] WSREP: Shifting OPEN -> PRIMARY (TO: 11)
[Note] WSREP: Shifting JOINED -> SYNCED (TO: 11)`
	for log, want := range map[string]string{ist: TransferIST, sst: TransferSST, none: TransferNone} {
		if got := transferOf(log); got != want {
			t.Errorf("%s\nread as %s, want %s", log, got, want)
		}
	}
}

// The bounds and size of a joiner's state transfer, read from its log:
// the script's start, then the full copy's end or the incremental one's.
func TestTransferFactsOf(t *testing.T) {
	ist := `WSREP_SST: [INFO] mariabackup SST started on joiner (20261203 16:59:23.766)
2026-12-03 16:59:28 0 [Note] WSREP: Member 2.0 (node3) requested state transfer from '*any*'. Selected 1.0 (node2)(SYNCED) as donor.
WSREP_SST: [INFO] mariabackup IST completed on joiner (20261203 16:59:32.064)
2026-12-03 16:59:33 2 [Note] WSREP: Receiving IST: 5 writesets, seqnos 4424-4428
2026-12-03 16:59:33 2 [Note] WSREP: IST received: bb49a937-ef3a-11f1-a184-9ff05da2e6e1:4428`
	f := transferFactsOf(ist)
	at := func(s string) time.Time { return parseLogTime("2006-01-02 15:04:05.000", s) }
	if !f.start.Equal(at("2026-12-03 16:59:23.766")) || !f.end.Equal(at("2026-12-03 16:59:33.000")) || f.writesets != 5 {
		t.Errorf("IST: %+v", f)
	}
	sst := `WSREP_SST: [INFO] mariabackup SST started on joiner (20261203 16:58:35.796)
WSREP_SST: [INFO] mariabackup SST completed on joiner (20261203 16:58:51.470)
2026-12-03 16:58:51 3 [Note] WSREP: SST received`
	f = transferFactsOf(sst)
	if !f.start.Equal(at("2026-12-03 16:58:35.796")) || !f.end.Equal(at("2026-12-03 16:58:51.470")) || f.writesets != 0 {
		t.Errorf("SST: %+v", f)
	}
	if f := transferFactsOf("nothing"); !f.start.IsZero() || !f.end.IsZero() {
		t.Errorf("no transfer: %+v", f)
	}
}
