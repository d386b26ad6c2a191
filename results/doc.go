// Package results owns the on-disk result format of a run: the Parquet row
// types (executions, plans, status; work's row is package work's),
// run.json, the streaming writers and the readers that report and compare
// use. Column names are snake_case and part
// of the contract with users' DuckDB, pandas and Spark queries: never rename
// one; add new columns as optional. The row types' struct tags
// (records.go) are the one definition of the columns: readers name
// columns by the fields that hold them (schema.go), and other packages
// read some columns of executions with ScanExecutionFields rather than a
// row type of their own.
//
// # Layout
//
// A run is one hive-style folder, so that many runs read as one table:
//
//	<dir>/run=<id>/
//	    run.json                          the run's metadata (Run)
//	    executions-<host>-<n>.parquet     one row per statement executed (Execution)
//	    executions-<host>-<n>.rows        the same rows, journalled, until the writer closes
//	    plans.parquet                     one row per distinct plan and format (Plan)
//	    status-<host>-<n>.parquet         server counter deltas per interval (Status)
//	    status-<host>-<n>.rows            the same rows, journalled, for up to a minute
//	    work-<host>-<n>.parquet           the work of sampled executions (Work, work_row.go)
//	    work-<host>-<n>.rows              the same rows, journalled, for up to a minute
//	    actions.parquet                   one row per action and endpoint (Action)
//	    recovery.parquet                  one row per node a crash action killed (Recovery)
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
// ".parquet" when finished. Executions files are finished ("rolled") every
// Options.FileAge (1 second) or Options.FileRows rows, whichever comes
// first, also while no rows come (ExecutionWriter.RollIfOld), and on Close;
// the next rows go to a new file with the next n. Server counters (status
// rows) are journalled as they come (status-<host>-<n>.rows, a frame per
// report interval) and made a status file every StatusFileAge (1
// minute).
//
// The guarantee: every file named *.parquet is complete and readable at any
// moment, also after the process is killed with SIGKILL. Without a journal
// (below), a kill loses the rows of the files still open (*.parquet.tmp: at
// most a second of executions) and plans found in the last second; a
// killed client's server counters are all in its status journal, which
// Recover makes Parquet.
// run.json is replaced atomically (temp file and rename), so it is always
// either the previous or the new version; a run.json written at the start
// and never completed has no end, and ReadRunInfo warns of it.
//
// One-second files are the price of that guarantee, and a small one:
// 3,600 files per hour per client host, each with a few kilobytes of
// footer and headers whatever the rate, and no more CPU per row to write
// and compress than one large file (bench/README.md,
// BenchmarkExecutionWriter "1s-at-65k").
//
// # The journal
//
// With Options.Journal (what joinbench run uses unless --live-results),
// an ExecutionWriter appends rows to a journal instead
// (executions-<host>-<n>.rows, one per 262,144 rows, journal.go) and
// turns each into the executions file of the same number when it closes
// (convert.go): the Parquet encoding leaves the measured time, and
// appending costs a fraction of it (bench/README.md, "The executions
// journal"). No Parquet reader
// sees the rows until then. A killed client's journals keep every frame
// written (one per batch); Recover, which report and compare run first,
// makes them Parquet, its status journals too, and leaves alone the
// journals a running client holds locked. A frame that does not verify
// (a flipped byte, zeros a crash left) is skipped, counted and warned
// of, and reading goes on at the next one; a journal not converted whole
// is kept, renamed <name>.rows.damaged. Conversions of one run folder
// take turns (a lock on the folder), so that two reports started at once
// both read every row.
//
// A file that cannot be written (a full disk) is removed, the writer
// returns a WriteError naming it, and the run stops; the files finished
// before are kept, and run.json records the error, in 64 KB set aside at
// Create for it (".reserve", removed when the folder is closed).
// ReadRunInfo warns when a run's files hold fewer executions than its
// run.json counts.
//
// # Reading
//
// ScanExecutions streams rows; ScanExecutionColumns, what report and
// compare read through, decodes only the columns they need, a column chunk
// at a time into typed slices (dictionary-encoded strings as their
// indexes; checksums and parameter lists too), several files at once, and
// hands the row groups over in the order of the rows: tens of times faster
// than building rows, in memory of a few row groups per core. A caller
// whose work does not depend on the order of rows does it on the worker
// that decoded the group (ColumnScan.Each), so that it runs on every core.
// Row-group statistics cannot answer percentiles or time series, which
// need every latency; they answer for columns that hold only nulls or
// only zeros in a group (no intended start, plan, checksum or error),
// which are then not decoded, and for row counts (CountExecutions).
// What a scan leaves out of the few rows it picks (the parameters of the
// slowest executions) is read back by their place (ExecutionColumns.Ref,
// ReadExecutionsAt), a page per column rather than a row group.
package results
