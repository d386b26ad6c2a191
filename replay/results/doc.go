// Package results owns the on-disk result format of a run: the Parquet row
// types (executions, plans, status), run.json, the streaming writers and the
// readers that report and compare use. Column names are snake_case and part
// of the contract with users' DuckDB, pandas and Spark queries: never rename
// one; add new columns as optional.
package results
