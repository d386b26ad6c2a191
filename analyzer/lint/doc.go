// Package lint is the lint command's driver (Lint): the files to lint as
// the corpus loader reads them (ReadFiles), each file's lint.conf
// (config.go) and the rules the command line selects (selection.go), the
// schema and flavour to check against (built in, a --schema file or a
// live server), the --fix loop that writes the fixed files and reads
// them again and the changes --diff prints (diff.go), a live server's
// parser and plan checks, and the counts by severity the command exits
// by. The command maps its flags to Options and prints the Result with
// package analyzer/output.
//
// It must not link a driver: a live server comes through the Server
// interface, which analyzer/liveplan implements. It writes files only to
// apply --fix.
package lint
