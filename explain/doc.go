// Package explain reduces a JSON EXPLAIN plan to its shape, offline: a hash
// that changes when the optimizer picks another plan (join order, access
// types, keys, join algorithm, subquery and derived table structure) and
// not when only estimates, costs or literal values change; a readable tree
// for showing and diffing plans; and the table accesses the lint plan rules
// compare with a statement's hints. It repairs MariaDB's JSON where the
// server writes SQL escapes into it.
//
// It knows the FORMAT=JSON dialects of MySQL (and Percona Server), MariaDB
// and TiDB ("tidb_json"). It works on text only and links no driver: the
// report and lint read plans through it without a server. Running EXPLAIN
// on a server is explain/capture's; deciding when to explain is the
// engine's, and writing plans is package results'.
package explain
