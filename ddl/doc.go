// Package ddl owns the workload's schema and data: the main and level table
// definitions as embedded .sql templates, the parsed schema model (tables,
// columns with full types, indexes) that the analyzer and the corpus resolve
// names against, the model of a database as its information_schema lists
// it (SchemaFromCatalog), and the deterministic data generator (with
// DumpTSV, which writes its rows to files).
//
// It must not know about scenarios, lint rules or replay, and it must not
// talk to a server or link a driver: offline commands (lint, list, show)
// import it. Creating, loading, warming up, cleaning up and reading back
// tables on a server is package ddl/load's.
package ddl
