package main

import (
	"database/sql"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/alecthomas/kong"

	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/replay"
	"github.com/joinbench/joinbench/results"
)

// TestRunOptions: the flags map to the run's options, which encode with the
// keys, order and default values run.json always had (the session sorts the
// scenario specs before recording them).
func TestRunOptions(t *testing.T) {
	var c cli
	parser, err := kong.New(&c, cliVars())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.Parse([]string{"run", "-s", "b=2", "-s", "a", "--corpus", t.TempDir(), "--rate", "2.5", "--exec-path", "driver"}); err != nil {
		t.Fatal(err)
	}
	o := c.Run.options(&c)
	if o.Threads != 1 || o.Rate != 2.5 || o.ExecPath != results.ExecDriver || o.PsMode != results.PsAuto ||
		o.Explain != results.ExplainJSON || o.ReportInterval != time.Second || o.Out != c.Run.Out || o.ToolVersion != version {
		t.Errorf("options %+v", o)
	}
	o.CorpusDirs = []string{"dir"}
	sess, err := replay.NewSession(o)
	if err == nil || sess != nil {
		t.Fatalf("scenarios a and b do not exist, yet the session was made: %v", err)
	}
	b, err := json.Marshal(o.RunOptions)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"all":false,"checksum":false,"corpus":["dir"],"distribution":"uniform","events":0,"exec_path":"driver",` +
		`"explain":"json","explain_every":10000,"ignore_errors":"1213,1205","live_results":false,"no_builtin":false,"ps_mode":"auto",` +
		`"query_timeout":"0s","rate":2.5,"read_only":false,"reconnect":0,"scenario":["b=2","a"],"seed":1,"skip_trx":false,` +
		`"table_name":"main","table_size":10000,"tables":1,"tags":null,"threads":1,"time":"0s","warmup":"0s","work":"sample","work_budget":0.01}`
	if string(b) != want {
		t.Errorf("options as run.json records them:\n%s\nwant\n%s", b, want)
	}
}

// TestRunUsageErrorsComeFirst: mistakes in the options are reported (exit
// 2, one line naming the flag) before any server is connected to or
// started and before any folder is made.
func TestRunUsageErrorsComeFirst(t *testing.T) {
	t.Setenv("JOINBENCH_DSN", "")
	t.Setenv("JOINBENCH_SERVER_BINARY", "/nonexistent/mariadbd")
	out := t.TempDir()
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"--ignore-errors", "1213,deadlock"}, "--ignore-errors"},
		{[]string{"--threads", "0"}, "--threads"},
		{[]string{"--threads", "100000"}, "--threads"},
		{[]string{"--tables", "1000000"}, "--tables"},
		{[]string{"--table-size", "0"}, "--table-size"},
		{[]string{"--events", "-1"}, "--events"},
		{[]string{"--time=-1s"}, "--time"},
		{[]string{"--warmup=-1s"}, "--warmup"},
		{[]string{"--rate=-5"}, "--rate"},
		{[]string{"--rate=NaN"}, "--rate"},
		{[]string{"--rate=+Inf"}, "--rate"},
		{[]string{"--query-timeout=-1s"}, "--query-timeout"},
		{[]string{"--reconnect=-1"}, "--reconnect"},
		{[]string{"--explain-every=-1"}, "--explain-every"},
		{[]string{"--report-interval=-1s"}, "--report-interval"},
		{[]string{"--report-interval=1ns"}, "--report-interval"},
		{[]string{"--run-id", "a=b"}, "--run-id"},
		{[]string{"--out", file}, "--out"},
		{[]string{"-s", "no_such_scenario"}, "no_such_scenario"},
	} {
		args := append([]string{"run", "-q", "--out", out, "-s", "simple_inner_pk"}, c.args...)
		code, _, stderr := runCapturedAll(t, args...)
		if code != 2 || !strings.Contains(stderr, c.flag) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%v: exit %d, %q; want 2 and one line naming %s", c.args, code, stderr, c.flag)
		}
	}
	if entries, _ := os.ReadDir(out); len(entries) > 0 {
		t.Errorf("a run folder was made: %v", entries)
	}
}

// runCapturedAll is runCaptured that also returns what went to stderr.
func runCapturedAll(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stderr
	os.Stderr = w
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	code, stdout = runCaptured(t, args...)
	os.Stderr = old
	w.Close()
	return code, stdout, <-done
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
	if !slices.Equal(info.WriteScenarios, []string{"index_updates"}) || len(info.WriteKinds) != 1 ||
		!slices.Equal(info.WriteKinds["index_updates"], []string{"dml"}) {
		t.Errorf("run.json write scenarios %v, kinds %v; want index_updates: [dml]", info.WriteScenarios, info.WriteKinds)
	}
	if o := info.Options; o == nil || o.Threads != 2 || o.Events != 10 || o.TableSize != 200 ||
		!slices.Equal(o.Scenario, []string{"index_updates", "simple_inner_pk=2"}) || o.ExecPath != results.ExecDirect {
		t.Errorf("run.json options %+v", o)
	}
	// The test server speaks plain TCP: the workers took the direct path.
	if p := info.ExecPaths; len(p) != 1 || p[0].Endpoint != info.Endpoints[0] || p[0].Path != results.PathDirect ||
		p[0].DirectConnections < 2 || p[0].DriverConnections != 0 {
		t.Errorf("run.json exec paths %+v", p)
	}
	n := 0
	if _, err := results.ScanExecutions(dir, func(err error) { t.Error(err) }, func(*results.Execution) error { n++; return nil }); err != nil || n != 30 {
		t.Errorf("read %d executions, %v", n, err)
	}
}

// A run whose --table-size is not the prepared one is warned of, naming
// the size the tables have; a run on the prepared size is not.
func TestRunWarnsOfAnotherTableSize(t *testing.T) {
	dsn := testdb.Fresh(t, "cmd_run_size")
	if code, _ := runCaptured(t, "prepare", "--dsn", dsn, "--table-size", "300", "-q"); code != 0 {
		t.Fatalf("prepare: exit %d", code)
	}
	for _, tc := range []struct {
		size string
		warn bool
	}{{"300", false}, {"1000", true}} {
		code, _, stderr := runCapturedAll(t, "run", "--dsn", dsn, "--table-size", tc.size, "-s", "simple_inner_pk",
			"--events", "2", "--out", t.TempDir(), "--explain", "off")
		if code != 0 {
			t.Fatalf("run --table-size %s: exit %d\n%s", tc.size, code, stderr)
		}
		want := "prepared with --table-size 300; this run draws ids in 1..1000"
		if got := strings.Contains(stderr, want); got != tc.warn {
			t.Errorf("run --table-size %s: warned %v, want %v:\n%s", tc.size, got, tc.warn, stderr)
		}
	}
}

// An action past the end of the run, or on an endpoint the run does not
// have, is a usage error before anything runs.
func TestRunActionMistakes(t *testing.T) {
	dsn := testdb.Fresh(t, "cmd_actions")
	out := t.TempDir()
	// The messages are tested in package replay.
	for _, action := range []string{
		"10s@1: sql: SELECT 1",       // past the end
		"1s@node7: sql: SELECT 1",    // no such endpoint
		"1s@1: pause 1s",             // not a sandbox
		"1s@1: slow 21% io for 5s",   // not a sandbox
		"1s@1: crash",                // not a sandbox
		"1s@1: chunked 10: SELECT 1", // not a DELETE or UPDATE
	} {
		code, stdout := runCaptured(t, "run", "--dsn", dsn, "-s", "simple_inner_pk", "--time", "10s", "--out", out, "-q", "--action", action)
		if code != 2 {
			t.Errorf("--action %q: exit %d, want 2\n%s", action, code, stdout)
		}
		if m, _ := filepath.Glob(filepath.Join(out, "run=*")); len(m) > 0 {
			t.Fatalf("--action %q: a run folder was made: %v", action, m)
		}
	}
}

// TestPrepareRefusesAbsurdTables: prepare takes --tables within the same
// bound as run, before connecting (the built-in schema of a million tables
// took minutes to build).
func TestPrepareRefusesAbsurdTables(t *testing.T) {
	code, _, stderr := runCapturedAll(t, "prepare", "--dsn", "root@tcp(127.0.0.1:1)/x", "--tables", "1000000")
	if code != 2 || !strings.Contains(stderr, "--tables") {
		t.Errorf("exit %d, %q; want 2 naming --tables", code, stderr)
	}
}

// ddlCorpus writes a corpus folder of two scenarios that destroy the table
// orders, DROP TABLE and TRUNCATE TABLE (after a comment), and returns it.
func ddlCorpus(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "mine"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string]string{
		"drop_orders.sql":     "-- count: 1\nSELECT COUNT(*) FROM orders;\nDROP TABLE orders\n",
		"truncate_orders.sql": "-- count: 1\n/* start again */ TRUNCATE TABLE orders\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, "mine", name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestRunReadOnlyRefusesDDL: --read-only refuses a scenario holding DROP
// TABLE or TRUNCATE TABLE with one line naming its file:line:col and the
// statement's kind, exit 2, before connecting (the DSN names no server)
// and before making a run folder.
func TestRunReadOnlyRefusesDDL(t *testing.T) {
	dir := ddlCorpus(t)
	out := t.TempDir()
	for _, c := range []struct {
		scenario, where, what string
	}{
		{"drop_orders", filepath.Join(dir, "mine", "drop_orders.sql") + ":3:1:", "statement 2 of scenario drop_orders is ddl, not a plain read: DROP TABLE orders"},
		{"truncate_orders", filepath.Join(dir, "mine", "truncate_orders.sql") + ":2:19:", "statement 1 of scenario truncate_orders is ddl, not a plain read: TRUNCATE TABLE orders"},
	} {
		code, _, stderr := runCapturedAll(t, "run", "-q", "--dsn", "root@tcp(127.0.0.1:1)/x", "--corpus", dir, "--no-builtin",
			"-s", c.scenario, "--read-only", "--events", "1", "--out", out)
		if code != 2 || !strings.HasPrefix(stderr, "joinbench: "+c.where) || !strings.Contains(stderr, c.what) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%s: exit %d, %q; want 2 and one line starting %s and saying %q", c.scenario, code, stderr, c.where, c.what)
		}
	}
	code, _, stderr := runCapturedAll(t, "run", "-q", "--dsn", "root@tcp(127.0.0.1:1)/x", "--corpus", dir, "--no-builtin",
		"--all", "--read-only", "--out", out)
	if code != 2 || !strings.Contains(stderr, "1 more scenario(s) not read-only: truncate_orders (ddl)") {
		t.Errorf("--all: exit %d, %q; want 2 naming the other scenario", code, stderr)
	}
	if entries, _ := os.ReadDir(out); len(entries) > 0 {
		t.Errorf("a run folder was made: %v", entries)
	}
}

// TestRunReadOnlyKeepsTables: on a server, a --read-only run of scenarios
// that drop and empty a table leaves it as it was; without --read-only
// they run, and run.json lists them with their kind.
func TestRunReadOnlyKeepsTables(t *testing.T) {
	dsn := testdb.Fresh(t, "cmd_read_only")
	db := openDB(t, dsn)
	for _, q := range []string{"CREATE TABLE orders (id INT PRIMARY KEY)", "INSERT INTO orders VALUES (1), (2), (3)"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	dir := ddlCorpus(t)
	out := t.TempDir()
	code, _, stderr := runCapturedAll(t, "run", "-q", "--dsn", dsn, "--corpus", dir, "--no-builtin", "-s", "truncate_orders",
		"-s", "drop_orders", "--read-only", "--events", "1", "--out", out, "--run-id", "refused")
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM orders").Scan(&n); err != nil || n != 3 {
		t.Errorf("after a refused --read-only run (exit %d, %q): %d rows, %v; want the 3 rows kept", code, stderr, n, err)
	}
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	code, _, stderr = runCapturedAll(t, "run", "-q", "--dsn", dsn, "--corpus", dir, "--no-builtin", "-s", "truncate_orders",
		"--events", "1", "--explain", "off", "--out", out, "--run-id", "ran")
	if code != 0 {
		t.Fatalf("run without --read-only: exit %d, %s", code, stderr)
	}
	info := results.ReadRunInfo(filepath.Join(out, "run=ran"), func(err error) { t.Error(err) })
	if info == nil || !slices.Equal(info.WriteScenarios, []string{"truncate_orders"}) ||
		!slices.Equal(info.WriteKinds["truncate_orders"], []string{"ddl"}) || len(info.WriteKinds) != 1 {
		t.Errorf("run.json write scenarios %v, kinds %v; want truncate_orders: [ddl]", info.WriteScenarios, info.WriteKinds)
	}
}

func openDB(t *testing.T, dsn string) *sql.DB {
	t.Helper()
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
