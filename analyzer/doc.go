// Package analyzer is the framework of static analysis of scenario files,
// laid out as golang.org/x/tools/go/analysis is: the Analyzer (a rule's
// name, documentation, default severity and Run), the Pass (what a rule
// sees of one file) and the Diagnostic with its suggested fixes; and the
// analysis behind the Pass, the resolved query model: tokens, the
// statements parsed with the TiDB parser, table references, joins, hints
// and names resolved against the ddl schema model, every position mapped
// back to the original .sql file.
//
// The sub-packages hold the rest, apart as go/analysis keeps them:
// analyzer/rules the rules (one file each, in an explicit list, seeing
// only the Pass: they cannot reach the analysis behind it), analyzer/lint
// the driver (the files to lint, lint.conf, --select and --ignore, the
// --fix write loop and --diff, the plan check, the counts), analyzer/output
// the formats (text, JSON, SARIF, GitHub), and analyzer/liveplan a live
// server's side. This package imports none of them (TestLayout checks):
// the rules to run come in Options.Rules.
//
// The framework makes two findings of its own, which no rule's Run could:
// scenario-format, for a file the corpus loader refuses, and lint-ignore,
// for the file's suppression comments (suppress.go), which it applies to
// every rule's findings. It also applies suggested fixes to a text
// (FixFile: edit, re-read, again until nothing changes).
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
// What a statement does (a read, DML, DDL ...) is corpus.ClassifyStmt's to
// say, the classification run --read-only also uses: rules ask it rather
// than classify statements themselves.
//
// It must not talk to a server itself, nor link a driver: a live
// server's parser verdicts come through ServerParser, which package
// analyzer/liveplan implements. It must not read scenario files or value
// lists itself: the corpus loader does (a file's loader mistake becomes
// its scenario-format finding).
package analyzer
