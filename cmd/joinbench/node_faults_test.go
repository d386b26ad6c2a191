package main

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/results"
)

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

// writeScenario is a corpus of one cheap write on a small table, so that
// a stall shows as a stretch without writes, not as noise of slow joins.
const writeScenario = `-- scenario: w_update
-- description: a one-row UPDATE on a small table
-- tags: write
-- param id: int(1,1000)
UPDATE w SET v = v + 1 WHERE id = {{id}};
`
