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
// A named sandbox can also be a MariaDB Galera cluster (cluster.go): N
// servers on 127.0.0.1, each on its own ports and with its own option file,
// bootstrapped, joined and stopped in the order Galera needs, and started
// again from the node that holds the cluster's latest state (grastate.go).
// A new cluster's nodes start from a copy of node1's data, so that they
// join with no state transfer (seed.go).
//
// Named (named.go) is a named sandbox of either kind, its servers in a
// list: a single server is the one-server case, so that what commands do
// alike to both (stop, status, list, connect) is written once.
//
// The faults a run injects on its servers are here too: a clean restart
// (restart.go) and a crash, SIGKILL then the recovery an operator makes,
// noting when each server was writable and Synced again and, from a
// joiner's log, its state transfer (crash.go, transfer.go); and the
// rebuild of a node from a mariabackup backup (throttled when asked, with
// a load of the caller's beside it), its redo apply timed on its own, with
// other memories on copies of the same backup too, and what its log says
// of its batches (restore.go). So is
// resizing a running server's buffer pool for one command (bufferpool.go),
// and restarting a single server with options of one command's own, a
// setting it reads only at start (serverargs.go).
// A cluster node may have options of its own, kept across starts
// (nodeoptions.go).
//
// Every change made to a sandbox is noted first in its ledger (ledger.go,
// package ledger), so that what a killed joinbench left can be undone by
// the next command (repair.go, one repair at a time: the ledger folder's
// lock), and before the sandbox stops; its servers are found by their data
// folder and port as well as by their pid, and a server its state does
// not name is stopped rather than joined by a second one (orphan.go).
//
// The package knows nothing of scenarios, schemas or results.
package sandbox
