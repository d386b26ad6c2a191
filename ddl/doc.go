// Package ddl owns the workload's schema and data: the main and level table
// definitions as embedded .sql templates, the parsed schema model (tables,
// columns with full types, indexes) that the analyzer and the corpus resolve
// names against, the deterministic data generator, and prepare, warmup and
// cleanup against a server.
//
// It must not know about scenarios, lint rules or replay; it takes an open
// *sql.DB and never decides how to reach a server.
package ddl
