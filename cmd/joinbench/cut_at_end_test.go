package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/results"
)

// TestRunRecordsStatementsCutAtTheEnd: a scenario that sleeps longer than
// the run is stopped when the run ends, and recorded as cut at the end
// with the time it had run, not lost and not an error; report shows it
// as such.
func TestRunRecordsStatementsCutAtTheEnd(t *testing.T) {
	dsn := testdb.Fresh(t, "cmd_cut_at_end")
	corpus := t.TempDir()
	for name, src := range map[string]string{
		"sleeper.sql": "-- scenario: sleeper\n-- description: sleeps longer than the run\nSELECT SLEEP(30)\n",
		"quick.sql":   "-- scenario: quick\n-- description: returns at once\nSELECT 1\n",
	} {
		if err := os.WriteFile(filepath.Join(corpus, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	const threads = 2
	code, stdout := runCaptured(t, "run", "--dsn", dsn, "--corpus", corpus, "--no-builtin", "-s", "quick", "-s", "sleeper",
		"--threads", "2", "--time", "1s", "--out", out, "--run-id", "cut", "--json", "-q")
	if code != 0 {
		t.Fatalf("run: exit %d\n%s", code, stdout)
	}
	var sum struct {
		Errors    int64 `json:"errors"`
		Cut       int64 `json:"cut_at_end"`
		Scenarios []struct {
			Scenario string  `json:"scenario"`
			Cut      int64   `json:"cut_at_end"`
			RanMs    float64 `json:"cut_ran_ms"`
		} `json:"scenarios"`
	}
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatalf("summary: %v\n%s", err, stdout)
	}
	if sum.Cut != threads || sum.Errors != 0 {
		t.Errorf("summary: %d cut at the end, %d errors; want %d and 0\n%s", sum.Cut, sum.Errors, threads, stdout)
	}

	// Each thread's SLEEP started before the time was up and was stopped
	// after the grace that follows it (5 s): it had run at least that long.
	dir := filepath.Join(out, "run=cut")
	const grace = 5 * time.Second
	var cut int
	if _, err := results.ScanExecutions(dir, nil, func(e *results.Execution) error {
		if !e.CutAtEnd {
			if e.ErrorCode != 0 {
				t.Errorf("%s: error %d: %s", e.Scenario, e.ErrorCode, e.ErrorMessage)
			}
			return nil
		}
		cut++
		if e.Scenario != "sleeper" || e.ErrorCode != results.ErrCutAtEnd || e.SQLState != "70100" || time.Duration(e.LatencyNs) < grace {
			t.Errorf("cut row: %s, error %d (%s) %q, ran %s", e.Scenario, e.ErrorCode, e.SQLState, e.ErrorMessage, time.Duration(e.LatencyNs))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if cut != threads {
		t.Errorf("%d rows cut at the end, want %d", cut, threads)
	}
	info := results.ReadRunInfo(dir, func(err error) { t.Errorf("run.json: %v", err) })
	if info == nil || info.CutAtEnd != threads || info.Errors != 0 {
		t.Errorf("run.json: %+v", info)
	}

	code, stdout = runCaptured(t, "report", dir, "--format", "json")
	if code != 0 {
		t.Fatalf("report: exit %d\n%s", code, stdout)
	}
	var rep struct {
		Runs []struct {
			Total     map[string]json.RawMessage   `json:"total"`
			Scenarios []map[string]json.RawMessage `json:"scenarios"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.Runs) != 1 {
		t.Fatalf("report: %v\n%s", err, stdout)
	}
	var sleeper map[string]json.RawMessage
	for _, s := range rep.Runs[0].Scenarios {
		if string(s["scenario"]) == `"sleeper"` {
			sleeper = s
		}
	}
	if sleeper == nil {
		t.Fatalf("report: no scenario sleeper\n%s", stdout)
	}
	var ranMs float64
	_ = json.Unmarshal(sleeper["cut_ran_ms"], &ranMs)
	if string(sleeper["executions"]) != "0" || string(sleeper["errors"]) != "0" || string(sleeper["cut_at_end"]) != "2" || ranMs < grace.Seconds()*1000 {
		t.Errorf("report, sleeper: %v", sleeper)
	}
	if tot := rep.Runs[0].Total; string(tot["errors"]) != "0" || string(tot["cut_at_end"]) != "2" {
		t.Errorf("report, total: %v", tot)
	}
	code, stdout = runCaptured(t, "report", dir)
	if code != 0 || !strings.Contains(stdout, "sleeper: 2 cut at the end") || !strings.Contains(stdout, "never completed, ran at least") ||
		strings.Contains(stdout, "Errors by code") {
		t.Errorf("report text: exit %d\n%s", code, stdout)
	}
}
