// Command joinbench finds join performance regressions in MySQL-family
// servers. This package is the command line only: flag parsing with kong and
// wiring of the corpus, analyzer, ddl and replay packages. It holds no logic
// of its own.
package main
