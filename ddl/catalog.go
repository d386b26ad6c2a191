package ddl

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
)

// Catalog is what a server's information_schema lists about one database,
// as read: the model is built from it by SchemaFromCatalog, so that reading
// it (package ddl/load) needs no knowledge of the model and building the
// model needs no server.
type Catalog struct {
	Tables     []CatalogTable
	Columns    []CatalogColumn    // by table, in ORDINAL_POSITION order
	IndexParts []CatalogIndexPart // any order
}

// CatalogTable is one base table of information_schema.TABLES.
type CatalogTable struct {
	Name          string
	Engine        string // "" for NULL
	Collation     string // TABLE_COLLATION, "" for NULL
	CreateOptions string // "" for NULL
}

// CatalogColumn is one row of information_schema.COLUMNS.
type CatalogColumn struct {
	Table, Name string
	ColumnType  string // COLUMN_TYPE, such as "bigint(20) unsigned"
	Nullable    string // IS_NULLABLE: "YES" or "NO"
	Default     string // COLUMN_DEFAULT
	// DefaultNull is true when COLUMN_DEFAULT is NULL (MySQL's way of
	// saying there is no default; MariaDB says the string NULL).
	DefaultNull bool
	Extra       string
	Charset     string // CHARACTER_SET_NAME, "" for NULL
	Collation   string // COLLATION_NAME, "" for NULL
}

// CatalogIndexPart is one row of information_schema.STATISTICS: one key
// part of one index.
type CatalogIndexPart struct {
	Table, Index string
	Column       string // "" for a functional key part (NULL)
	NonUnique    int
	Seq          int // SEQ_IN_INDEX, from 1
}

// SchemaFromCatalog builds the model of the tables c lists. Column types
// are parsed from COLUMN_TYPE with the same parser as DDL files, so a table
// read back from a server models the same as its CREATE TABLE. Index order
// follows the listing (primary key first). Columns and index parts of
// tables c does not list (a view's) are ignored.
func SchemaFromCatalog(c Catalog) (*Schema, error) {
	s := NewSchema()
	for _, ct := range c.Tables {
		t := &Table{Name: ct.Name, Engine: ct.Engine, Family: ct.Name, Options: strings.TrimSpace(ct.CreateOptions)}
		if ct.Collation != "" {
			t.Collation = strings.ToLower(ct.Collation)
			t.Charset = charsetOfCollation(ct.Collation)
		}
		s.Add(t)
	}

	p := parser.New()
	p.SetSQLMode(mysql.ModeNone)
	for _, cc := range c.Columns {
		t := s.Table(cc.Table)
		if t == nil {
			continue // a view's column
		}
		ty, err := parseColumnType(p, cc.ColumnType)
		if err != nil {
			return nil, fmt.Errorf("%s.%s: type %q: %w", cc.Table, cc.Name, cc.ColumnType, err)
		}
		if cc.Charset != "" && cc.Charset != "binary" && !strings.EqualFold(cc.Charset, t.Charset) {
			ty.Charset = strings.ToLower(cc.Charset)
		} else {
			ty.Charset = ""
		}
		// As a CREATE TABLE says it: a collation only where it is not the
		// table's, nor (for a charset of the column's own) that charset's
		// default on every server.
		if coll := strings.ToLower(cc.Collation); coll != "" && cc.Charset != "binary" && coll != t.Collation &&
			(ty.Charset == "" || coll != CommonDefaultCollation(ty.Charset)) {
			ty.Collation = coll
		}
		col := &Column{Name: cc.Name, Type: ty, NotNull: cc.Nullable == "NO",
			AutoIncrement: strings.Contains(strings.ToLower(cc.Extra), "auto_increment")}
		// MySQL reports no default as NULL; MariaDB as the string NULL.
		if !cc.DefaultNull && !strings.EqualFold(cc.Default, "NULL") {
			col.HasDefault, col.Default = true, cc.Default
		}
		t.Columns = append(t.Columns, col)
	}

	type part struct {
		col string
		seq int
	}
	parts := map[*Index][]part{}
	for _, ip := range c.IndexParts {
		t := s.Table(ip.Table)
		if t == nil {
			continue
		}
		ix := t.Index(ip.Index)
		if ix == nil {
			ix = &Index{Name: ip.Index, Unique: ip.NonUnique == 0, Primary: ip.Index == "PRIMARY"}
			t.addIndex(ix)
		}
		parts[ix] = append(parts[ix], part{ip.Column, ip.Seq})
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
