// Package analyzer owns static analysis of scenario files: parsing with the
// TiDB parser, name resolution against the ddl schema model, one file per
// lint rule, diagnostics with positions in the original .sql file and
// suggested fixes (such as the RIGHT JOIN to LEFT JOIN rewrite), and the
// text, JSON and SARIF output formats.
//
// A rule is an Analyzer in a rule_*.go file of its own. It sees a file
// through its Pass (pass.go), as a go/analysis analyzer sees a package:
// the source, the scenario's parameters, the tokens, the parsed
// statements, the table references, joins and hints, the resolved names,
// the schema, the flavour, a live server's plan, and the report
// functions; never the analysis that builds them (unit.go).
//
// What a statement does (a read, DML, DDL ...) is corpus.ClassifyStmt's to
// say, the classification run --read-only also uses: rules ask it rather
// than classify statements themselves.
//
// It must not talk to a server except through a schema model built by ddl,
// and must not read scenario files or value lists itself: the corpus
// loader does (a file's loader mistake becomes its scenario-format finding).
package analyzer
