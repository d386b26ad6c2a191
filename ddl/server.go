package ddl

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
)

// SchemaFromServer reads the model of every base table of database from
// the server's information_schema. Column types are parsed from
// COLUMN_TYPE with the same parser as DDL files, so a table read back from
// the server models the same as its CREATE TABLE. Index order follows the
// server's listing (primary key first).
func SchemaFromServer(ctx context.Context, db *sql.DB, database string) (*Schema, error) {
	rows, err := db.QueryContext(ctx, `SELECT TABLE_NAME, COALESCE(ENGINE, ''), COALESCE(TABLE_COLLATION, ''), COALESCE(CREATE_OPTIONS, '')
		FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME`, database)
	if err != nil {
		return nil, fmt.Errorf("read tables of %s: %w", database, err)
	}
	s := NewSchema()
	tableCharset := map[string]string{}
	for rows.Next() {
		t := &Table{}
		var collation, opts string
		if err := rows.Scan(&t.Name, &t.Engine, &collation, &opts); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read tables of %s: %w", database, err)
		}
		t.Family = t.Name
		t.Options = strings.TrimSpace(opts)
		tableCharset[strings.ToLower(t.Name)] = charsetOfCollation(collation)
		s.Add(t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read tables of %s: %w", database, err)
	}

	rows, err = db.QueryContext(ctx, `SELECT TABLE_NAME, COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, COLUMN_DEFAULT, EXTRA, COALESCE(CHARACTER_SET_NAME, '')
		FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, ORDINAL_POSITION`, database)
	if err != nil {
		return nil, fmt.Errorf("read columns of %s: %w", database, err)
	}
	p := parser.New()
	p.SetSQLMode(mysql.ModeNone)
	for rows.Next() {
		var table, name, colType, nullable, extra, charset string
		var def sql.NullString
		if err := rows.Scan(&table, &name, &colType, &nullable, &def, &extra, &charset); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read columns of %s: %w", database, err)
		}
		t := s.Table(table)
		if t == nil {
			continue // a view's column
		}
		ty, err := parseColumnType(p, colType)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("%s.%s: type %q: %w", table, name, colType, err)
		}
		if charset != "" && charset != "binary" && !strings.EqualFold(charset, tableCharset[strings.ToLower(table)]) {
			ty.Charset = strings.ToLower(charset)
		} else {
			ty.Charset = ""
		}
		c := &Column{Name: name, Type: ty, NotNull: nullable == "NO",
			AutoIncrement: strings.Contains(strings.ToLower(extra), "auto_increment")}
		// MySQL reports no default as NULL; MariaDB as the string NULL.
		if def.Valid && !strings.EqualFold(def.String, "NULL") {
			c.HasDefault, c.Default = true, def.String
		}
		t.Columns = append(t.Columns, c)
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
	type part struct {
		col string
		seq int
	}
	parts := map[*Index][]part{}
	for rows.Next() {
		var table, index string
		var col sql.NullString
		var nonUnique, seq int
		if err := rows.Scan(&table, &index, &col, &nonUnique, &seq); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read indexes of %s: %w", database, err)
		}
		t := s.Table(table)
		if t == nil {
			continue
		}
		ix := t.Index(index)
		if ix == nil {
			ix = &Index{Name: index, Unique: nonUnique == 0, Primary: index == "PRIMARY"}
			t.addIndex(ix)
		}
		parts[ix] = append(parts[ix], part{col.String, seq}) // NULL for a functional key part
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read indexes of %s: %w", database, err)
	}
	for ix, ps := range parts {
		ix.Columns = make([]string, len(ps))
		for _, pt := range ps {
			if pt.seq >= 1 && pt.seq <= len(ps) {
				ix.Columns[pt.seq-1] = pt.col
			}
		}
	}
	for _, t := range s.Tables() {
		if t.PrimaryKey != nil { // primary key first, as in SHOW CREATE TABLE
			out := []*Index{t.PrimaryKey}
			for _, ix := range t.Indexes {
				if !ix.Primary {
					out = append(out, ix)
				}
			}
			t.Indexes = out
		}
	}
	return s, nil
}

// parseColumnType parses a COLUMN_TYPE such as "enum('a','b')" or
// "bigint(20) unsigned" with the DDL parser.
func parseColumnType(p *parser.Parser, colType string) (Type, error) {
	nodes, _, err := p.Parse("CREATE TABLE t (c "+colType+")", "", "")
	if err != nil {
		return Type{}, err
	}
	ct, ok := nodes[0].(*ast.CreateTableStmt)
	if !ok || len(ct.Cols) != 1 {
		return Type{}, fmt.Errorf("not a column type")
	}
	return typeFromField(ct.Cols[0].Tp), nil
}

func charsetOfCollation(collation string) string {
	if i := strings.IndexByte(collation, '_'); i > 0 {
		return strings.ToLower(collation[:i])
	}
	return strings.ToLower(collation)
}
