package judge

import (
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/analysis/internal/fixture"
	"github.com/joinbench/joinbench/analysis/report"
	"github.com/joinbench/joinbench/results"
)

// A scenario the candidate ran but never completed (a dropped index made
// it, or one ahead of it, outlast the run) fails the comparison when the
// base completed it often enough; not when the candidate never ran it, nor
// on a handful of base executions.
func TestNeverCompletedOnCandidate(t *testing.T) {
	dir := t.TempDir()
	info := func(id string, scenarios ...string) *results.Run {
		return &results.Run{RunID: id, ServerVersion: "10.11.6-MariaDB", Flavor: "mariadb", Endpoints: []string{"127.0.0.1:3306"}, Scenarios: scenarios}
	}
	b := fixture.Run{ID: "b", Info: info("b", "a", "slow", "few"), Execs: fixture.Gen(1, 5,
		fixture.Scen{Name: "a", N: 200, MedianMs: 2, Plan: "p"},
		fixture.Scen{Name: "slow", N: 40, MedianMs: 20, Plan: "q"},
		fixture.Scen{Name: "few", N: 6, MedianMs: 20, Plan: "r"},
	)}.Write(t, dir)
	ran := fixture.Run{ID: "c", Info: info("c", "a", "slow", "few"), Execs: fixture.Gen(2, 5, fixture.Scen{Name: "a", N: 200, MedianMs: 2, Plan: "p"})}.Write(t, dir)
	cmp, err := Compare([]string{b}, []string{ran}, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := byName(cmp)
	if v := s["slow"]; v.Verdict != compare.Regression || len(v.Reasons) != 1 || !strings.Contains(v.Reasons[0], "against 40 on the base") {
		t.Errorf("slow, never completed on the candidate: %s %q", v.Verdict, v.Reasons)
	}
	if v := s["few"].Verdict; v != compare.OnlyInBase {
		t.Errorf("few, 6 base executions: %s, want %s", v, compare.OnlyInBase)
	}
	if v := s["a"].Verdict; v != compare.NoChange {
		t.Errorf("a: %s", v)
	}
	if !cmp.Failed() {
		t.Error("comparison passed with a scenario the candidate never completed")
	}

	other := fixture.Run{ID: "d", Info: info("d", "a"), Execs: fixture.Gen(3, 5, fixture.Scen{Name: "a", N: 200, MedianMs: 2, Plan: "p"})}.Write(t, dir)
	cmp, err = Compare([]string{b}, []string{other}, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Not run at all is data missing, not a regression: it fails the
	// gate only as such, and --allow-missing accepts it.
	if v := byName(cmp)["slow"].Verdict; v != compare.OnlyInBase || !cmp.Failed() {
		t.Errorf("slow, not run on the candidate: %s, failed %v", v, cmp.Failed())
	}
	cmp, err = Compare([]string{b}, []string{other}, compare.Options{AllowMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	if v := byName(cmp)["slow"].Verdict; v != compare.OnlyInBase || cmp.Failed() {
		t.Errorf("slow, not run on the candidate, --allow-missing: %s, failed %v", v, cmp.Failed())
	}
}

// A scenario whose statements stalled every event hides the scenarios
// after it in the events: those are said not to have been reached, and
// which one stalled them, in the comparison and in the run's report;
// the stalled one is the regression.
func TestStalledScenarioNamesThoseItHid(t *testing.T) {
	dir := t.TempDir()
	info := func(id string) *results.Run {
		return &results.Run{RunID: id, ServerVersion: "10.11.6-MariaDB", Flavor: "mariadb", Endpoints: []string{"127.0.0.1:3306"},
			Scenarios: []string{"a", "stall", "after"}}
	}
	b := fixture.Run{ID: "b", Info: info("b"), Execs: fixture.Gen(1, 5,
		fixture.Scen{Name: "a", N: 200, MedianMs: 2, Plan: "p"},
		fixture.Scen{Name: "stall", N: 40, MedianMs: 20, Plan: "q"},
		fixture.Scen{Name: "after", N: 40, MedianMs: 20, Plan: "r"},
	)}.Write(t, dir)
	execs := append(fixture.Gen(2, 5, fixture.Scen{Name: "a", N: 200, MedianMs: 2, Plan: "p"}), fixture.CutRows("stall", 2, 20*time.Second)...)
	c := fixture.Run{ID: "c", Info: info("c"), Execs: execs}.Write(t, dir)
	cmp, err := Compare([]string{b}, []string{c}, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := byName(cmp)
	if v := s["stall"]; v.Verdict != compare.Regression {
		t.Errorf("stall: %s %q", v.Verdict, v.Reasons)
	}
	if v := s["after"]; v.Verdict != compare.OnlyInBase || !strings.Contains(strings.Join(v.Reasons, "; "), "not reached: every event stalled on stall (2 cut at the end") {
		t.Errorf("after: %s %q", v.Verdict, v.Reasons)
	}
	rep, err := report.Build([]string{c}, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, sr := range rep.Runs[0].Scenarios {
		if sr.Scenario == "after" {
			found = strings.HasPrefix(sr.NotReached, "not reached: every event stalled on stall")
		}
	}
	if !found {
		t.Errorf("the report does not say that after was not reached: %+v", rep.Runs[0].Scenarios)
	}
}
