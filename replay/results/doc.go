// Package results owns the on-disk result format of a run: the Parquet row
// types (executions, plans, status), run.json, the streaming writers and the
// readers that report and compare use. Column names are snake_case and part
// of the contract with users' DuckDB, pandas and Spark queries: never rename
// one; add new columns as optional.
//
// # Layout
//
// A run is one hive-style folder, so that many runs read as one table:
//
//	<dir>/run=<id>/
//	    run.json                          the run's metadata (Run)
//	    executions-<host>-<n>.parquet     one row per statement executed (Execution)
//	    plans.parquet                     one row per distinct plan and format (Plan)
//	    status-<host>-<n>.parquet         server counter deltas per interval (Status)
//
// The rounds of a repeated comparison (joinbench ab) are runs too, laid
// out as <dir>/ab=<series>/side=<base|candidate>/run=<id>/, their run.json
// saying which side and round they are (Replicate).
//
// <host> is the client host (characters other than letters, digits, '.',
// '_' and '-' replaced by '_') and n counts files of the run from 0. Every
// row carries the run id.
//
// # Streaming and crash safety
//
// Writers keep at most one row group per open file in memory (64k rows by
// default) and stream row groups to disk, so memory does not grow with the
// length of a run. A Parquet file is only readable once its footer is
// written, so files are written under a ".parquet.tmp" name and renamed to
// ".parquet" when finished. Executions and status files are finished
// ("rolled") every Options.FileRows rows or Options.FileAge, whichever comes
// first, and on Close; the next rows go to a new file with the next n.
//
// The guarantee: every file named *.parquet is complete and readable at any
// moment, also after the process is killed with SIGKILL. A kill loses at
// most the rows of the files still open (*.parquet.tmp, at most FileAge of
// rows per writer) and plans found in the last second. run.json is replaced
// atomically (temp file and rename), so it is always either the previous or
// the new version.
package results
