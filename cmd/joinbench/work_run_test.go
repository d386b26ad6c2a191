package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/internal/testdb"
)

// workTableSize is the dataset: at this size dropping
// idx_parent_id turns simple_inner_index's ref into a range scan of
// 6,600 level1 rows.
const workTableSize = "20000"

// compareJSON runs compare (or ab) with args and reads its JSON output.
func compareJSON(t *testing.T, args ...string) (int, compare.Comparison) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "c.json")
	code, _, stderr := runCapturedAll(t, append(args, "--format", "json", "-o", out)...)
	var c compare.Comparison
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("%s: exit %d, no output: %v\n%s", args[0], code, err, stderr)
	}
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	return code, c
}

func scenariosOf(c compare.Comparison) map[string]compare.ScenarioComparison {
	m := map[string]compare.ScenarioComparison{}
	for _, s := range c.Scenarios {
		m[s.Scenario] = s
	}
	return m
}

// checkSameWork: every scenario's work is exactly that of the other side,
// and no scenario is flagged.
func checkSameWork(t *testing.T, what string, c compare.Comparison) {
	t.Helper()
	if c.WorkSkipped != "" {
		t.Fatalf("%s: work not compared: %s", what, c.WorkSkipped)
	}
	for _, s := range c.Scenarios {
		if s.Work == nil || s.Work.Change != compare.WorkSame {
			t.Errorf("%s, %s: work %+v", what, s.Scenario, s.Work)
			continue
		}
		for _, f := range s.Work.Figures {
			if f.Ratio != 1 {
				t.Errorf("%s, %s: %s ratio %v, want exactly 1", what, s.Scenario, f.Name, f.Ratio)
			}
		}
		if s.Verdict == compare.Regression || s.Verdict == compare.Improvement || s.Verdict == compare.WrongResults {
			t.Errorf("%s, %s: false verdict %s: %q", what, s.Scenario, s.Verdict, s.Reasons)
		}
	}
}

// workRuns prepares the work workflow's dataset (1 x workTableSize rows)
// on dsn and returns what runs scenarios on it, 2 threads and events
// events with the default seed, into a run folder named by id.
func workRuns(t *testing.T, dsn string) func(id, dsn, events string, scenarios ...string) string {
	t.Helper()
	if code, _ := runCaptured(t, "-q", "prepare", "--dsn", dsn, "--tables", "1", "--table-size", workTableSize); code != 0 {
		t.Fatalf("prepare: exit %d", code)
	}
	out := t.TempDir()
	return func(id, dsn, events string, scenarios ...string) string {
		t.Helper()
		args := []string{"-q", "run", "--dsn", dsn, "--out", out, "--run-id", id, "-t", "2", "--events", events, "--table-size", workTableSize}
		args = append(args, scenarios...)
		if code, _, stderr := runCapturedAll(t, args...); code != 0 {
			t.Fatalf("run %s: exit %d\n%s", id, code, stderr)
		}
		return filepath.Join(out, "run="+id)
	}
}

