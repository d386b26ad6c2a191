package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/results"
)

// TestDataChangedBetweenRunsIsNotAA is the attack on data
// identity: rows inserted into level1 between two runs on one server, away
// from the first, middle and last ids. Before the insertion, two runs are
// an A/A with work compared; after it, work is not compared (the reason
// names level1), the note does not call it an A/A and names the data, and
// no scenario is a regression by work.
func TestDataChangedBetweenRunsIsNotAA(t *testing.T) {
	dsn := testdb.Fresh(t, "cmd_identity")
	db := testdb.Open(t, "cmd_identity")
	if code, _ := runCaptured(t, "-q", "prepare", "--dsn", dsn, "--tables", "1", "--table-size", "2000"); code != 0 {
		t.Fatalf("prepare: exit %d", code)
	}
	out := t.TempDir()
	run := func(id string) string {
		args := []string{"-q", "run", "--dsn", dsn, "--out", out, "--run-id", id, "-t", "2", "--events", "8", "--table-size", "2000",
			"-s", "simple_inner_index", "-s", "simple_left_index", "-s", "multi_left_pk"}
		if code, _, stderr := runCapturedAll(t, args...); code != 0 {
			t.Fatalf("run %s: exit %d\n%s", id, code, stderr)
		}
		return filepath.Join(out, "run="+id)
	}
	a, a2 := run("a"), run("a2")
	_, aa := compareJSON(t, "-q", "compare", "--noise-floor", "1000%", a, a2)
	if aa.WorkSkipped != "" || !strings.Contains(strings.Join(aa.Notes, "\n"), "an A/A comparison, where nothing differs") {
		t.Fatalf("two runs on the same data: work skipped %q, notes %q", aa.WorkSkipped, aa.Notes)
	}

	// Rows inserted away from ids 1, 1000 and 2000: in the middle of the
	// id ranges (with ids of their own) and at the end.
	for _, q := range []string{
		"INSERT INTO level1 (continent, parent_id, l1_id, l2_id, record_status, record_priority) " +
			"SELECT continent, parent_id, l1_id, l2_id, record_status, record_priority FROM level1 WHERE id BETWEEN 300 AND 700",
		"UPDATE level1 SET parent_id = 17 WHERE id BETWEEN 1200 AND 1300",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	b := run("b")
	code, c := compareJSON(t, "-q", "compare", "--noise-floor", "1000%", a, b)
	notes := strings.Join(c.Notes, "\n")
	if !strings.Contains(c.WorkSkipped, "level1") || strings.Contains(notes, "an A/A comparison, where nothing differs") ||
		!strings.Contains(notes, "not as an A/A comparison: the data differ") || !strings.Contains(notes, "level1") {
		t.Errorf("after rows inserted into level1: work skipped %q, notes %q", c.WorkSkipped, notes)
	}
	for _, s := range c.Scenarios {
		if s.Work != nil {
			t.Errorf("%s: work compared on other data: %s %q", s.Scenario, s.Verdict, s.Reasons)
		}
	}
	t.Logf("compare exit %d, work skipped: %s", code, c.WorkSkipped)

	var info results.Run
	bs, err := os.ReadFile(filepath.Join(b, results.RunFile))
	if err != nil || json.Unmarshal(bs, &info) != nil || info.Dataset == nil {
		t.Fatalf("run.json of b: %v\n%s", err, bs)
	}
	if l1 := info.Dataset.Contents["level1"]; l1.Rows != 2401 || info.Dataset.ContentsAtEnd != nil {
		t.Errorf("run b's digest of level1 %+v (want 2,401 rows), at end %v (a read-only run takes none)", l1, info.Dataset.ContentsAtEnd)
	}
}

// TestContentsAtEndOfAWritingRun: a run whose scenarios wrote digests the
// data again when it ends.
func TestContentsAtEndOfAWritingRun(t *testing.T) {
	dsn := testdb.Fresh(t, "cmd_identity_write")
	if code, _ := runCaptured(t, "-q", "prepare", "--dsn", dsn, "--tables", "1", "--table-size", "500"); code != 0 {
		t.Fatalf("prepare: exit %d", code)
	}
	out := t.TempDir()
	if code, _, stderr := runCapturedAll(t, "-q", "run", "--dsn", dsn, "--out", out, "--run-id", "w", "-t", "1", "--events", "20",
		"--table-size", "500", "-s", "delete_inserts", "-s", "index_updates"); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	var info results.Run
	bs, err := os.ReadFile(filepath.Join(out, "run=w", results.RunFile))
	if err != nil || json.Unmarshal(bs, &info) != nil || info.Dataset == nil {
		t.Fatalf("run.json: %v\n%s", err, bs)
	}
	start, end := info.Dataset.Contents["main1"], info.Dataset.ContentsAtEnd["main1"]
	if start.Rows != 500 || end.Checksum == "" || end.Checksum == start.Checksum {
		t.Errorf("main1 at start %+v, at end %+v: want both, the writes seen", start, end)
	}
}
