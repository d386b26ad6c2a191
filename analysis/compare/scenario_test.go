package compare

import (
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/analysis/metrics"
	"github.com/joinbench/joinbench/results"
)

// executions are n successful executions a millisecond apart, of latencies
// spread evenly around ms milliseconds.
func executions(n int, ms float64) *metrics.Metrics {
	var m metrics.Metrics
	start := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	for i := range n {
		m.Add(&metrics.Execution{Start: start.Add(time.Duration(i) * time.Millisecond),
			LatencyNs: int64(ms * 1e6 * (0.8 + 0.4*float64(i)/float64(n)))})
	}
	return &m
}

// The rule judges a scenario from typed inputs alone: no run folder, no
// file.
func TestScenarioFromTypedInputs(t *testing.T) {
	j := NewJudge(Options{}.WithDefaults(), 3, nil)
	texts := map[string]string{"p": "index lookup", "q": "table scan"}
	sc := j.Scenario(Scenario{Name: "slower",
		Base:         Observed{Metrics: executions(400, 2), Plans: map[string]int64{"p": 400}, PlanText: func(h string) string { return texts[h] }},
		Candidate:    Observed{Metrics: executions(400, 6), Plans: map[string]int64{"q": 400}, PlanText: func(h string) string { return texts[h] }},
		CheckResults: true})
	if sc.Verdict != Regression || sc.Method != MethodBootstrap || sc.Median.Ratio < 2.9 || sc.Median.Ratio > 3.1 || !sc.PlanChanged ||
		!strings.Contains(sc.PlanDiff, "- index lookup\n+ table scan") || sc.Base.Executions != 400 {
		t.Errorf("3x slower with another plan: %s by %s, median %+v, plan diff %q, reasons %q", sc.Verdict, sc.Method, sc.Median, sc.PlanDiff, sc.Reasons)
	}
	few := j.Scenario(Scenario{Name: "few", Base: Observed{Metrics: executions(10, 2)}, Candidate: Observed{Metrics: executions(400, 2)}})
	if few.Verdict != InsufficientData || len(few.Reasons) != 1 || !strings.Contains(few.Reasons[0], "(10 base, 400 candidate)") {
		t.Errorf("10 base executions: %s %q", few.Verdict, few.Reasons)
	}
	// Listed by the candidate's run but never completed, with statements
	// cut far beyond the base's longest: a regression.
	gone := j.Scenario(Scenario{Name: "gone", Base: Observed{Metrics: executions(40, 2)},
		Candidate: Observed{Listed: true, Cut: &Cut{N: 2, LongestNs: int64(time.Second), Ran: []int64{int64(time.Second), int64(time.Second)}}}})
	if gone.Verdict != Regression || gone.Unmeasured != "" || gone.Candidate == nil || gone.Candidate.CutAtEnd != 2 {
		t.Errorf("never completed: %s, unmeasured %q, candidate %+v, reasons %q", gone.Verdict, gone.Unmeasured, gone.Candidate, gone.Reasons)
	}
	missing := j.Scenario(Scenario{Name: "missing", Base: Observed{Metrics: executions(40, 2)}})
	if missing.Verdict != OnlyInBase || missing.Unmeasured != results.SideCandidate {
		t.Errorf("not on the candidate: %s, unmeasured %q", missing.Verdict, missing.Unmeasured)
	}
}

// Warnings are typed values with what they found.
func TestCheckOptionsIsTyped(t *testing.T) {
	run := func(threads int) *results.Run {
		return &results.Run{Options: &results.RunOptions{Threads: threads}}
	}
	err := CheckOptions(run(2), run(8))
	w, ok := err.(*OptionsDiffer)
	if !ok || len(w.Differences) != 1 || w.Differences[0] != "threads 2 vs 8" {
		t.Errorf("threads 2 and 8: %#v", err)
	}
	if err := CheckOptions(run(2), run(2)); err != nil {
		t.Errorf("same options: %v", err)
	}
}
