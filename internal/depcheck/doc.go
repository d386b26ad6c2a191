// Package depcheck lists the dependencies through which a package could
// talk to a server, for the tests that keep the offline packages (the
// schema model, lint, report and compare) free of them. Its own test,
// TestLayout, holds the imports allowed between the top-level folders,
// the arrows of ARCHITECTURE.md.
//
// It is for tests only: nothing but test files may import it.
package depcheck
