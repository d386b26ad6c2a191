// Package results owns the on-disk format of a run: the Parquet row types
// (executions, plans, status, work, actions, recovery), run.json, the
// journals, the streaming writers and the readers that report and compare
// use. What the files are, what they guarantee and what every column means
// is docs/results.md's, for users; this says where the code keeps it.
//
// The row types' struct tags are the one definition of the columns
// (records.go, work_row.go, actions.go, recovery.go): readers name columns
// by the fields that hold them (schema.go). Column names are snake_case and
// part of the contract with users' DuckDB, pandas and Spark queries: never
// rename one; add new columns as optional.
//
// Writing: RunDir (rundir.go) lays out run=<id>/; writers stream row
// groups (writers.go, series.go), so memory does not grow with a run's
// length, and write *.parquet.tmp files renamed when finished, so that
// every *.parquet is complete at any moment, after a SIGKILL too.
// Executions and status rows are journalled first (journal.go, a codec per
// row type in journal_codec.go and work.go: a column added to a row type
// goes at the end of its rows under a new journal layout, and the
// journals of the build before still read) and made Parquet when the
// writer closes (convert.go). Recover makes Parquet of the journals a
// killed client left. run.json is replaced atomically.
//
// Reading: ScanExecutions streams rows; ScanExecutionColumns, what report
// and compare read through, decodes only the columns they need, a column
// chunk at a time into typed slices, over several files at once, in the
// order of the rows, and skips the columns a row group's statistics show
// to be all nulls or zeros; ReadExecutionsAt reads back a few rows by
// their place (ExecutionColumns.Ref).
//
// It is a leaf: it imports nothing of joinbench but internal/flavor and
// internal/usage (deps_test.go), takes rows as its own types, and must not
// measure, judge or print.
package results
