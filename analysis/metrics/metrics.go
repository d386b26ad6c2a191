package metrics

import (
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Execution is what the reducer reads of one executed statement.
type Execution struct {
	// Start is when the statement was sent.
	Start time.Time
	// IntendedStart is when a paced run meant to send it; zero when the run
	// was not paced.
	IntendedStart time.Time
	// LatencyNs is measured from IntendedStart when it is set, else from
	// Start, as the engine records it.
	LatencyNs int64
	Rows      int64 // rows returned or affected
	ErrorCode int32 // 0 when it succeeded
	Retries   int32 // deadlock / lock wait retries before this outcome
	// CommitErrorCode is the error of the COMMIT that ended its event, on
	// the event's last statement; 0 when there was none.
	CommitErrorCode int32
	// Warnings is the server's warning count for it (0 when none or not
	// counted: results.Run.WarningsCounted).
	Warnings int32
}

// IsConflict reports whether a COMMIT that failed with code was refused
// by a cluster's certification: Galera's deadlock error 1213 (another
// node's write-set won, or a brute-force abort at commit; InnoDB finds
// its own deadlocks on a statement, never at COMMIT) or Group
// Replication's 3101 (rollback during commit).
func IsConflict(code int32) bool { return code == 1213 || code == 3101 }

// Latencies are the latency figures of the executions that succeeded, read
// from the histogram (so within its 0.1% resolution), each clamped into
// [HistogramMin, HistogramMax].
type Latencies struct {
	Min  time.Duration
	Mean time.Duration
	P50  time.Duration
	P95  time.Duration
	P99  time.Duration
	Max  time.Duration
}

// Metrics reduces executions, added one at a time, to a run's figures. Add
// them with Add (or combine two with Merge), then call Close to compute
// Latencies, the window and Throughput; adding more after Close and closing
// again is fine. The zero value is ready to use. It is not safe for
// concurrent use, reads included until it is flushed (pending.go).
//
// The window is [First, Last]: First is the earliest intended start of an
// execution (its start when the run was not paced), Last the latest end
// (that same instant plus the latency). Failed executions count in it.
// Throughput is executions, succeeded and failed, per second of the window:
// it covers exactly the time the recorded executions were due or running,
// not the warmup, not the set-up before the first statement nor the wait
// after the last, so that it can be computed again from the results files
// alone.
type Metrics struct {
	Executions int64           // succeeded and failed
	Errors     int64           // failed
	ErrorCodes map[int32]int64 // failures by server error code; nil when none
	Retries    int64           // deadlock / lock wait retries, over all executions
	Rows       int64           // rows returned or affected by the executions that succeeded
	// FailedCommits are the events whose COMMIT failed, and Conflicts
	// those of them a cluster's certification refused (IsConflict). Their
	// statements succeeded: they are not Errors.
	FailedCommits, Conflicts int64
	// Warned are the executions the server answered with warnings (a
	// warning count above 0), failed ones included.
	Warned int64

	// Set by Close.
	Latencies  Latencies
	First      time.Time     // UTC; zero when there were no executions
	Last       time.Time     // UTC; zero when there were no executions
	Duration   time.Duration // Last - First
	Throughput float64       // executions per second of Duration; 0 when Duration is 0

	hist *hdrhistogram.Histogram
	// first and last are Unix nanoseconds: comparing integers is cheaper
	// than comparing times, and the wall clock is what results files keep
	// (a time.Time from time.Now also carries a monotonic reading, which
	// would make a live run's window differ from the one read back).
	first, last int64
	// pending are latencies not yet in hist (pending.go).
	pending []int64
}

// Add records one execution.
func (m *Metrics) Add(e *Execution) {
	from := e.Start.UnixNano() // when it was due: the intended start, else the start
	if !e.IntendedStart.IsZero() {
		from = e.IntendedStart.UnixNano()
	}
	m.add(from, e.LatencyNs, e.Rows, e.ErrorCode, e.Retries, e.CommitErrorCode)
	if e.Warnings > 0 {
		m.Warned++
	}
}

// AddUnixNano is Add of an execution given by its fields, times as Unix
// nanoseconds (as results files keep them), intended 0 when the run was
// not paced: readers of many rows need not build a time per row.
func (m *Metrics) AddUnixNano(start, intended, latencyNs, rows int64, errorCode, retries, commitErrorCode int32) {
	if intended != 0 {
		start = intended
	}
	m.add(start, latencyNs, rows, errorCode, retries, commitErrorCode)
}

// add records an execution due at from (Unix nanoseconds).
func (m *Metrics) add(from, latencyNs, rows int64, errorCode, retries, commitErrorCode int32) {
	m.Executions++
	m.Retries += int64(retries)
	if commitErrorCode != 0 {
		m.FailedCommits++
		if IsConflict(commitErrorCode) {
			m.Conflicts++
		}
	}
	if errorCode != 0 {
		m.addError(errorCode)
	} else {
		m.Rows += rows
		m.record(latencyNs)
	}
	to := from + max(latencyNs, 0)
	if m.Executions == 1 {
		m.first, m.last = from, to
		return
	}
	m.first, m.last = min(m.first, from), max(m.last, to)
}

func (m *Metrics) addError(code int32) {
	m.Errors++
	if m.ErrorCodes == nil {
		m.ErrorCodes = map[int32]int64{}
	}
	m.ErrorCodes[code]++
}

// Merge adds everything recorded in o to m, as if each of o's executions
// had been added to m. It flushes o.
func (m *Metrics) Merge(o *Metrics) {
	if o.Executions == 0 {
		return
	}
	if m.Executions == 0 || o.first < m.first {
		m.first = o.first
	}
	if m.Executions == 0 || o.last > m.last {
		m.last = o.last
	}
	m.Executions += o.Executions
	m.Errors += o.Errors
	m.Retries += o.Retries
	m.FailedCommits += o.FailedCommits
	m.Conflicts += o.Conflicts
	m.Warned += o.Warned
	m.Rows += o.Rows
	for code, n := range o.ErrorCodes {
		if m.ErrorCodes == nil {
			m.ErrorCodes = map[int32]int64{}
		}
		m.ErrorCodes[code] += n
	}
	o.Flush()
	if o.hist != nil {
		if m.hist == nil {
			m.hist = NewHistogram()
		}
		m.hist.Merge(o.hist)
	}
}

// Close computes Latencies, the window and Throughput from what was added
// (and flushes m: see pending.go).
func (m *Metrics) Close() {
	m.Flush()
	m.Latencies = Latencies{}
	if m.hist != nil && m.hist.TotalCount() > 0 {
		// The library's Min, P50, P95, P99 and Max in one scan of the
		// counts (percentile 0 is its Min, 100 its Max: the same values,
		// metrics_test.go checks) instead of its Max's walk of every index.
		v := m.hist.ValueAtPercentilesSlice([]float64{0, 50, 95, 99, 100})
		m.Latencies = Latencies{
			Min:  time.Duration(v[0]),
			Mean: time.Duration(int64(m.hist.Mean() + 0.5)),
			P50:  time.Duration(v[1]),
			P95:  time.Duration(v[2]),
			P99:  time.Duration(v[3]),
			Max:  time.Duration(v[4]),
		}
	}
	m.First, m.Last, m.Duration, m.Throughput = time.Time{}, time.Time{}, 0, 0
	if m.Executions == 0 {
		return
	}
	m.First, m.Last = time.Unix(0, m.first).UTC(), time.Unix(0, m.last).UTC()
	m.Duration = time.Duration(m.last - m.first)
	if m.Duration > 0 {
		m.Throughput = float64(m.Executions) / m.Duration.Seconds()
	}
}

// Successes is the number of latencies recorded: the executions that
// succeeded.
func (m *Metrics) Successes() int64 { return m.Executions - m.Errors }

// Percentile returns the latency at percentile p (0 to 100) of the
// executions that succeeded: the smallest recorded value that p% of them
// do not exceed, p = 0 being the minimum. It is 0 when none succeeded.
func (m *Metrics) Percentile(p float64) time.Duration {
	m.Flush()
	if m.hist == nil || m.hist.TotalCount() == 0 {
		return 0
	}
	if p <= 0 {
		return time.Duration(m.hist.Min())
	}
	return time.Duration(m.hist.ValueAtQuantile(p))
}

// Bucket is one non-empty bucket of the latency histogram: Count latencies
// between From and To.
type Bucket struct {
	From, To time.Duration
	Count    int64
}

// Buckets returns the histogram's non-empty buckets in ascending order
// (the library's Distribution, without its empty bars: see eachCount).
func (m *Metrics) Buckets() []Bucket {
	var out []Bucket
	m.EachBucket(func(b Bucket) { out = append(out, b) })
	return out
}

// EachBucket calls fn for each of Buckets in turn, without making the
// slice (thousands of buckets for a scenario whose latencies spread).
func (m *Metrics) EachBucket(fn func(Bucket)) {
	m.Flush()
	if m.hist == nil {
		return
	}
	eachCount(m.hist, func(from, to, count int64) {
		fn(Bucket{From: time.Duration(from), To: time.Duration(to), Count: count})
	})
}

// Milliseconds converts a latency for display: the live summary and the
// report both print milliseconds, computed the same way to the last bit.
func Milliseconds(d time.Duration) float64 { return float64(d) / 1e6 }
