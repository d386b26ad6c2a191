package judge

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/analysis/internal/fixture"
	"github.com/joinbench/joinbench/analysis/report"
	"github.com/joinbench/joinbench/results"
)

// In a comparison, cut statements are no errors and no latencies; a
// scenario the candidate never completed is a regression on the evidence
// of its cut statements when they outran every base execution often
// enough, even on too few base executions for the counting rule, and not
// when they ran no longer than the base's own.
func TestCompareCutAtEnd(t *testing.T) {
	dir := t.TempDir()
	names := []string{"a", "slow", "short", "once"}
	info := func(id string) *results.Run {
		return &results.Run{RunID: id, ServerVersion: "10.11.6-MariaDB", Flavor: "mariadb", Endpoints: []string{"127.0.0.1:3306"}, Scenarios: names}
	}
	base := fixture.Gen(1, 5,
		fixture.Scen{Name: "a", N: 300, MedianMs: 2, Plan: "p"},
		fixture.Scen{Name: "slow", N: 6, MedianMs: 20, Plan: "q"},
		fixture.Scen{Name: "short", N: 6, MedianMs: 20, Plan: "q"},
		fixture.Scen{Name: "once", N: 6, MedianMs: 20, Plan: "q"})
	var cand []results.Execution
	cand = append(cand, fixture.Gen(2, 5, fixture.Scen{Name: "a", N: 300, MedianMs: 2, Plan: "p"})...)
	cand = append(cand, fixture.CutRows("a", 3, 4*time.Second)...)
	cand = append(cand, fixture.CutRows("slow", 6, 10*time.Second)...)       // 6 cut vs 6 base: 1/C(12,6) = 0.001
	cand = append(cand, fixture.CutRows("short", 6, 10*time.Millisecond)...) // no longer than the base's
	cand = append(cand, fixture.CutRows("once", 1, 10*time.Second)...)       // 1/C(7,1): not enough
	cand = append(cand, fixture.CutRows("both", 1, 10*time.Second)...)       // never completed on either side
	base = append(base, fixture.CutRows("both", 2, 10*time.Second)...)
	b := fixture.Run{ID: "b", Info: info("b"), Execs: base}.Write(t, dir)
	c := fixture.Run{ID: "c", Info: info("c"), Execs: cand}.Write(t, dir)
	cmp, err := Compare([]string{b}, []string{c}, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := byName(cmp)
	if v := s["a"]; v.Verdict != compare.NoChange || v.Errors != nil || v.Candidate.Executions != 300 || v.Candidate.CutAtEnd != 3 ||
		len(v.Reasons) != 1 || !strings.Contains(v.Reasons[0], "candidate: 3 cut at the end") {
		t.Errorf("a: %s %+v %q", v.Verdict, v.Candidate, v.Reasons)
	}
	if v := s["slow"]; v.Verdict != compare.Regression || v.Candidate == nil || v.Candidate.CutAtEnd != 6 ||
		!strings.Contains(v.Reasons[0], "6 of its statements were cut at the end of a run or round after running more than") {
		t.Errorf("slow: %s %+v %q", v.Verdict, v.Candidate, v.Reasons)
	}
	for _, n := range []string{"short", "once"} {
		if v := s[n]; v.Verdict != compare.OnlyInBase || v.Candidate == nil || v.Candidate.CutAtEnd == 0 {
			t.Errorf("%s: %s %+v %q", n, v.Verdict, v.Candidate, v.Reasons)
		}
	}
	if v := s["both"]; v.Verdict != compare.InsufficientData || v.Base == nil || v.Base.CutAtEnd != 2 || v.Candidate == nil || v.Candidate.CutAtEnd != 1 ||
		!strings.Contains(strings.Join(v.Reasons, "; "), "no execution completed on either side") {
		t.Errorf("both: %s %+v %+v %q", v.Verdict, v.Base, v.Candidate, v.Reasons)
	}
	if len(cmp.Notes) == 0 || !strings.Contains(strings.Join(cmp.Notes, "\n"), "(base 2, candidate 17)") {
		t.Errorf("notes: %q", cmp.Notes)
	}
}

// A side that completed nothing, only statements cut at the end, cannot
// be compared, and the error says what it ran.
func TestCompareSideOnlyCut(t *testing.T) {
	dir := t.TempDir()
	b := fixture.Run{ID: "b", Execs: fixture.Gen(1, 5, fixture.Scen{Name: "a", N: 300, MedianMs: 2, Plan: "p"})}.Write(t, dir)
	c := fixture.Run{ID: "c", Execs: fixture.CutRows("a", 2, 30*time.Second)}.Write(t, dir)
	_, err := Compare([]string{b}, []string{c}, compare.Options{})
	var ne *report.NoExecutionsError
	if !errors.As(err, &ne) || ne.Side != results.SideCandidate ||
		!strings.Contains(err.Error(), "it completed nothing: 2 statement(s) were cut at the end of its runs, the longest after 30.001s (a)") {
		t.Errorf("%v", err)
	}
}
