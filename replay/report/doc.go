// Package report turns the Parquet results of runs into a report (per
// scenario summaries, latency over time, plans, server counters) and
// compares two runs into a verdict per scenario (regression, improvement,
// no change, too noisy to judge, wrong results) with confidence intervals.
// Each run folder of a side is a round: over several rounds, intervals
// come from the spread of per-round statistics (paired when the rounds
// were interleaved); a single round falls back to a bootstrap over its
// executions with a noise floor (drawing order statistics from the
// latency histogram, so every execution counts). A run in lockstep with
// the other side's holds one round per time slice. A calibration (A/A
// rounds) stores each scenario's noise on a setup for later comparisons.
//
// It reads results through replay/results by columns, a row group at a
// time (ScanExecutionColumns), on every core: each worker adds what it
// decodes into a partial accumulator, and the partials are merged exactly
// (collect_parallel.go). Memory is bounded by per-scenario histograms
// (per worker) and per-round samples, never by row count. The
// figures of a summary come from replay/metrics, the reducer the live
// summary of a run uses too. It renders text, markdown, JSON and a
// self-contained HTML page (inline CSS, JS and SVG charts: it opens
// offline). It never talks to a server.
package report
