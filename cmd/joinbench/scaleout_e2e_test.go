//go:build e2e

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/joinbench/joinbench/analysis/report"
	"github.com/joinbench/joinbench/internal/sqllex"
	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/results"
)

// runProcesses runs joinbench once per argument list, as child processes
// side by side, and fails the test if one fails, with the output of every
// one that failed: a segment waiting at the barrier for the others fails
// too, and its error alone would hide why they never came.
func runProcesses(t *testing.T, argLists [][]string) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]string, len(argLists))
	for i, args := range argLists {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), mainArgsEnv+"="+strings.Join(args, "\x1f"))
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[i] = fmt.Sprintf("%s: %v\n%s", strings.Join(args, " "), err, out)
			}
		}()
	}
	wg.Wait()
	for _, e := range errs {
		if e != "" {
			t.Error(e)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
}

// TestScaleOutThreeProcesses splits a prepare and a run 3 ways over 3
// local processes against one server: the tables are those of one
// prepare, the run has exactly the events one process would, none twice,
// every file has one schema, and the report of the run is the sum of its
// parts.
func TestScaleOutThreeProcesses(t *testing.T) {
	one, split := testdb.Fresh(t, "cmd_scale_one"), testdb.Fresh(t, "cmd_scale_split")
	common := []string{"-q", "prepare", "--table-size", "900", "--seed", "4", "--chunk-size", "100"}
	runProcesses(t, [][]string{append(common, "--dsn", one)})
	var segs [][]string
	for i := 1; i <= 3; i++ {
		segs = append(segs, append(common, "--dsn", split, "--segment", fmt.Sprintf("%d/3", i)))
	}
	runProcesses(t, segs)
	dbOne, dbSplit := openDB(t, one), openDB(t, split)
	for _, tab := range []string{"main1", "level1", "level2", "level3", "level4", "level5"} {
		var n1, n2 string
		var s1, s2 int64
		q := "CHECKSUM TABLE " + sqllex.QuoteIdent(tab)
		if err := dbOne.QueryRow(q).Scan(&n1, &s1); err != nil {
			t.Fatal(err)
		}
		if err := dbSplit.QueryRow(q).Scan(&n2, &s2); err != nil {
			t.Fatal(err)
		}
		if s1 != s2 {
			t.Errorf("%s: checksum %d split 3 ways, %d in one process", tab, s2, s1)
		}
	}

	out := t.TempDir()
	run := []string{"-q", "run", "--dsn", split, "--out", out, "-s", "simple_inner_pk=1", "--table-size", "900",
		"--threads", "4", "--events", "31", "--skip-trx", "--report-interval", "0",
		// A segment that never comes fails the others in minutes, not ten.
		"--barrier-timeout", "2m"}
	runProcesses(t, [][]string{append(run, "--run-id", "one")})
	segs = nil
	for i := 1; i <= 3; i++ {
		segs = append(segs, append(run, "--run-id", "split", "--segment", fmt.Sprintf("%d/3", i)))
	}
	runProcesses(t, segs)

	type key struct {
		seg, thread int32
		event       int64
	}
	events := func(dir string) (map[key]int, []string) {
		seen := map[key]int{}
		if _, err := results.ScanExecutions(dir, func(err error) { t.Error(err) }, func(e *results.Execution) error {
			seen[key{e.Segment, e.Thread, e.Event}]++
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		files, _ := results.ExecutionFiles(dir)
		return seen, files
	}
	oneEvents, _ := events(filepath.Join(out, "run=one"))
	splitDir := filepath.Join(out, "run=split")
	splitEvents, files := events(splitDir)
	if len(oneEvents) != 31 || len(splitEvents) != 31 {
		t.Fatalf("%d events in one process, %d split 3 ways: want 31 each", len(oneEvents), len(splitEvents))
	}
	perSegment := map[int32]int{}
	for k, n := range splitEvents {
		if n != 1 || k.seg < 1 || k.seg > 3 {
			t.Errorf("event %+v recorded %d times", k, n)
		}
		perSegment[k.seg]++
	}
	if perSegment[1] != 11 || perSegment[2] != 10 || perSegment[3] != 10 {
		t.Errorf("events per segment %v, want 11, 10, 10", perSegment)
	}

	schema := ""
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pf, err := parquet.OpenFile(strings.NewReader(string(b)), int64(len(b)))
		if err != nil {
			t.Fatal(err)
		}
		if s := pf.Schema().String(); schema == "" {
			schema = s
		} else if s != schema {
			t.Errorf("%s: schema differs from the run's other files:\n%s\n%s", f, s, schema)
		}
	}

	code, js := runCaptured(t, "-q", "report", "--format", "json", splitDir)
	var rep report.Report
	if code != 0 || json.Unmarshal([]byte(js), &rep) != nil || len(rep.Runs) != 1 {
		t.Fatalf("report: exit %d\n%s", code, js)
	}
	rr := rep.Runs[0]
	var clients int64
	for _, c := range rr.Clients {
		clients += c.Executions
	}
	var parts int64
	for _, s := range results.ReadSegments(splitDir, nil) {
		parts += s.Executions
	}
	if len(rr.Clients) != 3 || rr.Total.Executions != 31 || clients != 31 || parts != 31 || rr.Info.Executions != 31 {
		t.Errorf("report: %d clients, total %d, clients add to %d, segment files to %d, run info %d: want 3 clients and 31 everywhere",
			len(rr.Clients), rr.Total.Executions, clients, parts, rr.Info.Executions)
	}
	for _, w := range rr.Warnings {
		if strings.Contains(w, "missing") {
			t.Errorf("warning: %s", w)
		}
	}
}

// TestScaleOutActionOnce: an action of a run split over two processes is
// the run's, not each client's: it is performed once (by segment 1),
// recorded once, and the report of the whole run shows it.
func TestScaleOutActionOnce(t *testing.T) {
	dsn := testdb.Fresh(t, "cmd_scale_action")
	db := openDB(t, dsn)
	for _, q := range []string{
		"CREATE TABLE w (id INT PRIMARY KEY, v INT NOT NULL)",
		"INSERT INTO w SELECT seq, 0 FROM seq_1_to_1000",
		"CREATE TABLE done (id INT AUTO_INCREMENT PRIMARY KEY)",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	corpus := t.TempDir()
	if err := os.WriteFile(filepath.Join(corpus, "w_update.sql"), []byte(writeScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	var segs [][]string
	for i := 1; i <= 2; i++ {
		segs = append(segs, []string{"-q", "run", "--dsn", dsn, "--out", out, "--corpus", corpus, "--no-builtin", "-s", "w_update",
			"--threads", "2", "--time", "3s", "--skip-trx", "--explain", "off", "--report-interval", "0", "--barrier-timeout", "2m",
			"--run-id", "split", "--segment", fmt.Sprintf("%d/2", i), "--action", "0s@1: sql: INSERT INTO done VALUES ()"})
	}
	runProcesses(t, segs)
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM done").Scan(&n); err != nil || n != 1 {
		t.Errorf("the action ran %d times (%v), want once", n, err)
	}
	dir := filepath.Join(out, "run=split")
	rows, err := results.ReadActions(dir, func(err error) { t.Error(err) })
	if err != nil || len(rows) != 1 || rows[0].Outcome != results.ActionOK {
		t.Fatalf("actions.parquet: %+v, %v; want one action done", rows, err)
	}
	code, js := runCaptured(t, "-q", "report", "--format", "json", dir)
	var rep report.Report
	if code != 0 || json.Unmarshal([]byte(js), &rep) != nil || len(rep.Runs) != 1 {
		t.Fatalf("report: exit %d\n%s", code, js)
	}
	if rr := rep.Runs[0]; len(rr.Actions) != 1 || len(rr.Clients) != 2 {
		t.Errorf("report: %d actions, %d clients; want 1 and 2", len(rr.Actions), len(rr.Clients))
	}
}
