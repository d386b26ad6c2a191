//go:build e2e

package main

import (
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/internal/testdb"
)

// TestWorkEveryReadScenario runs every read scenario twice on the work
// workflow's dataset (A/A: the work of each exactly the same) and once more
// on connections with a planted optimizer change, which work catches
// scenario by scenario. Every heavy join of the corpus, each sampled: minutes
// under the race detector, hence the end-to-end suite.
func TestWorkEveryReadScenario(t *testing.T) {
	dsn := testdb.Fresh(t, "cmd_work_every_read")
	run := workRuns(t, dsn)
	// Every read scenario, A/A; 4 events a thread, which are all sampled.
	reads := append([]string{"--all", "--read-only"}, writeScenariosOff...)
	all1 := run("all1", dsn, "4", reads...)
	all2 := run("all2", dsn, "4", reads...)
	_, aaAll := compareJSON(t, "-q", "compare", all1, all2)
	checkSameWork(t, "A/A, every read scenario", aaAll)
	if len(aaAll.Scenarios) < 30 {
		t.Errorf("A/A over every read scenario compared %d scenarios", len(aaAll.Scenarios))
	}

	// The planted optimizer change: the candidate's connections set it
	// (the driver sends a DSN's unknown parameters as SET), the server's
	// globals are left alone. Derived tables materialized instead of
	// merged read each level table whole; without the rowid filter
	// simple_inner_index reads fewer rows of level1 and more pages.
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	planted := run("planted", dsn+sep+"optimizer_switch=%27derived_merge%3Doff%2Crowid_filter%3Doff%27", "4", reads...)
	code, pc := compareJSON(t, "-q", "compare", all1, planted)
	if pc.WorkSkipped != "" {
		t.Fatalf("planted: work not compared: %s", pc.WorkSkipped)
	}
	if code != 1 {
		t.Errorf("planted optimizer change: compare exit %d, want 1", code)
	}
	ps := scenariosOf(pc)
	for _, name := range []string{"inner_subquery_multi_pk", "left_subquery_multi_pk", "right_subquery_multi_pk"} {
		s := ps[name]
		if s.Verdict != compare.Regression || s.Work == nil || s.Work.Change != compare.WorkMore || !s.PlanChanged {
			t.Errorf("planted, %s (derived tables no longer merged): %s, plan changed %v, work %s", name, s.Verdict, s.PlanChanged, workChange(s.Work))
		}
	}
	if s := ps["simple_inner_index"]; s.Work == nil || s.Work.Change == compare.WorkSame || !s.PlanChanged {
		t.Errorf("planted, simple_inner_index (no rowid filter): %s, plan changed %v, work %s", s.Verdict, s.PlanChanged, workChange(s.Work))
	}
	caught := 0
	for _, s := range pc.Scenarios {
		if s.Work == nil {
			t.Errorf("planted, %s: no work compared", s.Scenario)
			continue
		}
		if s.PlanChanged {
			t.Logf("planted optimizer change, %s: %s, work %s: %q", s.Scenario, s.Verdict, workChange(s.Work), s.Reasons)
			if s.Work.Change != compare.WorkSame {
				caught++
			}
			continue
		}
		if s.Work.Change != compare.WorkSame || s.Verdict == compare.Regression || s.Verdict == compare.Improvement {
			t.Errorf("planted, %s: plan unchanged, yet %s with work %s", s.Scenario, s.Verdict, workChange(s.Work))
		}
	}
	t.Logf("planted optimizer change: %d of %d scenarios caught by their work", caught, len(pc.Scenarios))

}
