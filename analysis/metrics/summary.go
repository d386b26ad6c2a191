package metrics

import "time"

// Summary is the latency summary of a scenario or of a whole run: the
// figures of closed Metrics, in milliseconds, as people read them. The live
// summary of a run and the report both embed it, so that they print the
// same figures and name them the same way. Latency figures cover the
// executions that succeeded; QPS is executions per second of the window
// (see Metrics).
type Summary struct {
	Executions int64   `json:"executions"` // succeeded and failed
	Errors     int64   `json:"errors"`
	ErrorRate  float64 `json:"error_rate"`
	// Retries are the statements run again after a deadlock or lock wait
	// timeout (run --ignore-errors); Conflicts the events whose COMMIT a
	// cluster's certification refused, FailedCommits those whose COMMIT
	// failed for any reason (conflicts included). See Metrics.
	Retries       int64 `json:"retries"`
	Conflicts     int64 `json:"conflicts"`
	FailedCommits int64 `json:"failed_commits"`
	// Warned are the executions answered with warnings (Metrics.Warned).
	Warned int64   `json:"warned,omitempty"`
	MeanMs float64 `json:"mean_ms"`
	P50Ms  float64 `json:"p50_ms"`
	P95Ms  float64 `json:"p95_ms"`
	P99Ms  float64 `json:"p99_ms"`
	MaxMs  float64 `json:"max_ms"`
	QPS    float64 `json:"queries_per_second"`
	// CutAtEnd counts the statements still running when a run or round
	// ended (in neither Executions nor Errors), and CutRanMs is the longest
	// time one of them had run: a lower bound of its latency. Metrics
	// never sees such statements: whoever reads them sets these (SetCut).
	CutAtEnd int64   `json:"cut_at_end,omitempty"`
	CutRanMs float64 `json:"cut_ran_ms,omitempty"`
}

// SummaryOf returns the summary of closed metrics.
func SummaryOf(m *Metrics) Summary {
	l := m.Latencies
	s := Summary{Executions: m.Executions, Errors: m.Errors, Retries: m.Retries, Conflicts: m.Conflicts, FailedCommits: m.FailedCommits,
		Warned: m.Warned, MeanMs: Milliseconds(l.Mean), P50Ms: Milliseconds(l.P50), P95Ms: Milliseconds(l.P95), P99Ms: Milliseconds(l.P99),
		MaxMs: Milliseconds(l.Max), QPS: m.Throughput}
	if m.Executions > 0 {
		s.ErrorRate = float64(m.Errors) / float64(m.Executions)
	}
	return s
}

// SetCut records a scenario's statements cut at the end: n of them, the
// longest after running ran.
func (s *Summary) SetCut(n int64, ran time.Duration) {
	s.CutAtEnd, s.CutRanMs = n, Milliseconds(ran)
}
