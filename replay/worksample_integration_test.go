package replay_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/replay"
	"github.com/joinbench/joinbench/results"
	"github.com/joinbench/joinbench/work"
)

// TestWorkSampled runs the built-in corpus with work sampling, on both
// execution paths: every execution of the first events is sampled (reads
// by ANALYZE, writes by session status), the samples join their
// executions, and two runs of the reads with the same seed do exactly the
// same work.
func TestWorkSampled(t *testing.T) {
	for _, p := range paths {
		t.Run(p.name, func(t *testing.T) { workSampled(t, p.direct) })
	}
}

func workSampled(t *testing.T, direct bool) {
	db := prepared(t, "replay_work_"+map[bool]string{true: "direct", false: "driver"}[direct], direct)
	ctx := context.Background()
	fl, err := server.DetectFlavor(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := work.AnalyzeStatement(fl, "SELECT 1"); err != nil {
		t.Skipf("reads are not sampled on %s: %v", fl, err)
	}
	var reads, writes []*replay.Scenario
	for _, s := range builtinScenarios(t) {
		if s.Write {
			writes = append(writes, s)
		} else {
			reads = append(reads, s)
		}
	}
	// Events 4 over 2 threads: every execution is among the first events
	// of its thread, and sampled.
	run := func(id string, scens []*replay.Scenario) (string, *replay.Result, []results.Work) {
		t.Helper()
		dir, err := results.Create(t.TempDir(), id, "client")
		if err != nil {
			t.Fatal(err)
		}
		var log strings.Builder
		res, err := replay.Run(ctx, replay.Config{
			RunID: id, ClientHost: "client", Threads: 2, Events: 4, Seed: 1, Prepared: true,
			Endpoints: []replay.Endpoint{{Name: "test", DB: db, Direct: direct}},
			Scenarios: scens, Sink: replay.ResultsSink(dir), Log: &log,
			Work: replay.WorkConfig{Budget: replay.DefaultWorkBudget, FirstEvents: replay.DefaultWorkFirstEvents, Flavor: fl},
		})
		if err != nil {
			t.Fatalf("%v\n%s", err, log.String())
		}
		if err := dir.Close(); err != nil {
			t.Fatal(err)
		}
		rows, err := results.ReadWork(dir.Path(), func(err error) { t.Error(err) })
		if err != nil {
			t.Fatal(err)
		}
		return dir.Path(), res, rows
	}
	key := func(scenario string, thread int32, event int64, seq int32) string {
		return fmt.Sprintf("%s/%d/%d/%d", scenario, thread, event, seq)
	}

	dirA, resA, a := run("a", reads)
	_, _, b := run("b", reads)
	if resA.Work == nil || resA.Work.Samples != int64(len(a)) || resA.Work.Failed != 0 {
		t.Fatalf("sampling %+v, %d rows", resA.Work, len(a))
	}
	execs := map[string][]string{}
	if _, err := results.ScanExecutions(dirA, nil, func(e *results.Execution) error {
		execs[key(e.Scenario, e.Thread, e.Event, e.StatementSeq)] = append([]string(nil), e.Params...)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// Every execution is sampled, or its sample dropped: on a busy
	// machine the sampler may still be at work when the run ends.
	if int64(len(a))+resA.Work.Dropped != int64(len(execs)) || len(a) == 0 {
		t.Errorf("%d samples and %d dropped of %d executions, all among the first events", len(a), resA.Work.Dropped, len(execs))
	}
	byKey := map[string]results.Work{}
	for _, w := range a {
		k := key(w.Scenario, w.Thread, w.Event, w.StatementSeq)
		params, ok := execs[k]
		switch {
		case !ok:
			t.Errorf("sample %s joins no execution", k)
		case !reflect.DeepEqual(params, w.Params):
			t.Errorf("sample %s: params %v, the execution's %v", k, w.Params, params)
		case w.Source != results.SourceMariaDBAnalyze && w.Source != results.SourceMySQLAnalyze || w.Error != "" || w.RowsExamined == nil:
			t.Errorf("sample %s: %+v", k, w)
		}
		byKey[k] = w
	}
	// Threads share the events, so which thread ran which varies; the
	// executions both runs made pair.
	same, both := 0, 0
	for _, w := range b {
		k := key(w.Scenario, w.Thread, w.Event, w.StatementSeq)
		o, ok := byKey[k]
		if !ok {
			continue
		}
		both++
		if !reflect.DeepEqual(o.Tables, w.Tables) || *o.RowsExamined != *w.RowsExamined {
			t.Errorf("%s: the same statement with the same values did other work:\n%+v\n%+v", k, o.Tables, w.Tables)
			continue
		}
		same++
	}
	if both == 0 || same != both {
		t.Errorf("%d of %d samples of executions both runs made with the same work", same, both)
	}

	_, resW, w := run("w", writes)
	if resW.Work == nil || resW.Work.Writes != string(results.SourceSessionStatus) {
		t.Fatalf("sampling %+v", resW.Work)
	}
	changed := 0
	for _, r := range w {
		if r.Source != results.SourceSessionStatus || r.Error != "" || r.Tables != nil {
			t.Errorf("write sample %+v", r)
		}
		if n, ok := work.Value(r.RowsChanged); ok && n > 0 {
			changed++
		}
	}
	if len(w) == 0 || changed == 0 {
		t.Errorf("%d write samples, %d with rows changed", len(w), changed)
	}
}

// TestWorkSampledAfterMeasuredPhase: by default no read is sampled while
// the workers run: every ANALYZE starts after the measured phase ended,
// with the values its execution ran with, and run.json says so.
func TestWorkSampledAfterMeasuredPhase(t *testing.T) {
	db := prepared(t, "replay_work_after", true)
	ctx := context.Background()
	fl, err := server.DetectFlavor(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := work.AnalyzeStatement(fl, "SELECT 1"); err != nil {
		t.Skipf("reads are not sampled on %s: %v", fl, err)
	}
	var reads []*replay.Scenario
	for _, s := range builtinScenarios(t) {
		if !s.Write && (s.Name == "simple_inner_pk" || s.Name == "multi_left_pk" || s.Name == "simple_left_straight") {
			reads = append(reads, s)
		}
	}
	dir, err := results.Create(t.TempDir(), "after", "client")
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	res, err := replay.Run(ctx, replay.Config{
		RunID: "after", ClientHost: "client", Threads: 2, Events: 6, Seed: 1, Prepared: true,
		Endpoints: []replay.Endpoint{{Name: "test", DB: db, Direct: true}},
		Scenarios: reads, Sink: replay.ResultsSink(dir), Log: &log,
		Work: replay.WorkConfig{Budget: replay.DefaultWorkBudget, FirstEvents: replay.DefaultWorkFirstEvents, Flavor: fl},
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if err := dir.Close(); err != nil {
		t.Fatal(err)
	}
	rows, err := results.ReadWork(dir.Path(), func(err error) { t.Error(err) })
	if err != nil {
		t.Fatal(err)
	}
	if res.Work == nil || res.Work.When != "after" || len(rows) == 0 {
		t.Fatalf("sampling %+v, %d rows: want reads sampled after the measured phase", res.Work, len(rows))
	}
	params := map[string][]string{}
	if _, err := results.ScanExecutions(dir.Path(), nil, func(e *results.Execution) error {
		params[fmt.Sprintf("%s/%d/%d/%d", e.Scenario, e.Thread, e.Event, e.StatementSeq)] = append([]string(nil), e.Params...)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, w := range rows {
		k := fmt.Sprintf("%s/%d/%d/%d", w.Scenario, w.Thread, w.Event, w.StatementSeq)
		if w.Time.Before(res.End) {
			t.Errorf("sample %s taken at %s, before the measured phase ended (%s)", k, w.Time, res.End)
		}
		if !reflect.DeepEqual(params[k], w.Params) || w.Error != "" {
			t.Errorf("sample %s: params %v, error %q; its execution's %v", k, w.Params, w.Error, params[k])
		}
	}
}
