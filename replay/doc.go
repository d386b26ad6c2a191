// Package replay owns the run engine: targets (DSN, sandbox, several
// endpoints), workers, events, pacing, error policy, timing, EXPLAIN
// capture, Parquet result writing, live progress and summaries, and reading
// results back for report and compare.
//
// It must not parse scenario files itself (corpus does) nor create tables
// (ddl does).
package replay
