package replay

import (
	"strings"
	"testing"

	"github.com/joinbench/joinbench/results"
)

// TestWorkloadKeepsStatementTexts: the workload keeps each enabled
// scenario's statement text, placeholders and all, for run.json.
func TestWorkloadKeepsStatementTexts(t *testing.T) {
	dir := writeCorpus(t, map[string]string{
		"mine/a_reads.sql": "-- param m: table(main)\nSELECT id FROM {{m}} WHERE id = 1;\nSHOW TABLES\n",
		"mine/b_point.sql": "-- param m: table(main)\n-- param i: id(main)\nSELECT * FROM {{m}} WHERE id = {{i}}\n",
	})
	o := Options{RunOptions: results.RunOptions{
		All: true, NoBuiltin: true, CorpusDirs: []string{dir}, Threads: 1, Tables: 1, TableSize: 100, TableName: "main",
		Distribution: "uniform", IgnoreErrors: "1213", PsMode: results.PsAuto, ExecPath: results.ExecDirect, Explain: results.ExplainOff}}
	s, err := NewSession(o)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.work.sql) != 2 || !strings.Contains(s.work.sql[0], "SELECT id FROM {{m}} WHERE id = 1;\nSHOW TABLES") ||
		!strings.Contains(s.work.sql[1], "WHERE id = {{i}}") {
		t.Errorf("statement texts %q", s.work.sql)
	}
}
