package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/joinbench/joinbench/internal/flavor"
)

// DetectFlavor asks the server for VERSION(), @@version_comment and its
// wsrep (Galera) state.
func DetectFlavor(ctx context.Context, db *sql.DB) (flavor.Flavor, error) {
	var version, comment string
	if err := db.QueryRowContext(ctx, "SELECT VERSION(), @@version_comment").Scan(&version, &comment); err != nil {
		return flavor.Flavor{}, fmt.Errorf("server version: %w", err)
	}
	fl := flavor.Parse(version, comment)
	if fl.Name == flavor.TiDB {
		return fl, nil
	}
	var name, value string
	err := db.QueryRowContext(ctx, "SHOW GLOBAL VARIABLES LIKE 'wsrep_on'").Scan(&name, &value)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return flavor.Flavor{}, fmt.Errorf("wsrep_on: %w", err)
	default:
		fl.Galera = strings.EqualFold(value, "ON") || value == "1"
	}
	return fl, nil
}
