package load

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/ddl"
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
// database, in the order of names. Names are compared as the server
// compares table names: exactly, unless its lower_case_table_names folds
// them (see matchTables).
func ExistingTables(ctx context.Context, db *sql.DB, names []string) ([]string, error) {
	fold, err := foldsTableNames(ctx, db)
	if err != nil {
		return nil, err
	}
	have, err := listTables(ctx, db)
	if err != nil {
		return nil, err
	}
	return matchTables(have, names, fold), nil
}

// foldsTableNames reports whether the server compares table names without
// regard to case: lower_case_table_names 1 (stored lower-case) or 2
// (stored as given, compared lower-case). With 0, the default on Linux,
// main2 and Main2 are two tables.
func foldsTableNames(ctx context.Context, db *sql.DB) (bool, error) {
	nc, err := tableNameCase(ctx, db)
	return nc.Folds(), err
}

// tableNameCase asks the server how it compares table names.
func tableNameCase(ctx context.Context, db *sql.DB) (ddl.NameCase, error) {
	var lower int
	if err := db.QueryRowContext(ctx, "SELECT @@lower_case_table_names").Scan(&lower); err != nil {
		return ddl.NamesExact, fmt.Errorf("lower_case_table_names: %w", err)
	}
	return ddl.NameCase(lower), nil
}

// listTables returns the name of every table of the connection's current
// database, as the server spells it.
func listTables(ctx context.Context, db *sql.DB) ([]string, error) {
	rows, err := db.QueryContext(ctx, "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()")
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	defer rows.Close()
	var have []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		have = append(have, n)
	}
	return have, rows.Err()
}

// tableKey is the form of a table name that two names share when the
// server takes them for one table.
func tableKey(name string, fold bool) string {
	if fold {
		return ddl.NamesFolded.Key(name)
	}
	return ddl.NamesExact.Key(name)
}

// matchTables returns those of names that are among have (the tables a
// database holds), in the order of names and spelled as in names. With
// fold (lower_case_table_names 1 or 2), names differing in case only are
// one table; otherwise they are distinct tables.
func matchTables(have, names []string, fold bool) []string {
	set := map[string]bool{}
	for _, n := range have {
		set[tableKey(n, fold)] = true
	}
	var out []string
	for _, n := range names {
		if set[tableKey(n, fold)] {
			out = append(out, n)
		}
	}
	return out
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
// information_schema compares TABLE_NAME as the server compares table
// names, so with lower_case_table_names=0 Main2's indexes are not main2's.
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
	Database string // the current database, named in messages
	// Tables are every table of the database, as the server spells them.
	Tables []string
	// FoldNames: the server compares table names without regard to case
	// (lower_case_table_names 1 or 2); otherwise Main2 is not main2.
	FoldNames bool
	// Bare holds the existing tables of the schema (by their schema name)
	// that have no secondary index, as an interrupted load leaves them.
	// Asked only when resuming: otherwise every existing table is refused
	// or dropped.
	Bare map[string]bool
}

// existing returns those of names (the schema's tables) that the database
// holds, in the order of names.
func (r *serverReport) existing(names []string) []string {
	return matchTables(r.Tables, names, r.FoldNames)
}

// inspectAndChoose inspects the server and chooses the load method from
// what it said (logging why when the method asked for cannot be used):
// the first step of a whole prepare and of a segment's alike.
func inspectAndChoose(ctx context.Context, db *sql.DB, opts PrepareOptions) (*serverReport, Method, error) {
	rep, err := inspect(ctx, db, opts)
	if err != nil {
		return nil, MethodAuto, err
	}
	method, note, err := chooseMethod(opts.Method, rep.Info)
	if note != "" {
		opts.logf("%s", note)
	}
	if err != nil {
		return nil, MethodAuto, err
	}
	return rep, method, nil
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
	fold, err := foldsTableNames(ctx, db)
	if err != nil {
		return nil, err
	}
	tables, err := listTables(ctx, db)
	if err != nil {
		return nil, err
	}
	rep := &serverReport{Info: *si, Database: dbName, Tables: tables, FoldNames: fold, Bare: map[string]bool{}}
	if opts.FromTable != "" {
		for _, n := range rep.existing(opts.Schema.TableNames()) {
			bare, err := lacksIndexes(ctx, db, n)
			if err != nil {
				return nil, err
			}
			rep.Bare[n] = bare
		}
	}
	return rep, nil
}
