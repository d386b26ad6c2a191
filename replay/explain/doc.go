// Package explain captures EXPLAIN output for a statement the way the
// server at hand supports it, and reduces a JSON plan to its shape: a hash
// that changes when the optimizer picks another plan (join order, access
// types, keys, join algorithm, subquery and derived table structure) and
// not when only estimates, costs or literal values change, plus a readable
// tree for showing and diffing plans.
//
// It knows the FORMAT=JSON dialects of MySQL (and Percona Server), MariaDB
// and TiDB ("tidb_json"). It must not decide when to explain (the engine
// does) nor write results (package results does).
package explain
