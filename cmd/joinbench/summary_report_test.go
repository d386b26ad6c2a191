package main

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/testdb"
)

// TestSummaryEqualsReport runs small runs end to end on the test server,
// unpaced (with a warmup, which neither counts) and paced, and checks that
// every figure the summary of `run --json` prints is, to the digit, the one
// `report --format json` computes from the results files.
func TestSummaryEqualsReport(t *testing.T) {
	dsn := testdb.Fresh(t, "cmd_agree")
	if code, _ := runCaptured(t, "prepare", "--dsn", dsn, "--table-size", "200", "-q"); code != 0 {
		t.Fatalf("prepare: exit %d", code)
	}
	out := t.TempDir()
	for id, extra := range map[string][]string{
		"unpaced": {"--events", "60", "--warmup", "300ms"},
		"paced":   {"--events", "40", "--rate", "200"},
	} {
		args := append([]string{"run", "--dsn", dsn, "--table-size", "200", "-s", "simple_inner_pk=2", "-s", "index_updates",
			"--threads", "2", "--out", out, "--run-id", id, "--json", "-q"}, extra...)
		code, stdout := runCaptured(t, args...)
		if code != 0 {
			t.Fatalf("%s: run: exit %d\n%s", id, code, stdout)
		}
		var sum struct {
			Elapsed   json.RawMessage              `json:"elapsed_seconds"`
			Execs     json.RawMessage              `json:"executions"`
			Errors    json.RawMessage              `json:"errors"`
			Retries   json.RawMessage              `json:"retries"`
			Conflicts json.RawMessage              `json:"conflicts"`
			QPS       json.RawMessage              `json:"queries_per_second"`
			Scenarios []map[string]json.RawMessage `json:"scenarios"`
		}
		if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
			t.Fatalf("%s: summary: %v\n%s", id, err, stdout)
		}
		code, stdout = runCaptured(t, "report", filepath.Join(out, "run="+id), "--format", "json")
		if code != 0 {
			t.Fatalf("%s: report: exit %d\n%s", id, code, stdout)
		}
		var rep struct {
			Runs []struct {
				Start, End time.Time
				Total      map[string]json.RawMessage   `json:"total"`
				Scenarios  []map[string]json.RawMessage `json:"scenarios"`
			} `json:"runs"`
		}
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.Runs) != 1 {
			t.Fatalf("%s: report: %v\n%s", id, err, stdout)
		}
		rr := rep.Runs[0]
		same := func(what string, s, r json.RawMessage) {
			t.Helper()
			if len(s) == 0 || string(s) != string(r) {
				t.Errorf("%s: %s: summary %s, report %s", id, what, s, r)
			}
		}
		same("executions", sum.Execs, rr.Total["executions"])
		same("errors", sum.Errors, rr.Total["errors"])
		same("retries", sum.Retries, rr.Total["retries"])
		same("conflicts", sum.Conflicts, rr.Total["conflicts"])
		same("queries/s", sum.QPS, rr.Total["queries_per_second"])
		elapsed, _ := json.Marshal(rr.End.Sub(rr.Start).Seconds())
		same("elapsed", sum.Elapsed, elapsed)
		if len(sum.Scenarios) != 2 || len(rr.Scenarios) != 2 {
			t.Fatalf("%s: %d scenarios in the summary, %d in the report", id, len(sum.Scenarios), len(rr.Scenarios))
		}
		for i, s := range sum.Scenarios {
			r := rr.Scenarios[i]
			same("scenario", s["scenario"], r["scenario"])
			for _, k := range []string{"executions", "errors", "mean_ms", "p50_ms", "p95_ms", "p99_ms", "max_ms", "queries_per_second", "retries", "conflicts"} {
				same(string(s["scenario"])+" "+k, s[k], r[k])
			}
		}
	}
}
