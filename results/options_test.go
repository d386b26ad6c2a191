package results

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// oldOptions is run.json's "options" as the run command wrote it when they
// were a map, every key present then (live_results, work and work_budget
// came later).
const oldOptions = `{"all":false,"checksum":true,"corpus":["bench/corpus"],"distribution":"uniform","events":0,` +
	`"exec_path":"direct","explain":"json","explain_every":10000,"ignore_errors":"1213,1205","no_builtin":true,` +
	`"ps_mode":"auto","query_timeout":"0s","rate":2000.5,"read_only":false,"reconnect":0,"scenario":["point_select_sbtest=10"],` +
	`"seed":18446744073709551615,"skip_trx":true,"table_name":"main","table_size":100000,"tables":1,"tags":null,` +
	`"threads":2,"time":"1m30s","warmup":"0s"}`

func TestRunOptionsReadOldRunJSON(t *testing.T) {
	var o RunOptions
	if err := json.Unmarshal([]byte(oldOptions), &o); err != nil {
		t.Fatal(err)
	}
	want := RunOptions{Scenario: []string{"point_select_sbtest=10"}, CorpusDirs: []string{"bench/corpus"}, NoBuiltin: true,
		Threads: 2, Time: Duration(90 * time.Second), Rate: 2000.5, SkipTrx: true, PsMode: PsAuto, ExecPath: ExecDirect,
		Seed: 1<<64 - 1, IgnoreErrors: "1213,1205", Distribution: "uniform", Tables: 1, TableSize: 100000, TableName: "main",
		Explain: ExplainJSON, ExplainEvery: 10000, Checksum: true}
	for _, k := range runOptionKeys {
		later := k == "live_results" || k == "work" || k == "work_budget"
		if got, want := o.Recorded(k), !later; got != want {
			t.Errorf("%s: recorded %v, want %v", k, got, want)
		}
	}
	read := o
	read.missing = nil
	if !reflect.DeepEqual(read, want) {
		t.Errorf("read\n %+v\nwant\n %+v", read, want)
	}
	// Written again, the options are the same bytes: the same keys, in the
	// same order, with the same values.
	b, err := json.Marshal(o)
	if err != nil || string(b) != oldOptions {
		t.Errorf("written again (%v):\n%s\nwant\n%s", err, b, oldOptions)
	}
}

func TestRunOptionsMissingKeys(t *testing.T) {
	var o RunOptions
	if err := json.Unmarshal([]byte(`{"threads": 4, "time": "10s"}`), &o); err != nil {
		t.Fatal(err)
	}
	if o.Threads != 4 || o.Time != Duration(10*time.Second) || !o.Recorded("threads") || o.Recorded("exec_path") || o.Recorded("seed") {
		t.Errorf("%+v: threads recorded %v, exec_path %v, seed %v", o, o.Recorded("threads"), o.Recorded("exec_path"), o.Recorded("seed"))
	}
	b, err := json.Marshal(&o)
	if err != nil || string(b) != `{"threads":4,"time":"10s"}` {
		t.Errorf("written again: %s, %v; want the keys it was read with only", b, err)
	}
	var fresh RunOptions
	if !fresh.Recorded("exec_path") {
		t.Error("options made in memory hold every key")
	}
	if err := json.Unmarshal([]byte(`{"time": "ten seconds"}`), &o); err == nil {
		t.Error("a time that is not a duration was read")
	}
}

func TestRunOptionKeysAreDistinct(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range runOptionKeys {
		if seen[k] || k == "" || k == "-" {
			t.Errorf("key %q", k)
		}
		seen[k] = true
	}
	if len(seen) != 28 {
		t.Errorf("%d keys, want the 25 run.json has always had, live_results, work and work_budget", len(seen))
	}
}
