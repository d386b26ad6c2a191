package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/replay/results"
	"github.com/joinbench/joinbench/replay/stall"
)

// writeScenario is a corpus of one cheap write on a small table, so that
// a stall shows as a stretch without writes, not as noise of slow joins.
const writeScenario = `-- scenario: w_update
-- description: a one-row UPDATE on a small table
-- tags: write
-- param id: int(1,1000)
UPDATE w SET v = v + 1 WHERE id = {{id}};
`

// TestGaleraActions starts a real 3-node cluster sandbox, runs a write
// workload on every node and, during it, a TOI ALTER on node2, one large
// DELETE on node1 and its chunked twin. It checks what a user relies on:
// the ALTER stops writes on another node (node1) for a measured stretch,
// the chunked twin's longest stretch without writes is shorter than the
// single statement's, and actions.parquet records each action.
func TestGaleraActions(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a 3-node cluster; skipped with -short")
	}
	dir := t.TempDir()
	sbDir := filepath.Join(dir, "sandboxes")
	code, out := runCaptured(t, "sandbox", "start", "--name", "g", "--galera", "3", "--sandbox-dir", sbDir, "--buffer-pool-size", "128M", "-q")
	t.Cleanup(func() { runCaptured(t, "sandbox", "stop", "--name", "g", "--sandbox-dir", sbDir, "-q") })
	if code == 2 && strings.TrimSpace(out) == "" {
		testdb.Skipf(t, "no Galera cluster sandbox here (sandbox start --galera 3 exited 2: a missing server, galera-4, mariadb-backup or socat)")
	}
	if code != 0 {
		t.Fatalf("sandbox start --galera 3: exit %d\n%s", code, out)
	}
	dsns := strings.Fields(out)
	if len(dsns) != 3 {
		t.Fatalf("sandbox start printed %q, want 3 DSNs", out)
	}
	db, err := sql.Open("mysql", dsns[0])
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		"CREATE TABLE w (id INT PRIMARY KEY, v INT NOT NULL)",
		"INSERT INTO w SELECT seq, 0 FROM seq_1_to_1000",
		// Large enough that rebuilding it and deleting half of it take a
		// while on any machine, next to writes of a millisecond.
		"CREATE TABLE big (id INT PRIMARY KEY, pad CHAR(100) NOT NULL)",
		"INSERT INTO big SELECT seq, REPEAT('x', 100) FROM seq_1_to_200000",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	corpus := filepath.Join(dir, "corpus")
	if err := os.MkdirAll(corpus, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(corpus, "w_update.sql"), []byte(writeScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	resDir := filepath.Join(dir, "results")
	code, out = runCaptured(t, "run", "--sandbox", "g", "--sandbox-dir", sbDir, "--corpus", corpus, "--no-builtin",
		"-s", "w_update", "-t", "6", "--time", "45s", "--explain", "off", "--out", resDir, "--run-id", "acts", "--json", "-q",
		"--action", "2s@node2: sql: ALTER TABLE big FORCE",
		"--action", "16s@node1: sql: DELETE FROM big WHERE id <= 100000",
		"--action", "31s@node1: chunked 5000: DELETE FROM big WHERE id > 100000")
	if code != 0 {
		t.Fatalf("run: exit %d\n%s", code, out)
	}
	var sum struct {
		Actions []stall.Cost `json:"actions"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("summary: %v\n%s", err, out)
	}
	if len(sum.Actions) != 3 {
		t.Fatalf("%d actions in the summary, want 3\n%s", len(sum.Actions), out)
	}
	for _, c := range sum.Actions {
		if c.Outcome != results.ActionOK || len(c.Endpoints) != 3 {
			t.Fatalf("action %d (%s): %s, %d endpoints: %s", c.Action, c.Spec, c.Outcome, len(c.Endpoints), c.Error)
		}
	}
	alter, single, chunked := sum.Actions[0], sum.Actions[1], sum.Actions[2]
	// Under TOI node1 applies the ALTER in the cluster's order: its own
	// writes wait for it, for about as long as it runs.
	if got, took := alter.Endpoints[0].LongestZeroWriteMs, alter.Seconds*1000; got <= 0 || got < took/2 {
		t.Errorf("TOI ALTER on node2 ran %.0f ms; node1's longest stretch without writes is %.0f ms, want at least half of it", took, got)
	}
	longest := func(c stall.Cost) float64 {
		m := 0.0
		for _, e := range c.Endpoints {
			m = max(m, e.LongestZeroWriteMs)
		}
		return m
	}
	if s, c := longest(single), longest(chunked); c >= s {
		t.Errorf("longest stretch without writes: chunked DELETE %.0f ms, single DELETE %.0f ms; want the chunked one shorter", c, s)
	}

	// The report measures the same costs from the results files.
	code, out = runCaptured(t, "report", filepath.Join(resDir, "run=acts"), "--format", "json")
	var rep struct {
		Runs []struct {
			Actions []stall.Cost `json:"actions"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil || len(rep.Runs) != 1 {
		t.Fatalf("report: exit %d, %v\n%s", code, err, out)
	}
	if got, want := fmt.Sprint(rep.Runs[0].Actions), fmt.Sprint(sum.Actions); got != want {
		t.Errorf("the report's action costs differ from the run's summary:\nreport  %s\nsummary %s", got, want)
	}

	rows, err := results.ReadActions(filepath.Join(resDir, "run=acts"), func(err error) { t.Error(err) })
	if err != nil || len(rows) != 3 {
		t.Fatalf("actions.parquet: %d rows, %v", len(rows), err)
	}
	if r := rows[1]; r.Rows != 100000 || r.Node != "node1" || r.Kind != "sql" {
		t.Errorf("single DELETE row %+v", r)
	}
	if r := rows[2]; r.Rows != 100000 || r.Chunks < 20 || r.Kind != "chunked" {
		t.Errorf("chunked DELETE row: %d rows in %d chunks, want 100000 in at least 20", r.Rows, r.Chunks)
	}
}
