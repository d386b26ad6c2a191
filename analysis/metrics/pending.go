package metrics

// The latencies of successful executions reach the histogram a batch at a
// time. Recorded one by one as rows come, each took a cache miss when
// several scenarios' histograms take turns (a histogram's counts are 192
// KB, and a report's dozens of them do not stay in a core's cache): in a
// batch, the few thousand counts a scenario's latencies fall on are
// loaded once and reused (bench/README.md, report_vs_duckdb.sh).
//
// Everything that reads the histogram records the batch first, so a
// Metrics reads the same whenever its batch is recorded; but a read then
// writes, so a Metrics that several goroutines are to read at once must be
// flushed first (Flush, or Close).

// pendingLatencies is the size of the batch.
const pendingLatencies = 4096

// record adds a successful execution's latency to the batch, and the
// batch to the histogram when it is full.
func (m *Metrics) record(latencyNs int64) {
	if m.pending == nil {
		m.pending = make([]int64, 0, pendingLatencies)
	}
	m.pending = append(m.pending, latencyNs)
	if len(m.pending) == cap(m.pending) {
		m.Flush()
	}
}

// Flush records the latencies still pending into the histogram. Reads do
// it themselves; call it (or Close) before several goroutines read m at
// once, after which reads write nothing.
func (m *Metrics) Flush() {
	if len(m.pending) == 0 {
		return
	}
	if m.hist == nil {
		m.hist = NewHistogram()
	}
	for _, ns := range m.pending {
		Record(m.hist, ns)
	}
	m.pending = m.pending[:0]
}
