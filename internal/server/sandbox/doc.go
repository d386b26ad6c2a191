// Package sandbox starts and stops throwaway MySQL-family servers (MariaDB,
// MySQL, Percona Server) from a server binary, the way dbdeployer and
// mysql-test-run do: a fresh data directory, --no-defaults so no my.cnf on
// the machine can interfere, 127.0.0.1 on a free port, benchmark-friendly
// settings, a clean shutdown at the end.
//
// Named sandboxes are long-lived: their state lives in a directory (one
// sub-directory per name) so that several servers, e.g. two versions to
// compare, run side by side across commands.
//
// The package knows nothing of scenarios, schemas or results.
package sandbox
