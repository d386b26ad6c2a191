package load

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/joinbench/joinbench/ddl"
)

// SchemaFromServer reads the model of every base table of database from
// the server's information_schema (see ddl.SchemaFromCatalog for how the
// listing becomes the model).
func SchemaFromServer(ctx context.Context, db *sql.DB, database string) (*ddl.Schema, error) {
	var c ddl.Catalog
	rows, err := db.QueryContext(ctx, `SELECT TABLE_NAME, COALESCE(ENGINE, ''), COALESCE(TABLE_COLLATION, ''), COALESCE(CREATE_OPTIONS, '')
		FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME`, database)
	if err != nil {
		return nil, fmt.Errorf("read tables of %s: %w", database, err)
	}
	for rows.Next() {
		var t ddl.CatalogTable
		if err := rows.Scan(&t.Name, &t.Engine, &t.Collation, &t.CreateOptions); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read tables of %s: %w", database, err)
		}
		c.Tables = append(c.Tables, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read tables of %s: %w", database, err)
	}

	rows, err = db.QueryContext(ctx, `SELECT TABLE_NAME, COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, COLUMN_DEFAULT, EXTRA, COALESCE(CHARACTER_SET_NAME, ''), COALESCE(COLLATION_NAME, '')
		FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, ORDINAL_POSITION`, database)
	if err != nil {
		return nil, fmt.Errorf("read columns of %s: %w", database, err)
	}
	for rows.Next() {
		var col ddl.CatalogColumn
		var def sql.NullString
		if err := rows.Scan(&col.Table, &col.Name, &col.ColumnType, &col.Nullable, &def, &col.Extra, &col.Charset, &col.Collation); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read columns of %s: %w", database, err)
		}
		col.Default, col.DefaultNull = def.String, !def.Valid
		c.Columns = append(c.Columns, col)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read columns of %s: %w", database, err)
	}

	rows, err = db.QueryContext(ctx, `SELECT TABLE_NAME, INDEX_NAME, COLUMN_NAME, NON_UNIQUE, SEQ_IN_INDEX
		FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ?`, database)
	if err != nil {
		return nil, fmt.Errorf("read indexes of %s: %w", database, err)
	}
	for rows.Next() {
		var ip ddl.CatalogIndexPart
		var col sql.NullString // NULL for a functional key part
		if err := rows.Scan(&ip.Table, &ip.Index, &col, &ip.NonUnique, &ip.Seq); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read indexes of %s: %w", database, err)
		}
		ip.Column = col.String
		c.IndexParts = append(c.IndexParts, ip)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read indexes of %s: %w", database, err)
	}
	return ddl.SchemaFromCatalog(c)
}
