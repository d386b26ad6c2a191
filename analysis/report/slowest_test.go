package report

import (
	"cmp"
	"slices"
	"testing"
	"time"

	"github.com/joinbench/joinbench/analysis/internal/fixture"
	"github.com/joinbench/joinbench/results"
)

// TestSlowestAreTheSlowest: a scenario's slowest executions are its
// slowest rows, failed ones included, with their parameters and endpoint
// read back; each error code comes with its first failure's message. Rows
// cut at the end are neither.
func TestSlowestAreTheSlowest(t *testing.T) {
	run := shuffledRun("r", 1, 1)
	run.Execs = append(run.Execs, fixture.CutRows("sb", 3, time.Hour)...)
	for i := range run.Execs {
		e := &run.Execs[i]
		e.Params = append(e.Params, e.Start.Format(time.RFC3339Nano))
		if e.ErrorCode != 0 {
			e.ErrorMessage = "boom at " + e.Start.Format(time.RFC3339Nano)
		}
	}
	dir := run.Write(t, t.TempDir())
	rep, err := Build([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	byScen := map[string][]results.Execution{}
	if _, err := results.ScanExecutions(dir, nil, func(e *results.Execution) error {
		if !e.CutAtEnd {
			c := *e
			c.Params = slices.Clone(e.Params)
			byScen[e.Scenario] = append(byScen[e.Scenario], c)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, s := range rep.Runs[0].Scenarios {
		rows := byScen[s.Scenario]
		slices.SortStableFunc(rows, func(a, b results.Execution) int { return cmp.Compare(b.LatencyNs, a.LatencyNs) })
		if len(s.Slowest) != slowestKept {
			t.Fatalf("%s: %d slowest", s.Scenario, len(s.Slowest))
		}
		for i, got := range s.Slowest {
			want := rows[i]
			if got.LatencyMs != ms(want.LatencyNs) || !got.Start.Equal(want.Start) || !slices.Equal(got.Params, want.Params) ||
				got.Endpoint != want.Endpoint || got.Thread != want.Thread || got.ErrorCode != want.ErrorCode || got.ErrorMessage != want.ErrorMessage {
				t.Errorf("%s: slowest %d is %+v, want %+v", s.Scenario, i, got, want)
			}
		}
		var firstErr *results.Execution
		for i := range byScen[s.Scenario] {
			if e := &byScen[s.Scenario][i]; e.ErrorCode != 0 && (firstErr == nil || e.Start.Before(firstErr.Start)) {
				firstErr = e
			}
		}
		if firstErr == nil {
			if len(s.ErrorSamples) != 0 {
				t.Errorf("%s: error samples %+v without errors", s.Scenario, s.ErrorSamples)
			}
			continue
		}
		if len(s.ErrorSamples) != 1 || s.ErrorSamples[0].Count != s.Errors || s.ErrorSamples[0].SQLState != "HY000" ||
			!s.ErrorSamples[0].First.Equal(firstErr.Start) || s.ErrorSamples[0].Message != firstErr.ErrorMessage {
			t.Errorf("%s: error samples %+v, want the first at %s", s.Scenario, s.ErrorSamples, firstErr.Start)
		}
	}
}

// TestSkipDetailsKeepsTheFigures: a report that skips the details (text
// and markdown) has no slowest executions and no error messages, and the
// same figures as one that reads them back.
func TestSkipDetailsKeepsTheFigures(t *testing.T) {
	run := shuffledRun("r", 1, 1)
	for i := range run.Execs {
		if e := &run.Execs[i]; e.ErrorCode != 0 {
			e.ErrorMessage = "boom"
		}
	}
	dir := run.Write(t, t.TempDir())
	full, err := Build([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	lean, err := Build([]string{dir}, Options{SkipDetails: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range lean.Runs[0].Scenarios {
		f := full.Runs[0].Scenarios[i]
		if len(s.Slowest) != 0 || len(f.Slowest) == 0 {
			t.Errorf("%s: %d slowest skipping details, %d reading them", s.Scenario, len(s.Slowest), len(f.Slowest))
		}
		for _, e := range s.ErrorSamples {
			if e.Message != "" {
				t.Errorf("%s: error %d has its message %q though details were skipped", s.Scenario, e.Code, e.Message)
			}
		}
		if s.Summary != f.Summary || !slices.Equal(s.Percentiles, f.Percentiles) {
			t.Errorf("%s: figures %+v skipping details, %+v reading them", s.Scenario, s.Summary, f.Summary)
		}
	}
}
