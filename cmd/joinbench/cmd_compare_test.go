package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/joinbench/joinbench/replay/results"
)

// writeRunDir writes a minimal run folder: one scenario whose latency is
// about ms milliseconds.
func writeRunDir(t *testing.T, parent, id string, ms int64) string {
	t.Helper()
	dir := filepath.Join(parent, "run="+id)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	start := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	var rows []results.Execution
	for i := 0; i < 400; i++ {
		rows = append(rows, results.Execution{RunID: id, Scenario: "simple_inner_pk", Start: start.Add(time.Duration(i) * 5 * time.Millisecond),
			LatencyNs: ms*1e6 + int64(i%13)*ms*2e4, PlanHash: "p", Params: []string{fmt.Sprint(i % 7)}, Checksum: fmt.Sprint(i % 7)})
	}
	f, err := os.Create(filepath.Join(dir, "executions-h-0.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[results.Execution](f)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return dir
}

func TestReportAndCompareCommands(t *testing.T) {
	tmp := t.TempDir()
	base := writeRunDir(t, tmp, "base", 2)
	slow := writeRunDir(t, tmp, "slow", 5)
	out := filepath.Join(tmp, "out")
	cases := []struct {
		args []string
		code int
	}{
		{[]string{"-q", "compare", base, base, "-o", out}, 0},
		{[]string{"-q", "compare", base, slow, "-o", out, "--format", "json"}, 1},
		{[]string{"-q", "compare", base, slow, "-o", out, "--threshold", "200%"}, 0},
		{[]string{"-q", "compare", base, filepath.Join(tmp, "missing")}, 2},
		{[]string{"-q", "compare", base, slow, "--threshold", "lots"}, 2},
		{[]string{"-q", "compare", base, slow, "--format", "html"}, 2},
		{[]string{"-q", "report", tmp, "--format", "html", "-o", out}, 0},
		{[]string{"-q", "report", filepath.Join(tmp, "run=*"), "--format", "markdown", "-o", out}, 0},
		{[]string{"-q", "report", filepath.Join(tmp, "nothing*")}, 2},
	}
	for _, c := range cases {
		if got := run(c.args); got != c.code {
			t.Errorf("joinbench %s: exit %d, want %d", strings.Join(c.args, " "), got, c.code)
		}
	}
	b, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(b), "| simple_inner_pk |") {
		t.Errorf("markdown report: %v\n%s", err, b)
	}
	if v, err := parseFraction("12.5%"); err != nil || v != 0.125 {
		t.Errorf("parseFraction(12.5%%) = %v, %v", v, err)
	}
}
