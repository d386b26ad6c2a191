// Package ingest turns a captured workload into scenario files: it reads
// what a server logged or counted of the statements it ran (a slow query
// log of MySQL, MariaDB or Percona Server, a general query log, the rows
// of performance_schema's events_statements_summary_by_digest), groups
// the statements by fingerprint as pt-query-digest does (literals out,
// IN lists folded, comments, case and white space normalised), ranks the
// groups by total time and count, and writes one scenario per group whose
// literals became typed placeholders fitted to the columns they are
// compared with (read from a schema) and to the values the log saw.
//
// It owns reading the log formats, fingerprinting, the statistics of a
// group (count, total, p95), the inference of placeholder kinds and
// writing the scenario files. It talks to a server only to read the
// digest table, through a connection its caller opened (live.go); it
// never writes a statement that may carry a password: those are dropped
// as they are read.
package ingest
