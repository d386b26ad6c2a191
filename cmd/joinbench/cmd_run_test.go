package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/replay"
	"github.com/joinbench/joinbench/replay/results"
)

func TestRunRetryErrors(t *testing.T) {
	for in, want := range map[string][]uint16{"1213,1205": {1213, 1205}, "none": {}, "": {}, " 1062 ": {1062}} {
		got, err := (&runCmd{IgnoreErrors: in}).retryErrors()
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %v, %v", in, got, err)
		}
	}
	if _, err := (&runCmd{IgnoreErrors: "1213,deadlock"}).retryErrors(); !usage.Is(err) {
		t.Errorf("err = %v", err)
	}
}

// TestRunCommand runs the command end to end on the test server and reads
// the run folder back.
func TestRunCommand(t *testing.T) {
	dsn := testdb.Fresh(t, "cmd_run")
	if code, _ := runCaptured(t, "prepare", "--dsn", dsn, "--table-size", "200", "-q"); code != 0 {
		t.Fatalf("prepare: exit %d", code)
	}
	out := t.TempDir()
	code, stdout := runCaptured(t, "run", "--dsn", dsn, "--table-size", "200", "-s", "simple_inner_pk=2",
		"-s", "index_updates", "--events", "10", "--threads", "2", "--out", out, "--run-id", "r1", "--json", "-q")
	if code != 0 {
		t.Fatalf("run: exit %d\n%s", code, stdout)
	}
	var sum replay.Summary
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if sum.RunID != "r1" || sum.Events != 10 || sum.Executions != 30 || sum.Errors != 0 || len(sum.Scenarios) != 2 {
		t.Fatalf("summary %+v", sum)
	}
	dir := filepath.Join(out, "run=r1")
	info := results.ReadRunInfo(dir, func(err error) { t.Error(err) })
	if info == nil || info.Executions != 30 || info.Flavor == "" || info.ServerVersion == "" || len(info.ServerVars) == 0 {
		t.Fatalf("run.json %+v", info)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), "tcp(") {
		t.Errorf("run.json holds a DSN:\n%s", raw)
	}
	n := 0
	if _, err := results.ScanExecutions(dir, func(err error) { t.Error(err) }, func(*results.Execution) error { n++; return nil }); err != nil || n != 30 {
		t.Errorf("read %d executions, %v", n, err)
	}
}
