package load

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/sqllex"
	"github.com/joinbench/joinbench/internal/usage"
)

// create is the create stage: it readies every table of the plan, in
// order, as its tablePlan says.
func create(ctx context.Context, db *sql.DB, opts PrepareOptions, p *loadPlan) error {
	for _, t := range p.tables {
		if t.clear != "" {
			if _, err := db.ExecContext(ctx, t.clear); err != nil {
				return fmt.Errorf("resume %s: %w", t.Name, err)
			}
		}
		if t.drop {
			if _, err := db.ExecContext(ctx, "DROP TABLE "+sqllex.QuoteIdent(t.Name)); err != nil {
				return fmt.Errorf("drop %s: %w", t.Name, err)
			}
		}
		if t.create != "" {
			if _, err := db.ExecContext(ctx, t.create); err != nil {
				return createError(t.Name, opts.Schema, err)
			}
		}
		if t.dropIndexes != "" {
			if _, err := db.ExecContext(ctx, t.dropIndexes); err != nil {
				return fmt.Errorf("drop the secondary indexes of %s before loading it: %w", t.Name, err)
			}
		}
	}
	return nil
}

// createError names the option a failed CREATE TABLE most likely comes
// from, as a user error.
func createError(table string, o ddl.SchemaOptions, err error) error {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		switch me.Number {
		case 1286: // unknown storage engine
			return usage.Errorf("create %s: --engine %s: %s", table, o.Engine, me.Message)
		case 1069, 1070, 1071: // too many keys, key parts, key too long
			return usage.Errorf("create %s: --engine %s cannot hold the workload's indexes: %s", table, o.Engine, me.Message)
		case 1064, 1478, 1911, 1115, 1273: // syntax, bad table option, unknown option, charset, collation
			return usage.Errorf("create %s: --table-options %q: %s", table, o.TableOptions, me.Message)
		}
	}
	return fmt.Errorf("create %s: %w", table, err)
}
