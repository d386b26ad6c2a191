// Package capture runs EXPLAIN for a statement on a server the way the
// server at hand supports it (FORMAT=JSON, the tree format, EXPLAIN ANALYZE
// or MariaDB's ANALYZE), and returns each format's text, with the JSON plan
// repaired and hashed by package explain.
//
// It is the server side of explain: it must not parse plans itself
// (package explain does), decide when to explain (the engine does) nor
// write results (package results does).
package capture
