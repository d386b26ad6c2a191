//go:build e2e

package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/internal/throttle"
	"github.com/joinbench/joinbench/results"
)

// successes are the end times of a run's successful executions.
func successes(t *testing.T, dir string) []time.Time {
	t.Helper()
	var out []time.Time
	if _, err := results.ScanExecutions(dir, func(err error) { t.Error(err) }, func(e *results.Execution) error {
		if e.ErrorCode == 0 {
			out = append(out, e.Start.Add(time.Duration(e.LatencyNs)))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// rateIn is how many of ends fall in [from, to), per second.
func rateIn(ends []time.Time, from, to time.Time) float64 {
	n := 0
	for _, e := range ends {
		if !e.Before(from) && e.Before(to) {
			n++
		}
	}
	return float64(n) / to.Sub(from).Seconds()
}

// TestSlowNode makes a sandbox server 50% slower on disk, then on CPU,
// during a write workload that waits for the disk at every commit
// (innodb_flush_log_at_trx_commit=1), and checks what a user relies on:
// each limit is set after the action measured the server's own rate, the
// action's row says what it measured, and the server is unlimited
// afterwards. The workload's rates around and under each limit are logged,
// not asserted: a machine shared with other work moves them.
func TestSlowNode(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a workload for a minute; skipped with -short")
	}
	if _, err := sandbox.FindBinary(context.Background(), ""); err != nil {
		testdb.Skipf(t, "%v", err)
	}
	dir := t.TempDir()
	for _, r := range []throttle.Resource{throttle.IO, throttle.CPU} {
		if err := throttle.Check(r, dir); err != nil {
			testdb.Skipf(t, "%v", err)
		}
	}
	sbDir := filepath.Join(dir, "sandboxes")
	code, out := runCaptured(t, "sandbox", "start", "--name", "s", "--sandbox-dir", sbDir, "--buffer-pool-size", "128M", "-q")
	t.Cleanup(func() { runCaptured(t, "sandbox", "stop", "--name", "s", "--sandbox-dir", sbDir, "-q") })
	if code != 0 {
		t.Fatalf("sandbox start: exit %d\n%s", code, out)
	}
	db, err := sql.Open("mysql", strings.TrimSpace(out))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		"CREATE TABLE w (id INT PRIMARY KEY, v INT NOT NULL)",
		"INSERT INTO w SELECT seq, 0 FROM seq_1_to_1000",
		"SET GLOBAL innodb_flush_log_at_trx_commit = 1",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	resDir := filepath.Join(dir, "results")
	code, out = runCaptured(t, "run", "--sandbox", "s", "--sandbox-dir", sbDir, "--corpus", writeCorpus(t, dir), "--no-builtin",
		"-s", "w_update", "-t", "2", "--time", "50s", "--skip-trx", "--explain", "off", "--out", resDir, "--run-id", "slow", "-q",
		"--action", "6s@1: slow 50% io for 12s",
		"--action", "27s@1: slow 50% cpu for 12s")
	if code != 0 {
		t.Fatalf("run: exit %d\n%s", code, out)
	}
	run := filepath.Join(resDir, "run=slow")
	rows, err := results.ReadActions(run, func(err error) { t.Error(err) })
	if err != nil || len(rows) != 2 {
		t.Fatalf("actions.parquet: %d rows, %v", len(rows), err)
	}
	ends := successes(t, run)
	info := results.ReadRunInfo(run, func(err error) { t.Error(err) })
	runStart := info.Start
	for i, row := range rows {
		if row.Outcome != results.ActionOK || !strings.Contains(row.Output, "% of before)") {
			t.Fatalf("%s: %s %s\n%s", row.Spec, row.Outcome, row.ErrorMessage, row.Output)
		}
		if row.Start.Sub(row.Planned) < 4*time.Second {
			t.Errorf("%s: limited %v after its offset, want after its 5 s of measuring", row.Spec, row.Start.Sub(row.Planned))
		}
		// Around it: the seconds before it started measuring, and after
		// it ended (the next action's measuring, or the run's end).
		from := runStart.Add(time.Second)
		if i > 0 {
			from = rows[i-1].End.Add(time.Second)
		}
		before := rateIn(ends, from, row.Planned)
		after := rateIn(ends, row.End.Add(time.Second), row.End.Add(6*time.Second))
		// The limit settles within a couple of seconds.
		during := rateIn(ends, row.Start.Add(2*time.Second), row.End)
		measuring := rateIn(ends, row.Planned, row.Start)
		t.Logf("%s: %.0f writes/s before, %.0f while it measured, %.0f while limited (%.0f%% of before, %.0f%% of measured), %.0f after; the action measured:\n%s",
			row.Spec, before, measuring, during, 100*during/before, 100*during/measuring, after, row.Output)
	}
	// How much slower the workload ran is a figure of the machine (logged
	// above): what is checked is that each limit was set after its
	// measuring, ended well, and left no server in a throttle's cgroup.
	checkNoThrottleLeft(t, sbDir)
}

// TestGaleraCrash kills node3 of a real 3-node cluster (one made different
// by its own option) during a write workload on every node, then every
// node at once, and checks the order
// of what each recovery recorded, not its timings: each node killed, then
// writable, then Synced; node3 rejoined by a state transfer; after the
// whole cluster's crash exactly one node bootstrapped, and each other
// node became writable after it; and the workload wrote again on every
// node once they were back.
func TestGaleraCrash(t *testing.T) {
	needGalera(t)
	dir := t.TempDir()
	sbDir := filepath.Join(dir, "sandboxes")
	// node3 flushes its redo log at every commit, the others once a
	// second: one node different for good, across its crashes too.
	code, out := runCaptured(t, "sandbox", "start", "--name", "c", "--galera", "3", "--sandbox-dir", sbDir, "--buffer-pool-size", "128M", "-q",
		"--node-option", "node3:innodb_flush_log_at_trx_commit=1")
	t.Cleanup(func() { runCaptured(t, "sandbox", "stop", "--name", "c", "--sandbox-dir", sbDir, "-q") })
	if code != 0 {
		t.Fatalf("sandbox start --galera 3: exit %d\n%s", code, out)
	}
	dsns := strings.Fields(out)
	db, err := sql.Open("mysql", dsns[0])
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	flushes := func() string {
		var got []string
		for _, dsn := range dsns {
			node, err := sql.Open("mysql", dsn)
			if err != nil {
				t.Fatal(err)
			}
			var v string
			err = node.QueryRow("SELECT @@innodb_flush_log_at_trx_commit").Scan(&v)
			node.Close()
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, v)
		}
		return strings.Join(got, " ")
	}
	if got := flushes(); got != "2 2 1" {
		t.Errorf("innodb_flush_log_at_trx_commit of node1 to node3: %s, want 2 2 1", got)
	}
	if _, status := runCaptured(t, "sandbox", "status", "--name", "c", "--sandbox-dir", sbDir, "-q"); !strings.Contains(status, "node3  innodb_flush_log_at_trx_commit=1") {
		t.Errorf("status does not show node3's own option:\n%s", status)
	}
	for _, q := range []string{
		"CREATE TABLE w (id INT PRIMARY KEY, v INT NOT NULL)",
		"INSERT INTO w SELECT seq, 0 FROM seq_1_to_1000",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// Each crash has a run of its own: the second must not strike while
	// the first one's recovery still runs, which takes a minute and more
	// on a loaded machine. A run's end waits for a recovery under way.
	resDir := filepath.Join(dir, "results")
	crashRun := func(id, action string) (string, []results.Action) {
		t.Helper()
		code, out := runCaptured(t, "run", "--sandbox", "c", "--sandbox-dir", sbDir, "--corpus", writeCorpus(t, dir), "--no-builtin",
			"-s", "w_update", "-t", "6", "--time", "20s", "--skip-trx", "--explain", "off", "--out", resDir, "--run-id", id, "-q",
			"--action", action)
		if code != 0 {
			t.Fatalf("run with --action %q: exit %d\n%s", action, code, out)
		}
		run := filepath.Join(resDir, "run="+id)
		rows, err := results.ReadActions(run, func(err error) { t.Error(err) })
		if err != nil {
			t.Fatalf("actions.parquet of %s: %v", id, err)
		}
		for _, r := range rows {
			t.Logf("%s: action %d.%d on %s: killed %s, writable %s, Synced %s, %s, %s", id, r.Action, r.Step, r.Node, r.Start.Format(time.StampMilli),
				r.WritableTime.Format(time.StampMilli), r.SyncedTime.Format(time.StampMilli), r.StateTransfer, r.Outcome)
			if r.Step == 1 {
				t.Logf("recovery:\n%s", r.Output)
			}
			if r.Outcome != results.ActionOK {
				t.Fatalf("%s: action %d on %s: %s: %s", id, r.Action, r.Node, r.Outcome, r.ErrorMessage)
			}
			if r.Start.IsZero() || !r.WritableTime.After(r.Start) || r.SyncedTime.Before(r.WritableTime) || r.End.Before(r.SyncedTime) {
				t.Errorf("%s: action %d on %s: killed, writable, Synced, ended not in that order", id, r.Action, r.Node)
			}
		}
		return run, rows
	}
	nodeRun, rows := crashRun("crash-node3", "3s@node3: crash")
	if len(rows) != 1 {
		t.Fatalf("crash of node3: %d action rows, want 1", len(rows))
	}
	if one := rows[0]; one.Node != "node3" || (one.StateTransfer != sandbox.TransferIST && one.StateTransfer != sandbox.TransferSST) {
		t.Errorf("node3 after its crash: %q, %q; want it rejoined by IST or SST", one.Node, one.StateTransfer)
	}
	checkWroteAgain(t, nodeRun, rows)
	allRun, rows := crashRun("crash-all", "3s@all: crash 1s")
	if len(rows) != 3 {
		t.Fatalf("crash of all: %d action rows, want 3", len(rows))
	}
	var boot *results.Action
	for i := range rows {
		if r := &rows[i]; r.StateTransfer == sandbox.TransferBootstrap {
			if boot != nil {
				t.Errorf("%s and %s both bootstrapped", boot.Node, r.Node)
			}
			boot = r
		}
	}
	if boot == nil {
		t.Fatal("no node bootstrapped after the crash of every node")
	}
	for _, r := range rows {
		if r.Node != boot.Node && !r.WritableTime.After(boot.WritableTime) {
			t.Errorf("%s writable before %s, which bootstrapped", r.Node, boot.Node)
		}
	}
	checkRecoveryTimeline(t, nodeRun, allRun, boot.Node)
	checkWroteAgain(t, allRun, rows)
	if got := flushes(); got != "2 2 1" {
		t.Errorf("after the crashes innodb_flush_log_at_trx_commit of node1 to node3: %s, want 2 2 1", got)
	}
	t.Run("restore", func(t *testing.T) { checkRestore(t, sbDir, db, dsns[1]) })
}

// checkRestore rebuilds node2 of TestGaleraCrash's cluster from a backup
// of node1 taken while the cluster is written to, and checks that the
// restore completed in order (backup, prepare, copy, start, Synced) and
// that node2 joined, by IST or SST; never how long each step took.
func checkRestore(t *testing.T, sbDir string, db *sql.DB, node2DSN string) {
	ctx, cancel := context.WithCancel(context.Background())
	writes := make(chan error, 1)
	go func() {
		var err error
		for i := 0; ctx.Err() == nil; i++ {
			if _, err = db.ExecContext(ctx, "UPDATE w SET v = v + 1 WHERE id = ?", 1+i%1000); ctx.Err() != nil {
				err = nil
			}
			if err != nil {
				break
			}
		}
		writes <- err
	}()
	code, out := runCaptured(t, "sandbox", "restore", "--name", "c", "--sandbox-dir", sbDir, "--node", "node2", "--from", "node1",
		"--use-memory", "100M", "--json", "-q")
	cancel()
	if err := <-writes; err != nil {
		t.Errorf("writes on node1 during the restore: %v", err)
	}
	if code != 0 {
		t.Fatalf("sandbox restore: exit %d\n%s", code, out)
	}
	var r struct {
		Node        string  `json:"node"`
		From        string  `json:"from"`
		Method      string  `json:"method"`
		BackupS     float64 `json:"backup_s"`
		PrepareS    float64 `json:"prepare_s"`
		CopyS       float64 `json:"copy_s"`
		JoinS       float64 `json:"join_s"`
		RestoreS    float64 `json:"restore_s"`
		RedoShare   float64 `json:"redo_share"`
		BackupBytes int64   `json:"backup_bytes"`
		Position    string  `json:"position"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("sandbox restore --json: %v\n%s", err, out)
	}
	t.Logf("restore: %+v", r)
	if r.Node != "node2" || r.From != "node1" || r.BackupBytes <= 0 || !strings.Contains(r.Position, ":") {
		t.Errorf("restore of node2 from node1: %+v", r)
	}
	if r.Method != sandbox.TransferIST && r.Method != sandbox.TransferSST {
		t.Errorf("node2 joined by %q, want ist or sst", r.Method)
	}
	// Each step ended after it began, and the restore holds the prepare,
	// the copy and the join.
	if r.BackupS < 0 || r.PrepareS < 0 || r.CopyS < 0 || r.JoinS < 0 || r.RestoreS < r.PrepareS || r.RedoShare < 0 || r.RedoShare > 1 {
		t.Errorf("restore steps out of order: %+v", r)
	}
	var state string
	node2, err := sql.Open("mysql", node2DSN)
	if err != nil {
		t.Fatal(err)
	}
	defer node2.Close()
	if err := node2.QueryRow("SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'wsrep_local_state_comment'").Scan(&state); err != nil || state != "Synced" {
		t.Errorf("node2 after its restore: %q, %v", state, err)
	}
}

// checkRecoveryTimeline checks the order of recovery.parquet's events for
// TestGaleraCrash's two crashes, never their durations: the crash, the
// first writable node, 2 of 3 Synced, all Synced; node3's short crash
// taken back by IST; after the whole cluster's crash, boot bootstrapped
// and the joiners' transfers bounded in order.
func checkRecoveryTimeline(t *testing.T, nodeRun, allRun, boot string) {
	t.Helper()
	var recs []results.Recovery
	for run, want := range map[string]int{nodeRun: 1, allRun: 3} {
		rs, err := results.ReadRecovery(run, func(err error) { t.Error(err) })
		if err != nil || len(rs) != want {
			t.Fatalf("%s/recovery.parquet: %d rows, %v; want %d", run, len(rs), err, want)
		}
		if run == nodeRun {
			recs = append(rs, recs...)
		} else {
			recs = append(recs, rs...)
		}
	}
	for _, r := range recs {
		t.Logf("action %d %s: crash %s, first writable %s, 2/3 Synced %s, all Synced %s; %s %s, transfer %s-%s, %d write-sets, %d bytes",
			r.Action, r.Node, r.CrashTime.Format(time.StampMilli), r.FirstWritableTime.Format(time.StampMilli),
			r.MinimalHATime.Format(time.StampMilli), r.AllSyncedTime.Format(time.StampMilli), r.Method, r.Node,
			r.TransferStartTime.Format(time.StampMilli), r.TransferEndTime.Format(time.StampMilli), r.TransferWritesets, r.TransferBytes)
		if r.ClusterSize != 3 || r.FirstWritableTime.IsZero() || r.MinimalHATime.IsZero() || r.AllSyncedTime.IsZero() ||
			r.FirstWritableTime.Before(r.CrashTime) || r.MinimalHATime.Before(r.FirstWritableTime) || r.AllSyncedTime.Before(r.MinimalHATime) {
			t.Errorf("action %d on %s: crash, first writable, 2 of 3 Synced, all Synced not in that order", r.Action, r.Node)
		}
		if r.SyncedTime.After(r.AllSyncedTime) || r.KilledTime.Before(r.CrashTime) {
			t.Errorf("action %d on %s: killed or Synced outside the action's timeline", r.Action, r.Node)
		}
		if r.Method == sandbox.TransferIST || r.Method == sandbox.TransferSST {
			if r.TransferStartTime.IsZero() || r.TransferEndTime.Before(r.TransferStartTime) || r.TransferStartTime.Before(r.StartedTime) {
				t.Errorf("action %d on %s: transfer %s to %s, started %s", r.Action, r.Node, r.TransferStartTime, r.TransferEndTime, r.StartedTime)
			}
		}
	}
	one := recs[0]
	if one.Action != 1 || one.Node != "node3" || one.Crashed != 1 || one.Method != sandbox.TransferIST || one.TransferWritesets < 1 {
		t.Errorf("node3's short crash: %+v; want it back by IST", one)
	}
	if !one.FirstWritableTime.Equal(one.CrashTime) || !one.AllSyncedTime.Equal(one.SyncedTime) {
		t.Errorf("node3's crash: the other two stayed writable, and all were Synced when node3 was: %+v", one)
	}
	for _, r := range recs[1:] {
		if r.Action != 1 || r.Crashed != 3 || !r.FirstWritableTime.After(r.CrashTime) {
			t.Errorf("crash of all, %s: %d killed, first writable not after the crash", r.Node, r.Crashed)
		}
		if (r.Node == boot) != (r.Method == sandbox.TransferBootstrap) {
			t.Errorf("crash of all, %s: %s, but %s bootstrapped", r.Node, r.Method, boot)
		}
	}
	if _, out := runCaptured(t, "report", allRun); !strings.Contains(out, "Recovery: seconds after the crash") {
		t.Errorf("report shows no recovery:\n%s", out)
	}
}

// checkWroteAgain checks that the workload of run wrote again on each
// node that its crash rows say was writable again a while before the
// run's end (a loaded machine makes a recovery long, and the run may end
// first: then nothing can be said).
func checkWroteAgain(t *testing.T, run string, rows []results.Action) {
	t.Helper()
	info := results.ReadRunInfo(run, func(err error) { t.Error(err) })
	back := map[string]time.Time{}
	for _, r := range rows {
		if r.WritableTime.Before(info.End.Add(-3 * time.Second)) {
			back[r.Endpoint] = r.WritableTime
		}
	}
	wrote := map[string]bool{}
	if _, err := results.ScanExecutions(run, nil, func(e *results.Execution) error {
		if at, ok := back[e.Endpoint]; ok && e.ErrorCode == 0 && e.Start.After(at) {
			wrote[e.Endpoint] = true
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(back) == 0 {
		t.Logf("%s: the recovery outlasted the run: no node writable 3 s before its end", run)
	}
	for ep := range back {
		if !wrote[ep] {
			t.Errorf("%s: %s: no write after it was writable again at %s", run, ep, back[ep].Format(time.StampMilli))
		}
	}
}

// run --sandbox NAME --buffer-pool-size sizes the sandbox's buffer pool for
// the run (recorded in run.json as the run saw it) and sets it back after;
// with a server named by --dsn it is refused, never ignored.
func TestRunBufferPoolOnASandbox(t *testing.T) {
	if _, err := sandbox.FindBinary(context.Background(), ""); err != nil {
		testdb.Skipf(t, "%v", err)
	}
	dir := t.TempDir()
	sbDir := filepath.Join(dir, "sandboxes")
	code, out := runCaptured(t, "sandbox", "start", "--name", "bp", "--sandbox-dir", sbDir, "--buffer-pool-size", "128M", "-q")
	t.Cleanup(func() { runCaptured(t, "sandbox", "stop", "--name", "bp", "--sandbox-dir", sbDir, "-q") })
	if code != 0 {
		t.Fatalf("sandbox start: exit %d\n%s", code, out)
	}
	dsn := strings.TrimSpace(out)
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE w (id INT PRIMARY KEY, v INT NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	resDir := filepath.Join(dir, "results")
	corpus := writeCorpus(t, dir)
	code, out = runCaptured(t, "run", "--sandbox", "bp", "--sandbox-dir", sbDir, "--corpus", corpus, "--no-builtin",
		"-s", "w_update", "--time", "1s", "--explain", "off", "--out", resDir, "--run-id", "small", "-q", "--buffer-pool-size", "16M")
	if code != 0 {
		t.Fatalf("run --buffer-pool-size 16M: exit %d\n%s", code, out)
	}
	info := results.ReadRunInfo(filepath.Join(resDir, "run=small"), func(err error) { t.Error(err) })
	if got := info.ServerVars["innodb_buffer_pool_size"]; got != "16777216" {
		t.Errorf("the run saw innodb_buffer_pool_size %q, want 16777216", got)
	}
	var after int64
	if err := db.QueryRow("SELECT @@innodb_buffer_pool_size").Scan(&after); err != nil || after != 128<<20 {
		t.Errorf("after the run the buffer pool is %d, %v; want 128M again", after, err)
	}
	code, _, stderr := runCapturedAll(t, "run", "--dsn", dsn, "--corpus", corpus, "--no-builtin",
		"-s", "w_update", "--time", "1s", "--out", resDir, "-q", "--buffer-pool-size", "16M")
	if code != 2 || !strings.Contains(stderr, "--buffer-pool-size") {
		t.Errorf("--dsn with --buffer-pool-size: exit %d, %q; want 2 naming the flag", code, stderr)
	}
}

// writeCorpus writes the one-scenario corpus of writeScenario under dir.
func writeCorpus(t *testing.T, dir string) string {
	t.Helper()
	corpus := filepath.Join(dir, "corpus")
	if err := os.MkdirAll(corpus, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(corpus, "w_update.sql"), []byte(writeScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	return corpus
}

// writeScenario is a corpus of one cheap write on a small table, so that
// a stall shows as a stretch without writes, not as noise of slow joins.
const writeScenario = `-- scenario: w_update
-- description: a one-row UPDATE on a small table
-- tags: write
-- param id: int(1,1000)
UPDATE w SET v = v + 1 WHERE id = {{id}};
`