// TestWorkSingleRunWorkflow is the workflow with single runs:
// prepare 1 x 20,000 rows, run simple_inner_index and simple_left_pk with
// 2 threads and 200 events, again with the same seed (A/A: the same work,
// exactly, and no verdict), drop idx_parent_id, run again: compare exits 1
// with simple_inner_index a regression by its work, its line naming level1
// and the index, and simple_left_pk, which does not use the index,
// unchanged. TestWorkEveryReadScenario (end-to-end suite) runs every read
// scenario the same way.
func TestWorkSingleRunWorkflow(t *testing.T) {
	dsn := testdb.Fresh(t, "cmd_work_single")
	db := testdb.Open(t, "cmd_work_single")
	run := workRuns(t, dsn)
	workflow := []string{"-s", "simple_inner_index", "-s", "simple_left_pk"}
	a := run("a", dsn, "200", workflow...)
	b := run("b", dsn, "200", workflow...)
	// The noise floor keeps the time of a machine busy with other tests
	// out of the A/A (two single runs drifted 2.3x under the whole suite):
	// what is tested is that work makes no false verdict.
	code, aa := compareJSON(t, "-q", "compare", "--noise-floor", "1000%", a, b)
	checkSameWork(t, "A/A", aa)
	if code != 0 {
		t.Errorf("A/A compare: exit %d: %+v", code, aa.Failures)
	}

	if _, err := db.Exec("ALTER TABLE level1 DROP INDEX idx_parent_id"); err != nil {
		t.Fatal(err)
	}
	c := run("c", dsn, "200", workflow...)
	code, dropped := compareJSON(t, "-q", "compare", a, c)
	s := scenariosOf(dropped)
	idx, pk := s["simple_inner_index"], s["simple_left_pk"]
	t.Logf("dropped index: %s %q", idx.Verdict, idx.Reasons)
	if code != 1 || idx.Verdict != compare.Regression || idx.Work == nil || idx.Work.Change != compare.WorkMore ||
		!strings.Contains(idx.Reasons[0], "level1") || !strings.Contains(idx.Reasons[0], "idx_parent_id") {
		t.Errorf("dropped index: exit %d, simple_inner_index %s, work %+v, reasons %q", code, idx.Verdict, idx.Work, idx.Reasons)
	}
	if pk.Work == nil || pk.Work.Change != compare.WorkSame {
		t.Errorf("simple_left_pk does not use the index, yet its work is %s", workChange(pk.Work))
	}
	// The text line says it in a DBA's words, in lines a terminal shows.
	_, text, _ := runCapturedAll(t, "-q", "compare", a, c)
	if !strings.Contains(text, "simple_inner_index  regression") || !strings.Contains(text, "ref on idx_parent_id") {
		t.Errorf("text output:\n%s", text)
	}
	for _, l := range strings.Split(text, "\n") {
		if len([]rune(l)) > 100 {
			t.Errorf("line of %d characters: %s", len([]rune(l)), l)
		}
	}
}

// writeScenariosOff turns off the built-in scenarios that write, after
// --all; with --read-only a write scenario added later fails the run
// rather than the A/A.
var writeScenariosOff = []string{"-s", "update_multi_inner_join_pk=0", "-s", "update_multi_left_join_pk=0",
	"-s", "update_multi_right_join_pk=0", "-s", "delete_inserts=0", "-s", "index_updates=0", "-s", "point_update=0"}

func workChange(wc *compare.WorkComparison) string {
	if wc == nil {
		return "not compared"
	}
	if t := wc.Text(); t != "" {
		return fmt.Sprintf("%s (%s)", wc.Change, t)
	}
	return wc.Change
}

// TestWorkAB: ab in lockstep between a base and a candidate that lost
// idx_parent_id flags simple_inner_index by its work (exit 1), naming
// level1 and the index.
func TestWorkAB(t *testing.T) {
	base := testdb.Fresh(t, "cmd_work_ab_base")
	cand := testdb.Fresh(t, "cmd_work_ab_cand")
	candDB := testdb.Open(t, "cmd_work_ab_cand") // before prepare: Open makes the database afresh
	for _, dsn := range []string{base, cand} {
		if code, _ := runCaptured(t, "-q", "prepare", "--dsn", dsn, "--tables", "1", "--table-size", workTableSize); code != 0 {
			t.Fatalf("prepare: exit %d", code)
		}
	}
	if _, err := candDB.Exec("ALTER TABLE level1 DROP INDEX idx_parent_id"); err != nil {
		t.Fatal(err)
	}
	code, c := compareJSON(t, "-q", "ab", "--base", base, "--candidate", cand, "-s", "simple_inner_index", "-s", "simple_left_pk",
		"--table-size", workTableSize, "--threads", "2", "--time", "2s", "--rounds", "2", "--warmup", "200ms",
		"--run-id", "wab", "--out", t.TempDir())
	s := scenariosOf(c)
	idx, pk := s["simple_inner_index"], s["simple_left_pk"]
	t.Logf("ab: simple_inner_index %s %q; simple_left_pk %s, work %s", idx.Verdict, idx.Reasons, pk.Verdict, workChange(pk.Work))
	if code != 1 || idx.Verdict != compare.Regression || idx.Work == nil || idx.Work.Change != compare.WorkMore ||
		!strings.Contains(idx.Reasons[0], "level1") || !strings.Contains(idx.Reasons[0], "idx_parent_id") {
		t.Errorf("ab: exit %d, simple_inner_index %s, work %+v (skipped: %q)", code, idx.Verdict, idx.Work, c.WorkSkipped)
	}
	if pk.Work == nil || pk.Work.Change != compare.WorkSame {
		t.Errorf("simple_left_pk: work %s", workChange(pk.Work))
	}
}
