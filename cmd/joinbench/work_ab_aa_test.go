package main

import (
	"testing"

	"github.com/joinbench/joinbench/internal/testdb"
)

// TestWorkABAA: ab between two servers loaded alike (two databases
// prepared with the same seed) compares the work of every scenario,
// exactly the same on both sides, and flags none. The threshold keeps
// the time of a machine busy with other tests out of it: what is tested
// is that work makes no false verdict. Slices of 3 s: on a loaded machine
// a shorter one can end before a side's first heavy join does, and ab
// then rightly calls that side failed.
func TestWorkABAA(t *testing.T) {
	base := testdb.Fresh(t, "cmd_work_abaa_base")
	cand := testdb.Fresh(t, "cmd_work_abaa_cand")
	for _, dsn := range []string{base, cand} {
		if code, _ := runCaptured(t, "-q", "prepare", "--dsn", dsn, "--tables", "1", "--table-size", workTableSize); code != 0 {
			t.Fatalf("prepare: exit %d", code)
		}
	}
	code, c := compareJSON(t, "-q", "ab", "--base", base, "--candidate", cand,
		"-s", "simple_inner_index", "-s", "simple_left_pk", "-s", "inner_subquery_multi_pk", "-s", "semi_join_exists_pk",
		"--table-size", workTableSize, "--threads", "2", "--time", "6s", "--rounds", "2", "--warmup", "200ms",
		"--threshold", "1000%", "--run-id", "wabaa", "--out", t.TempDir())
	checkSameWork(t, "ab A/A", c)
	if len(c.Scenarios) != 4 {
		t.Errorf("ab A/A compared %d scenarios, want 4", len(c.Scenarios))
	}
	if code != 0 {
		t.Errorf("ab A/A: exit %d: %+v", code, c.Failures)
	}
	for _, s := range c.Scenarios {
		if s.Work != nil {
			t.Logf("ab A/A, %s: %s, %d pairs of work samples", s.Scenario, s.Verdict, s.Work.Pairs)
		}
	}
}
