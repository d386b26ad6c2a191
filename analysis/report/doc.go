// Package report reads the Parquet results of runs. It turns each run into
// a report (per scenario summaries, latency over time, plans, the SQL,
// slowest executions and error messages, server
// counters, clients of a split run, the nodes that served the connections,
// what actions cost), and it gives analysis/judge the readers of the two
// sides of a comparison, in the typed inputs of analysis/compare's rule:
// ReadSides and ScenarioInput (sides.go: per scenario, its executions'
// metrics, plans, statement texts, result checksums, statements cut at
// the end), ChecksumExamples (the parameters of mismatches), ReadRounds
// (replicates.go: each run folder of a side is a round, or each time
// slice of a run in lockstep with the other side's, with per-round
// latency samples and what every round did whatever the scenario, the
// rule's evidence that a side's server answered) and ReadActionCosts
// (stalls.go). A run.json no run writes (edited or damaged) is refused
// before it sizes anything (runcheck.go).
//
// It reads results through results by columns, a row group at a
// time (ScanExecutionColumns), on every core: each worker adds what it
// decodes into a partial accumulator, and the partials are merged exactly
// (collect_parallel.go). The few rows a report shows whole (each
// scenario's slowest executions, the first failure of each error code) are
// kept as places during the scan and read back after it (details.go).
// Memory is bounded by per-scenario histograms (per worker), a bounded
// number of such rows and per-round samples, never by row count. The figures of a
// summary come from analysis/metrics, the reducer the live summary of a run
// uses too.
//
// It must not judge (the rule and its statistics are analysis/compare's and
// analysis/stats', comparing runs by it analysis/judge's), nor render (analysis/render does), and never talks to a
// server.
package report
