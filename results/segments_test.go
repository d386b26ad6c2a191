package results

import (
	"strings"
	"testing"
	"time"
)

// Three segments write one run folder side by side, under one host name:
// no file is shared, the run reads as one, and a missing segment or a
// window apart is warned about.
func TestSegmentsWriteOneRun(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for i := 1; i <= 3; i++ {
		if i == 2 {
			continue // written below, after the check that it is missed
		}
		writeSegment(t, dir, i, t0)
	}
	var warns []string
	w := func(err error) { warns = append(warns, err.Error()) }
	run := ReadRunInfo(dir+"/run=r1", w)
	if run == nil || run.Executions != 20 || run.Segments != 3 || !strings.Contains(strings.Join(warns, "\n"), "segment 2 of 3 missing") {
		t.Fatalf("run %+v, warnings %q: want 20 executions of 3 segments and segment 2 missing", run, warns)
	}
	writeSegment(t, dir, 2, t0.Add(3*time.Second))
	warns = nil
	run = ReadRunInfo(dir+"/run=r1", w)
	if run.Executions != 30 || run.Errors != 3 || !run.Start.Equal(t0) || !run.End.Equal(t0.Add(13*time.Second)) || run.Options.Threads != 6 {
		t.Fatalf("merged run %+v (options %+v)", run, run.Options)
	}
	if run.Unanswered != 3 || run.ClientCPUSeconds != 1.5 || run.ClientCPUPerQueryUs != 5e4 ||
		run.Work == nil || run.Work.Samples != 12 || run.Work.Dropped != 3 ||
		run.Machine == nil || run.Machine.LoadAverage != 3 || run.Dataset == nil || run.Dataset.TableSize != 200 {
		t.Errorf("merged run: unanswered %d, client CPU %g s (%g us/query), work %+v, machine %+v, dataset %+v; want every segment's counts added, the busiest machine and the dataset recorded",
			run.Unanswered, run.ClientCPUSeconds, run.ClientCPUPerQueryUs, run.Work, run.Machine, run.Dataset)
	}
	if got := strings.Join(warns, "\n"); !strings.Contains(got, "segment 2 started 3s after") || !strings.Contains(got, "segment 1 ended 3s before") {
		t.Fatalf("warnings %q: want segment 2's window called out", got)
	}
	n, err := ScanExecutions(dir+"/run=r1", w, func(e *Execution) error {
		if e.Segment < 1 || e.Segment > 3 {
			t.Errorf("row of segment %d", e.Segment)
		}
		return nil
	})
	if err != nil || n != 3 {
		t.Fatalf("%d files, %v; want one per segment", n, err)
	}
	plans, err := ReadPlans(dir+"/run=r1", w)
	if err != nil || len(plans) != 3 {
		t.Fatalf("%d plans, %v; want each segment's", len(plans), err)
	}
	if _, err := CreateSegment(dir, "r1", "h", 2, Options{}); err == nil || !strings.Contains(err.Error(), "already has segment 2") {
		t.Fatalf("segment 2 twice: %v", err)
	}
}

func writeSegment(t *testing.T, dir string, i int, start time.Time) {
	t.Helper()
	d, err := CreateSegment(dir, "r1", "samehost", i, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ew, err := d.NewExecutionWriter()
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]Execution, 10)
	for k := range rows {
		rows[k] = Execution{Scenario: "s", Thread: int32(k % 2), Event: int64(k), Start: start, LatencyNs: 1000}
	}
	rows[0].ErrorCode = 1064
	if err := ew.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := d.Plans().Write(Plan{Scenario: "s", PlanHash: "p", Format: "json"}); err != nil {
		t.Fatal(err)
	}
	if i == 1 {
		if err := d.WriteRunLevel(&Run{RunID: "r1", Segments: 3, Options: &RunOptions{Threads: 6}}); err != nil {
			t.Fatal(err)
		}
	}
	seg := &Run{RunID: "r1", Segments: 3, Segment: i, ClientHost: "samehost", Options: &RunOptions{Threads: 2},
		Start: start, End: start.Add(10 * time.Second), Executions: 10, Errors: 1,
		Unanswered: 1, ClientCPUSeconds: 0.5, Work: &WorkSampling{Samples: 4, Dropped: 1},
		Machine: &MachineLoad{Cores: 2, LoadAverage: float64(i)}}
	if i == 2 {
		seg.Dataset = &Dataset{TableSize: 200}
	}
	if err := d.WriteRun(seg); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
}
