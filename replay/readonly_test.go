package replay

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/results"
)

// writeCorpus writes files (path relative to a new folder: content) and
// returns the folder.
func writeCorpus(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestReadOnlyRefusesEveryWrite: --read-only refuses a scenario as soon as
// one of its statements is not a plain read (DDL included), with one line
// naming the first such statement's file:line:col and kind and the other
// scenarios that write; without it, the workload lists every writing
// scenario with its kinds, as run.json records them.
func TestReadOnlyRefusesEveryWrite(t *testing.T) {
	dir := writeCorpus(t, map[string]string{
		"mine/a_reads.sql":    "-- param m: table(main)\nSELECT id FROM {{m}} WHERE id = 1;\nSHOW TABLES\n",
		"mine/b_drops.sql":    "-- param m: table(main)\nSELECT COUNT(*) FROM {{m}};\n/* tidy up */ DROP TABLE {{m}}\n",
		"mine/c_truncate.sql": "-- param m: table(main)\nTRUNCATE TABLE {{m}}\n",
		"mine/d_locks.sql":    "-- param m: table(main)\nSET @x = 1;\nSELECT id FROM {{m}} WHERE id = 1 FOR UPDATE;\nUPDATE {{m}} SET myvalue = 1 WHERE id = 1\n",
	})
	o := Options{RunOptions: results.RunOptions{
		All: true, NoBuiltin: true, CorpusDirs: []string{dir}, Threads: 1, Tables: 1, TableSize: 100, TableName: "main",
		Distribution: "uniform", IgnoreErrors: "1213", PsMode: results.PsAuto, ExecPath: results.ExecDirect, Explain: results.ExplainOff}}
	s, err := NewSession(o)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"b_drops", "c_truncate", "d_locks"}; !reflect.DeepEqual(s.work.writes, want) {
		t.Errorf("writes %v, want %v", s.work.writes, want)
	}
	wantKinds := map[string][]string{"b_drops": {"ddl"}, "c_truncate": {"ddl"}, "d_locks": {"set", "locking-read", "dml"}}
	if !reflect.DeepEqual(s.work.writeKinds, wantKinds) {
		t.Errorf("write kinds %v, want %v", s.work.writeKinds, wantKinds)
	}
	for _, sc := range s.work.scenarios {
		if sc.Write != (sc.Name != "a_reads") {
			t.Errorf("%s: Write = %v", sc.Name, sc.Write)
		}
	}

	o.ReadOnly = true
	_, err = NewSession(o)
	want := filepath.Join(dir, "mine", "b_drops.sql") + ":3:15: --read-only: statement 2 of scenario b_drops is ddl, not a plain read: DROP TABLE {{m}}; " +
		"2 more scenario(s) not read-only: c_truncate (ddl), d_locks (set, locking-read, dml)"
	if !usage.Is(err) || err.Error() != want {
		t.Errorf("err = %v\nwant %s (a usage error)", err, want)
	}

	o.All, o.Scenario = false, []string{"a_reads", "c_truncate=0"}
	if _, err := NewSession(o); err != nil {
		t.Errorf("a plain read, and a write left disabled, were refused: %v", err)
	}
}

// TestReadOnlyMariaDBSyntax: statements the SQL parser lacks the syntax
// of are classified by what they do, not refused as unparsed: a SELECT
// ... INTO @var only reads, a DELETE ... RETURNING is the write it is.
func TestReadOnlyMariaDBSyntax(t *testing.T) {
	dir := writeCorpus(t, map[string]string{
		"mine/a_into_var.sql":  "-- param m: table(main)\nSELECT id INTO @x FROM {{m}} WHERE id = 1\n",
		"mine/b_returning.sql": "-- param m: table(main)\nDELETE FROM {{m}} WHERE id = 1 RETURNING id\n",
	})
	o := Options{RunOptions: results.RunOptions{
		All: true, NoBuiltin: true, CorpusDirs: []string{dir}, Threads: 1, Tables: 1, TableSize: 100, TableName: "main",
		Distribution: "uniform", IgnoreErrors: "1213", PsMode: results.PsAuto, ExecPath: results.ExecDirect, Explain: results.ExplainOff,
		ReadOnly: true}}
	_, err := NewSession(o)
	want := filepath.Join(dir, "mine", "b_returning.sql") + ":2:1: --read-only: statement 1 of scenario b_returning is dml, not a plain read: DELETE FROM {{m}} WHERE id = 1 RETURNING id"
	if !usage.Is(err) || err.Error() != want {
		t.Errorf("err = %v\nwant %s (a usage error)", err, want)
	}
	o.All, o.Scenario = false, []string{"a_into_var"}
	if _, err := NewSession(o); err != nil {
		t.Errorf("SELECT ... INTO @var refused: %v", err)
	}
}
