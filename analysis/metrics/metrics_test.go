package metrics

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func near(got time.Duration, want time.Duration) bool {
	return math.Abs(float64(got-want)) <= float64(want)*0.002
}

func TestFigures(t *testing.T) {
	var m Metrics
	for i := 1; i <= 100; i++ {
		m.Add(&Execution{Start: t0, LatencyNs: int64(i) * int64(time.Millisecond), Rows: 2, Retries: 1})
	}
	for i := 0; i < 4; i++ {
		m.Add(&Execution{Start: t0, LatencyNs: 5e9, Rows: 7, ErrorCode: int32(1205 + i%2*8)})
	}
	m.Close()
	if m.Executions != 104 || m.Errors != 4 || m.Successes() != 100 || m.Rows != 200 || m.Retries != 100 {
		t.Errorf("counts %+v", m)
	}
	if !reflect.DeepEqual(m.ErrorCodes, map[int32]int64{1205: 2, 1213: 2}) {
		t.Errorf("error codes %v", m.ErrorCodes)
	}
	l := m.Latencies
	for name, c := range map[string][2]time.Duration{
		"min": {l.Min, time.Millisecond}, "mean": {l.Mean, 50500 * time.Microsecond}, "p50": {l.P50, 50 * time.Millisecond},
		"p95": {l.P95, 95 * time.Millisecond}, "p99": {l.P99, 99 * time.Millisecond}, "max": {l.Max, 100 * time.Millisecond},
	} {
		if !near(c[0], c[1]) {
			t.Errorf("%s = %v, want %v", name, c[0], c[1])
		}
	}
	if m.Percentile(0) != l.Min || m.Percentile(100) != l.Max || m.Percentile(95) != l.P95 {
		t.Errorf("Percentile disagrees with Latencies: %v %v %v", m.Percentile(0), m.Percentile(100), m.Percentile(95))
	}
	var n int64
	for _, b := range m.Buckets() {
		if b.Count == 0 || b.From > b.To {
			t.Errorf("bucket %+v", b)
		}
		n += b.Count
	}
	if n != 100 {
		t.Errorf("buckets hold %d latencies, want 100 (failures are not latencies)", n)
	}
}

// TestClampedAtHistogramBounds: a latency outside the histogram counts as
// the nearest bound, none is dropped, and the live and the read-back paths
// cannot differ on it.
func TestClampedAtHistogramBounds(t *testing.T) {
	atBounds := func(lats ...int64) Metrics {
		var m Metrics
		for _, ns := range lats {
			m.Add(&Execution{Start: t0, LatencyNs: ns})
		}
		m.Close()
		return m
	}
	outside := atBounds(-5, 0, 1, HistogramMin-1, 2*HistogramMax, HistogramMax+1)
	bounds := atBounds(HistogramMin, HistogramMin, HistogramMin, HistogramMin, HistogramMax, HistogramMax)
	if outside.Successes() != 6 || outside.Latencies != bounds.Latencies {
		t.Errorf("out of range: %+v\nat the bounds: %+v", outside.Latencies, bounds.Latencies)
	}
	if !reflect.DeepEqual(outside.Buckets(), bounds.Buckets()) {
		t.Errorf("buckets %+v, want %+v", outside.Buckets(), bounds.Buckets())
	}
	if lo := outside.Latencies.Min; lo <= 0 || lo > time.Duration(HistogramMin) {
		t.Errorf("min %v, want about %v", lo, time.Duration(HistogramMin))
	}
	if hi := outside.Latencies.Max; !near(hi, time.Duration(HistogramMax)) {
		t.Errorf("max %v, want about %v", hi, time.Duration(HistogramMax))
	}
	for ns, want := range map[int64]int64{-1: HistogramMin, 0: HistogramMin, 1500: 1500, HistogramMax: HistogramMax, math.MaxInt64: HistogramMax} {
		if got := Clamp(ns); got != want {
			t.Errorf("Clamp(%d) = %d, want %d", ns, got, want)
		}
	}
	// The histogram engine's progress line records through Record: same rule.
	h := NewHistogram()
	Record(h, 2*HistogramMax)
	Record(h, -1)
	if h.TotalCount() != 2 || time.Duration(h.Max()) != outside.Latencies.Max || time.Duration(h.Min()) != outside.Latencies.Min {
		t.Errorf("Record: count %d, min %d, max %d", h.TotalCount(), h.Min(), h.Max())
	}
}

