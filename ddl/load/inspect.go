package load

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/usage"
)

// ServerInfo is what Prepare needs to know about the server.
type ServerInfo struct {
	Version        string
	VersionComment string
	LocalInfile    bool
	MaxPacket      int64
}

// CheckServer asks the server who it is. A server that does not answer the
// MySQL system variables is not MySQL-compatible: a user error.
func CheckServer(ctx context.Context, db *sql.DB) (*ServerInfo, error) {
	var si ServerInfo
	var localInfile sql.NullString
	err := db.QueryRowContext(ctx, "SELECT @@version, @@version_comment, @@local_infile, @@max_allowed_packet").
		Scan(&si.Version, &si.VersionComment, &localInfile, &si.MaxPacket)
	if err != nil {
		var me *mysql.MySQLError
		if errors.As(err, &me) {
			return nil, usage.Errorf("the server does not look MySQL-compatible (SELECT @@version, @@version_comment, @@local_infile, @@max_allowed_packet: %v)", err)
		}
		return nil, usage.Errorf("cannot query the server: %v", err)
	}
	si.LocalInfile = localInfile.String == "1" || strings.EqualFold(localInfile.String, "ON")
	return &si, nil
}

// ExistingTables returns which of names exist in the connection's current
// database, in the order of names.
func ExistingTables(ctx context.Context, db *sql.DB, names []string) ([]string, error) {
	rows, err := db.QueryContext(ctx, "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()")
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	defer rows.Close()
	have := map[string]bool{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		have[strings.ToLower(n)] = true
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var out []string
	for _, n := range names {
		if have[strings.ToLower(n)] {
			out = append(out, n)
		}
	}
	return out, nil
}

// MissingTables returns those of names that the connection's current
// database does not have, in the order given.
func MissingTables(ctx context.Context, db *sql.DB, names []string) ([]string, error) {
	have, err := ExistingTables(ctx, db, names)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range names {
		if !slices.Contains(have, n) {
			out = append(out, n)
		}
	}
	return out, nil
}

func currentDatabase(ctx context.Context, db *sql.DB) (string, error) {
	var name sql.NullString
	if err := db.QueryRowContext(ctx, "SELECT DATABASE()").Scan(&name); err != nil {
		return "", fmt.Errorf("current database: %w", err)
	}
	if !name.Valid || name.String == "" {
		return "", usage.Errorf("no database selected: name one with --database or in the DSN")
	}
	return name.String, nil
}

// lacksIndexes reports whether table has no secondary index.
func lacksIndexes(ctx context.Context, db *sql.DB, table string) (bool, error) {
	var n int
	err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM information_schema.STATISTICS
		WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND INDEX_NAME <> 'PRIMARY'`, table).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("indexes of %s: %w", table, err)
	}
	return n == 0, nil
}

// serverReport is what the server said before a load: everything the plan
// is made from besides the options.
type serverReport struct {
	Info     ServerInfo
	Database string   // the current database, named in messages
	Existing []string // tables of the schema that exist, in schema order
	// Bare holds the existing tables (lower-cased) that have no secondary
	// index, as an interrupted load leaves them. Asked only when resuming:
	// otherwise every existing table is refused or dropped.
	Bare map[string]bool
}

// inspect asks the server what the plan needs: who it is, which database
// is selected, which tables of the schema it has and, when resuming, which
// of them lack their secondary indexes.
func inspect(ctx context.Context, db *sql.DB, opts PrepareOptions) (*serverReport, error) {
	si, err := CheckServer(ctx, db)
	if err != nil {
		return nil, err
	}
	dbName, err := currentDatabase(ctx, db)
	if err != nil {
		return nil, err
	}
	existing, err := ExistingTables(ctx, db, opts.Schema.TableNames())
	if err != nil {
		return nil, err
	}
	rep := &serverReport{Info: *si, Database: dbName, Existing: existing, Bare: map[string]bool{}}
	if opts.FromTable != "" {
		for _, n := range existing {
			bare, err := lacksIndexes(ctx, db, n)
			if err != nil {
				return nil, err
			}
			rep.Bare[strings.ToLower(n)] = bare
		}
	}
	return rep, nil
}
