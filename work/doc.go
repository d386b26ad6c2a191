// Package work measures the work of a statement's execution: the rows each
// table access read and how (access type, index, loops, pages), and the
// statement's counters (rows examined and changed, temporary tables, sort
// rows and passes, full scans and joins). With the same seed and data, two
// servers that run a statement with the same plan do exactly the same work,
// so work tells a plan or optimizer regression in a single run where the
// time of whole runs drifts by up to about 30% (bench/README.md).
//
// It owns the work model (Work, Table), the sources it is read from and
// their parsers (MariaDB's ANALYZE FORMAT=JSON, MySQL's EXPLAIN ANALYZE,
// session status deltas, performance_schema statement events), the rule
// that picks which executions are sampled (Sampler), and the
// per-execution summary a comparison judges (Summary, Describe); the
// Parquet row of a work file is results.Work. It links no driver: report
// and compare read work offline. Running the sources on a connection is
// the engine's (replay/workcapture). docs/work.md says which source serves which statement on which
// server, what a sample costs, and how a comparison reads the figures.
//
// It must not decide when the engine samples beyond the Sampler's rule,
// talk to a server, write files, or judge two runs: the engine calls it,
// package results writes its rows, compare judges them.
package work
