// Command joinbench finds join performance regressions in MySQL-family
// servers. This package is the command line only: flag parsing with kong,
// flags mapped to each package's typed options, one call, and printing.
// Flags follow one set of conventions across commands (conventions.go,
// printed in docs/cli.md and held by conventions_test.go); old spellings
// live on as hidden aliases (flag_aliases.go).
//
// The one piece of wiring that is more than a call is runOnce: a run
// without a named server gets a throwaway sandbox whose tables the ddl
// loader prepares before the replay session starts. It lives here because
// replay must not import the loader (the engine knows workloads, not how
// a dataset is made), and the loader must not know about runs.
package main
