package report

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// withWorkers runs f with runs read by n workers, each accumulating apart.
func withWorkers(n int, f func()) {
	saved := scanWorkers
	scanWorkers = n
	defer func() { scanWorkers = saved }()
	f()
}

// TestWorkersGiveTheSameReport: however many workers share a run's files
// (one; fewer than the files; as many; more), the merged report and
// comparison are the ones read row by row, to the last digit.
func TestWorkersGiveTheSameReport(t *testing.T) {
	parent := t.TempDir()
	run := shuffledRun("r", 1, 1)
	run.Hosts = 5
	dir := run.Write(t, parent)
	cand := shuffledRun("c", 3, 1.3)
	cand.Hosts = 4
	cdir := cand.Write(t, parent)
	var wantReport *Report
	var wantCmp *comparisonRead
	var err error
	byRows(func() {
		if wantReport, err = Build([]string{dir}, Options{}); err != nil {
			t.Fatal(err)
		}
		wantCmp = readComparison(t, []string{dir}, []string{cdir})
	})
	for _, n := range []int{1, 3, 5, 8} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			withWorkers(n, func() {
				got, err := Build([]string{dir}, Options{})
				if err != nil {
					t.Fatal(err)
				}
				if got.Runs[0].Files != 5 || len(got.Runs[0].Timeline) < 300 {
					t.Fatalf("fixture: %d files, %d points", got.Runs[0].Files, len(got.Runs[0].Timeline))
				}
				sameJSON(t, "report", got, wantReport)
				cmp := readComparison(t, []string{dir}, []string{cdir})
				sameJSON(t, "comparison", cmp, wantCmp)
			})
		})
	}
}

// TestTimelineMerge: a timeline of times split at random between partial
// timelines, merged, is the timeline of the times added one by one: same
// width, same buckets, whether the parts coarsened or not.
func TestTimelineMerge(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	for _, span := range []int64{30, 599, 600, 601, 1500, 5000, 100000} {
		for parts := 1; parts <= 4; parts++ {
			whole := newTimeline()
			part := make([]*timeline, parts)
			for i := range part {
				part[i] = newTimeline()
			}
			for range 20000 {
				at := t0 + rng.Int64N(span*int64(time.Second))
				lat := rng.Int64N(int64(time.Second))
				failed := rng.IntN(20) == 0
				li := logHistIndex(lat)
				retries := int32(rng.IntN(3))
				whole.addIndex(at, li, failed, retries)
				part[rng.IntN(parts)].addIndex(at, li, failed, retries)
			}
			merged := newTimeline()
			for _, p := range part {
				merged.timeSeries.merge(&p.timeSeries)
			}
			if merged.width != whole.width || !reflect.DeepEqual(merged.points(), whole.points()) {
				t.Errorf("span %d s, %d parts: merged width %v (%d buckets), added one by one %v (%d buckets)",
					span, parts, time.Duration(merged.width), len(merged.buckets), time.Duration(whole.width), len(whole.buckets))
			}
		}
	}
}
