package replay

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/joinbench/joinbench/internal/usage"
)

// connectionsFree returns the server's max_connections and how many
// connections are in use (Threads_connected, this one included).
func connectionsFree(ctx context.Context, db *sql.DB) (limit, used int, err error) {
	if err := db.QueryRowContext(ctx, "SELECT @@max_connections").Scan(&limit); err != nil {
		return 0, 0, fmt.Errorf("max_connections: %w", err)
	}
	var name string
	if err := db.QueryRowContext(ctx, "SHOW GLOBAL STATUS LIKE 'Threads_connected'").Scan(&name, &used); err != nil {
		return 0, 0, fmt.Errorf("Threads_connected: %w", err)
	}
	return limit, used, nil
}

// checkConnections refuses a run whose threads an endpoint cannot take:
// the workers' connections (threads share the endpoints round-robin) and
// one more for EXPLAIN, the connection checking being the status one.
// Better one clear line now than thousands of "Too many connections".
func checkConnections(ctx context.Context, ep *Endpoint, workers int) error {
	limit, used, err := connectionsFree(ctx, ep.admin())
	if err != nil {
		return nil // a server that does not say: the run will tell
	}
	if need, free := workers+1, limit-used; need > free {
		return usage.Errorf("--threads: %s takes %d more connections (max_connections %d, %d in use) and the run needs %d "+
			"(%d threads and one for EXPLAIN): lower --threads or raise max_connections", ep.Name, max(free, 0), limit, used, need, workers)
	}
	return nil
}
