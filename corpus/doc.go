// Package corpus owns the scenario file format: the `-- key: value` header,
// typed placeholder declarations, value generators and their distributions,
// loading (the built-in scenarios embedded with go:embed plus user
// directories and files, with their NAME.list value lists) and rendering a
// scenario into SQL text and bound arguments. Its loader is the only one:
// list, show, run and lint all read scenarios through Load or Check, so
// they accept and refuse the same files.
//
// Each placeholder kind is one descriptor in a file of its own
// (kind_*.go): how its arguments parse, how its values compile and draw,
// and, for lint (Scenario.CheckParam, Scenario.ParamFits), what a schema
// must hold for it and which columns its values fit. The analyzer finds
// the column a placeholder is compared with; the kind says whether it
// fits.
//
// It also owns the one classification of statements (stmtkind.go): each
// statement it cuts is parsed with the TiDB parser only to tell what it
// does (a plain read, DML, DDL, a locking read, SET, CALL ...), which
// run --read-only, run.json, list and lint's rules all use.
//
// It must not analyse SQL beyond finding placeholders and classifying
// statements (resolving names and checking rules are the analyzer's job),
// and must not talk to a server.
package corpus
