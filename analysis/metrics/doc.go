// Package metrics is the one latency reducer of joinbench: it turns
// executions, added one at a time, into the figures a run is judged by
// (count, errors by code, retries, conflicts and failed COMMITs, rows,
// latency percentiles, throughput), and those
// into a Summary in milliseconds. The live summary printed at the end of
// `joinbench run` and `joinbench report` both use it and both embed its
// Summary, so that for the same run they print the same numbers to the
// digit, under the same names.
//
// It is a leaf package: it imports no other package of joinbench, takes
// executions as its own small Execution value, and knows nothing of Parquet,
// servers or output formats. It is its own package rather than a part of
// analysis/report so that the engine does not link the report's readers and
// renderers, and so that report does not import the engine: both import this
// leaf, and nothing else joins them.
//
// It must not print, read files or keep anything per execution: memory is
// one HDR histogram and a few counters per Metrics, whatever the run's
// length.
package metrics
