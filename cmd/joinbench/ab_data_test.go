package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/results"
)

// TestABRefusesDifferentData: ab between servers prepared differently (a
// larger table, another seed) is refused before any round, naming what
// differs, instead of blaming the server for the data; a run records the
// dataset it ran on.
func TestABRefusesDifferentData(t *testing.T) {
	prepared := func(name string, args ...string) string {
		dsn := testdb.Fresh(t, name)
		if code, _ := runCaptured(t, append([]string{"-q", "prepare", "--dsn", dsn}, args...)...); code != 0 {
			t.Fatalf("prepare %s: exit %d", name, code)
		}
		return dsn
	}
	base := prepared("ab_data_base", "--table-size", "200")
	bigger := prepared("ab_data_bigger", "--table-size", "300")
	seeded := prepared("ab_data_seed", "--table-size", "200", "--seed", "7")
	out := t.TempDir()
	for cand, want := range map[string]string{bigger: "table_size 200 vs 300", seeded: "seed 1 vs 7"} {
		code, _, stderr := runCapturedAll(t, "ab", "--base", base, "--candidate", cand, "-s", "simple_inner_pk", "--table-size", "200",
			"--time", "1s", "--rounds", "2", "--out", out)
		if code != 2 || !strings.Contains(stderr, "the base and the candidate ran on different data ("+want) ||
			strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("ab on %s: exit %d\n%s", want, code, stderr)
		}
	}
	if matches, _ := filepath.Glob(filepath.Join(out, "ab=*")); len(matches) > 0 {
		t.Errorf("rounds ran: %v", matches)
	}

	if code, _ := runCaptured(t, "-q", "run", "--dsn", seeded, "-s", "simple_inner_pk=1", "--table-size", "200", "--events", "5",
		"--out", out, "--run-id", "ds"); code != 0 {
		t.Fatalf("run: exit %d", code)
	}
	info := results.ReadRunInfo(filepath.Join(out, "run=ds"), nil)
	if d := info.Dataset; d == nil || d.Seed != 7 || d.TableSize != 200 || d.Rows["main1"] != 200 || d.Sample == "" {
		t.Errorf("run.json dataset %+v", d)
	}
}
