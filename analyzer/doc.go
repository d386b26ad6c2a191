// Package analyzer owns static analysis of scenario files: parsing with the
// TiDB parser, name resolution against the ddl schema model, one file per
// lint rule, diagnostics with positions in the original .sql file and
// suggested fixes (such as the RIGHT JOIN to LEFT JOIN rewrite), the
// output formats (text, JSON, SARIF and GitHub workflow commands, one
// file each) and the rule reference (reference.go, docs/rules.md).
//
// Valid SQL of the targeted flavour is never a syntax error: when the
// parser rejects a statement, the syntax the flavour accepts and the
// parser lacks is rewritten (internal/sqlcompat, compat.go) and the
// statement parsed again, positions mapped back to the file; what stays
// unreadable at a construct the flavour accepts is reported as not
// checked (rule not-checked), and with a live server its own parser
// decides (server_parse.go). The rewrites run only on a statement the
// parser rejected.
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
// It also owns lint's driver (Lint, lint.go): the files to lint as the
// corpus loader reads them (ReadFiles), each file's lint.conf and the
// rules the command line selects (selection.go), the schema and flavour
// to check against, the fix-write-reparse loop of --fix and the changes
// --diff prints (diff.go), the plan rules' findings of a live server, and
// the counts by severity the command exits by. The command maps its
// flags to LintOptions and prints the Result.
//
// It must not talk to a server itself, nor link a driver: a live
// server's schema, flavour and plans come through the Server interface,
// and its parser's verdicts through ServerParser, which package
// analyzer/liveplan implements. It must not read scenario
// files or value lists itself: the corpus loader does (a file's loader
// mistake becomes its scenario-format finding). It writes files only to
// apply --fix.
package analyzer
