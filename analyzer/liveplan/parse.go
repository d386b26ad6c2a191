package liveplan

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/analyzer"
)

// parseErrors are the error codes a MySQL or MariaDB server's parser
// raises before it opens a table: the server cannot read the statement.
// Any other error comes later (an unknown table or column, a write
// refused in a read-only transaction, 1792) and means it read it.
var parseErrors = map[uint16]bool{
	1064: true, // ER_PARSE_ERROR
	1149: true, // ER_SYNTAX_ERROR
	1221: true, // ER_WRONG_USAGE, e.g. SQL_CACHE with SQL_NO_CACHE
	1235: true, // ER_NOT_SUPPORTED_YET, e.g. LIMIT in an IN subquery
}

var _ analyzer.ServerParser = (*Server)(nil)

// ParseStatements has the server's parser read each statement (Parse):
// analyzer.ServerParser.
func (s *Server) ParseStatements(ctx context.Context, stmts []string) ([]analyzer.ServerParse, error) {
	out, err := Parse(ctx, s.db, stmts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name(), err)
	}
	return out, nil
}

// Parse has the parser of the server db reaches read each statement: it
// prepares the statement inside a read-only transaction, closes it and
// rolls back, so nothing is executed. A server error is a verdict; a
// failure of the connection ends it with an error.
func Parse(ctx context.Context, db *sql.DB, stmts []string) ([]analyzer.ServerParse, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("parse on the server: %w", err)
	}
	defer conn.Close()
	out := make([]analyzer.ServerParse, len(stmts))
	for i, q := range stmts {
		if out[i], err = parseOne(ctx, conn, q); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// parseOne prepares q in a read-only transaction on conn.
func parseOne(ctx context.Context, conn *sql.Conn, q string) (analyzer.ServerParse, error) {
	ctx, cancel := context.WithTimeout(ctx, explainTimeout)
	defer cancel()
	tx, err := conn.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return analyzer.ServerParse{}, fmt.Errorf("%w: %w", errTransaction, err)
	}
	defer tx.Rollback()
	st, err := tx.PrepareContext(ctx, q)
	if err == nil {
		return analyzer.ServerParse{Read: true}, st.Close()
	}
	var me *mysql.MySQLError
	if !errors.As(err, &me) {
		return analyzer.ServerParse{}, fmt.Errorf("prepare: %w", err)
	}
	if parseErrors[me.Number] {
		return analyzer.ServerParse{Code: int(me.Number), Message: me.Message}, nil
	}
	return analyzer.ServerParse{Read: true}, nil
}