func TestEmpty(t *testing.T) {
	var m Metrics
	m.Close()
	if !reflect.DeepEqual(m, Metrics{}) {
		t.Errorf("closed empty metrics %+v, want zero", m)
	}
	if m.Percentile(50) != 0 || m.Buckets() != nil || m.Successes() != 0 {
		t.Errorf("empty: p50 %v, buckets %v", m.Percentile(50), m.Buckets())
	}
	// Only failures: counts and a window, no latency.
	m.Add(&Execution{Start: t0, LatencyNs: int64(time.Second), ErrorCode: 1317})
	m.Close()
	if m.Executions != 1 || m.Errors != 1 || m.Latencies != (Latencies{}) || m.Buckets() != nil {
		t.Errorf("only failures: %+v", m)
	}
	if m.Duration != time.Second || m.Throughput != 1 {
		t.Errorf("only failures: window %v, throughput %v", m.Duration, m.Throughput)
	}
	// Merging nothing changes nothing.
	before := m
	m.Merge(&Metrics{})
	m.Close()
	if !reflect.DeepEqual(m, before) {
		t.Errorf("merge of empty: %+v, want %+v", m, before)
	}
}

func TestWindow(t *testing.T) {
	ms := int64(time.Millisecond)
	t.Run("unpaced", func(t *testing.T) {
		var m Metrics
		m.Add(&Execution{Start: t0.Add(time.Second), LatencyNs: 10 * ms})
		m.Add(&Execution{Start: t0, LatencyNs: 20 * ms})                                        // earliest start
		m.Add(&Execution{Start: t0.Add(3 * time.Second), LatencyNs: 999 * ms, ErrorCode: 1205}) // latest end, failed
		m.Add(&Execution{Start: t0.Add(3500 * time.Millisecond), LatencyNs: 1 * ms})
		m.Close()
		if !m.First.Equal(t0) || !m.Last.Equal(t0.Add(3999*time.Millisecond)) || m.Duration != 3999*time.Millisecond {
			t.Errorf("window %v .. %v (%v)", m.First, m.Last, m.Duration)
		}
		if want := 4 / (3999 * time.Millisecond).Seconds(); m.Throughput != want {
			t.Errorf("throughput %v, want %v", m.Throughput, want)
		}
	})
	t.Run("paced", func(t *testing.T) {
		// A paced statement sent late: its latency runs from the intended
		// start, so the window opens there and it ends at Start + the time
		// the server took.
		var m Metrics
		m.Add(&Execution{Start: t0.Add(50 * time.Millisecond), IntendedStart: t0, LatencyNs: 60 * ms})
		m.Add(&Execution{Start: t0.Add(1 * time.Second), IntendedStart: t0.Add(1 * time.Second), LatencyNs: 40 * ms})
		m.Close()
		if !m.First.Equal(t0) || m.Duration != 1040*time.Millisecond || m.Throughput != 2/(1040*time.Millisecond).Seconds() {
			t.Errorf("window %v .. %v (%v), throughput %v", m.First, m.Last, m.Duration, m.Throughput)
		}
	})
	t.Run("one instant", func(t *testing.T) {
		var m Metrics
		m.Add(&Execution{Start: t0, LatencyNs: 0, ErrorCode: 2013})
		m.Close()
		if m.Duration != 0 || m.Throughput != 0 || !m.First.Equal(t0) {
			t.Errorf("window %v, throughput %v", m.Duration, m.Throughput)
		}
	})
	t.Run("monotonic clock ignored", func(t *testing.T) {
		// A live run's times carry a monotonic reading; results files keep
		// the wall clock only. Both must give the same window.
		now := time.Now()
		later := now.Add(1234567 * time.Nanosecond)
		var live, read Metrics
		for _, s := range []time.Time{now, later} {
			live.Add(&Execution{Start: s, LatencyNs: 5 * ms})
			read.Add(&Execution{Start: time.Unix(0, s.UnixNano()), LatencyNs: 5 * ms})
		}
		live.Close()
		read.Close()
		if !reflect.DeepEqual(live, read) || live.First.Location() != time.UTC {
			t.Errorf("live %+v\nread back %+v", live, read)
		}
	})
}

