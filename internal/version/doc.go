// Package version says which build of joinbench is running, for
// --version, run.json and SARIF output. It owns the order in which the
// sources of a version are tried (a stamp given at build time, then the
// Go build information); it must not run commands or read files, so that
// every kind of build (make, go install, a container) answers the same
// way without a git checkout at hand.
package version
