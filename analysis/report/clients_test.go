package report

import (
	"testing"
	"time"

	"github.com/joinbench/joinbench/analysis/internal/fixture"
)

// TestCommonWindowCountsStartsWithin: the common window of a split run
// (every client running) counts the executions that started in it, the
// same as counting every start time kept in memory did.
func TestCommonWindowCountsStartsWithin(t *testing.T) {
	execs := fixture.Gen(3, 30, fixture.Scen{Name: "a", N: 3000, MedianMs: 2, Plan: "p"}, fixture.Scen{Name: "b", N: 2000, MedianMs: 5, Plan: "p", ErrEvery: 9, ErrCode: 1213})
	// three clients: the first starts 4 s late, the last stops 5 s early
	for i := range execs {
		seg := int32(i%3 + 1)
		execs[i].Segment = seg
		if seg == 1 {
			execs[i].Start = execs[i].Start.Add(4 * time.Second)
		}
		if seg == 3 && execs[i].Start.After(fixture.T0.Add(25*time.Second)) {
			execs[i].Start = execs[i].Start.Add(-5 * time.Second)
		}
	}
	dir := fixture.Run{ID: "split", Execs: execs, Hosts: 3}.Write(t, t.TempDir())
	clients, w, err := clientBreakdown(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(clients) != 3 || w == nil {
		t.Fatalf("%d clients, window %+v", len(clients), w)
	}
	want := int64(0)
	for _, e := range execs {
		if !e.Start.Before(w.Start) && e.Start.Before(w.End) {
			want++
		}
	}
	if w.Executions != want || want == 0 || want == int64(len(execs)) {
		t.Errorf("window %v..%v holds %d executions, want %d of %d", w.Start, w.End, w.Executions, want, len(execs))
	}
}