// TestMergeEqualsAdd: merging the metrics of two halves of a stream gives
// exactly what adding the whole stream does, so a total made by merging
// scenarios equals one made row by row.
func TestMergeEqualsAdd(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var whole, a, b Metrics
	for i := 0; i < 5000; i++ {
		e := &Execution{
			Start:     t0.Add(time.Duration(rng.Int64N(int64(time.Minute)))),
			LatencyNs: int64(rng.ExpFloat64() * 2e6),
			Rows:      rng.Int64N(100),
			Retries:   int32(rng.IntN(2)),
		}
		if rng.IntN(50) == 0 {
			e.ErrorCode = int32(1000 + rng.IntN(3))
		}
		whole.Add(e)
		if i%3 == 0 {
			a.Add(e)
		} else {
			b.Add(e)
		}
	}
	var merged Metrics
	merged.Merge(&a)
	merged.Merge(&b)
	whole.Close()
	merged.Close()
	if !sameFigures(whole, merged) {
		t.Errorf("added   %+v\nmerged  %+v", whole, merged)
	}
	if !reflect.DeepEqual(whole.Buckets(), merged.Buckets()) {
		t.Error("merged histogram differs")
	}
}

// sameFigures compares everything but the histogram pointer and the
// batch of latencies not yet in it (of closed metrics: none).
func sameFigures(a, b Metrics) bool {
	a.hist, b.hist = nil, nil
	a.pending, b.pending = nil, nil
	return reflect.DeepEqual(a, b)
}

// TestAddUnixNanoEqualsAdd: adding by fields, times in Unix nanoseconds as
// results files keep them, gives what Add gives.
func TestAddUnixNanoEqualsAdd(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var byAdd, byFields Metrics
	for i := 0; i < 3000; i++ {
		e := &Execution{Start: t0.Add(time.Duration(rng.Int64N(int64(time.Minute)))), LatencyNs: int64(rng.ExpFloat64() * 2e6),
			Rows: rng.Int64N(100), Retries: int32(rng.IntN(2))}
		var intended int64
		if i%3 == 0 {
			e.IntendedStart = e.Start.Add(-time.Duration(rng.Int64N(int64(time.Millisecond))))
			intended = e.IntendedStart.UnixNano()
		}
		if rng.IntN(40) == 0 {
			e.ErrorCode = 1205
		}
		byAdd.Add(e)
		byFields.AddUnixNano(e.Start.UnixNano(), intended, e.LatencyNs, e.Rows, e.ErrorCode, e.Retries, e.CommitErrorCode)
	}
	byAdd.Close()
	byFields.Close()
	if !sameFigures(byAdd, byFields) || !reflect.DeepEqual(byAdd.Buckets(), byFields.Buckets()) {
		t.Errorf("Add %+v\nAddUnixNano %+v", byAdd, byFields)
	}
}

// TestLatenciesAreTheLibrarys: Close reads Min, P50, P95, P99 and Max in one
// scan; they are the library's own Min, ValueAtQuantile and Max, to the
// nanosecond, on histograms of every shape (one value, bounds, a narrow
// and a wide spread, bucket edges).
func TestLatenciesAreTheLibrarys(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	shapes := map[string]func() int64{
		"one value": func() int64 { return 1234567 },
		"bounds":    func() int64 { return []int64{0, HistogramMax + 1}[rng.IntN(2)] },
		"narrow":    func() int64 { return int64(1e6 * math.Exp(0.05*rng.NormFloat64())) },
		"wide":      func() int64 { return int64(1e6 * math.Exp(3*rng.NormFloat64())) },
		"edges":     func() int64 { return 1<<(10+rng.IntN(30)) - int64(rng.IntN(2)) },
	}
	for name, draw := range shapes {
		for _, n := range []int{1, 2, 7, 1000, 50000} {
			var m Metrics
			for i := range n {
				m.AddUnixNano(int64(i), 0, draw(), 0, 0, 0, 0)
			}
			m.Close()
			h := m.hist
			want := Latencies{
				Min: time.Duration(h.Min()), Mean: m.Latencies.Mean,
				P50: time.Duration(h.ValueAtQuantile(50)), P95: time.Duration(h.ValueAtQuantile(95)),
				P99: time.Duration(h.ValueAtQuantile(99)), Max: time.Duration(h.Max()),
			}
			if m.Latencies != want {
				t.Errorf("%s, %d latencies: %+v, the library's %+v", name, n, m.Latencies, want)
			}
		}
	}
}
