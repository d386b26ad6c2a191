package ddl

import (
	"slices"
	"strings"
	"testing"
)

// A catalog as MariaDB lists it: defaults quoted, no default as the string
// NULL, index parts in any order, a view's columns among the tables'.
func TestSchemaFromCatalog(t *testing.T) {
	c := Catalog{
		Tables: []CatalogTable{
			{Name: "orders", Engine: "InnoDB", Collation: "utf8mb4_general_ci", CreateOptions: " row_format=DYNAMIC "},
			{Name: "heap", Engine: "MyISAM", Collation: "latin1_swedish_ci"},
		},
		Columns: []CatalogColumn{
			{Table: "heap", Name: "n", ColumnType: "int(11)", Nullable: "YES", DefaultNull: true},
			{Table: "orders", Name: "id", ColumnType: "bigint(20) unsigned", Nullable: "NO", DefaultNull: true, Extra: "auto_increment"},
			{Table: "orders", Name: "name", ColumnType: "varchar(30)", Nullable: "YES", Default: "NULL", Charset: "utf8mb4", Collation: "utf8mb4_general_ci"},
			{Table: "orders", Name: "code", ColumnType: "char(2)", Nullable: "NO", Default: "'xx'", Charset: "latin1", Collation: "latin1_swedish_ci"},
			{Table: "orders", Name: "status", ColumnType: "enum('new','paid')", Nullable: "NO", Default: "'new'", Charset: "utf8mb4", Collation: "utf8mb4_bin"},
			{Table: "orders", Name: "total", ColumnType: "decimal(10,2)", Nullable: "NO", Default: "0.00"},
			{Table: "orders_view", Name: "id", ColumnType: "bigint(20) unsigned", Nullable: "NO"},
		},
		IndexParts: []CatalogIndexPart{
			{Table: "orders", Index: "idx_name_code", Column: "code", NonUnique: 1, Seq: 2},
			{Table: "orders", Index: "uniq_code", Column: "code", NonUnique: 0, Seq: 1},
			{Table: "orders", Index: "PRIMARY", Column: "id", NonUnique: 0, Seq: 1},
			{Table: "orders", Index: "idx_name_code", Column: "name", NonUnique: 1, Seq: 1},
			{Table: "orders_view", Index: "PRIMARY", Column: "id", Seq: 1},
		},
	}
	s, err := SchemaFromCatalog(c)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(s.Tables()); got != 2 {
		t.Fatalf("%d tables, want 2 (no view)", got)
	}
	o := s.Table("orders")
	if o.Family != "orders" || o.Engine != "InnoDB" || o.Options != "row_format=DYNAMIC" {
		t.Errorf("orders: family %q engine %q options %q", o.Family, o.Engine, o.Options)
	}
	if o.Charset != "utf8mb4" || o.Collation != "utf8mb4_general_ci" {
		t.Errorf("orders: charset %q collation %q, want utf8mb4 and utf8mb4_general_ci", o.Charset, o.Collation)
	}
	var cols []string
	for _, col := range o.Columns {
		d := col.Name + " " + col.Type.String()
		if col.NotNull {
			d += " not null"
		}
		if col.AutoIncrement {
			d += " auto_increment"
		}
		if col.HasDefault {
			d += " default " + col.Default
		}
		cols = append(cols, d)
	}
	want := []string{
		"id bigint unsigned not null auto_increment",
		"name varchar(30)", // the table's charset is not repeated; NULL is no default
		"code char(2) character set latin1 not null default 'xx'",
		"status enum('new','paid') collate utf8mb4_bin not null default 'new'", // the table's collation is not repeated either
		"total decimal(10,2) not null default 0.00",
	}
	if !slices.Equal(cols, want) {
		t.Errorf("columns:\n  %s\nwant:\n  %s", strings.Join(cols, "\n  "), strings.Join(want, "\n  "))
	}
	var ixs []string
	for _, ix := range o.Indexes {
		ixs = append(ixs, ix.Name+"("+strings.Join(ix.Columns, ",")+")"+map[bool]string{true: " unique"}[ix.Unique])
	}
	// primary key first, then as listed, parts in SEQ_IN_INDEX order
	if want := []string{"PRIMARY(id) unique", "idx_name_code(name,code)", "uniq_code(code) unique"}; !slices.Equal(ixs, want) {
		t.Errorf("indexes %v, want %v", ixs, want)
	}
	if o.PrimaryKey == nil || o.PrimaryKey.Name != "PRIMARY" {
		t.Errorf("primary key %+v", o.PrimaryKey)
	}
	if h := s.Table("heap"); h.PrimaryKey != nil || len(h.Indexes) != 0 || len(h.Columns) != 1 || h.Columns[0].HasDefault {
		t.Errorf("heap: %+v", h)
	}
}

func TestSchemaFromCatalogBadType(t *testing.T) {
	_, err := SchemaFromCatalog(Catalog{
		Tables:  []CatalogTable{{Name: "t"}},
		Columns: []CatalogColumn{{Table: "t", Name: "c", ColumnType: "varchar(", Nullable: "YES"}},
	})
	if err == nil || !strings.HasPrefix(err.Error(), `t.c: type "varchar(": `) {
		t.Errorf("err = %v, want one naming t.c and its type", err)
	}
}

func TestPreparedAmong(t *testing.T) {
	names := []string{"level2", "main10", "main", "main01", "main2", "other", "main1_old", "level6", "mainx", "level1", "main1", "level0", "xmain1"}
	if got, want := (SchemaOptions{Tables: 1}).PreparedAmong(names, NamesExact), []string{"main1", "main2", "main10", "level1", "level2"}; !slices.Equal(got, want) {
		t.Errorf("prefix main: %v, want %v", got, want)
	}
	if got, want := (SchemaOptions{TableName: "sbtest"}).PreparedAmong(append(names, "sbtest3"), NamesExact), []string{"sbtest3", "level1", "level2"}; !slices.Equal(got, want) {
		t.Errorf("prefix sbtest: %v, want %v", got, want)
	}
	if got := (SchemaOptions{}).PreparedAmong(nil, NamesExact); got != nil {
		t.Errorf("no tables: %v", got)
	}
}

// PreparedAmong compares names as the server does (lower_case_table_names),
// and gives them as the server spells them, for DROP TABLE to name them.
func TestPreparedAmongFollowsLowerCaseTableNames(t *testing.T) {
	for _, c := range []struct {
		nc     NameCase
		prefix string
		names  []string // as the server lists them
		want   []string
	}{
		// 0: names as given, compared exactly: Main2 and LEVEL1 are not
		// prepare's main2 and level1.
		{NamesExact, "main", []string{"Main2", "main1", "LEVEL1", "level2", "main10"}, []string{"main1", "main10", "level2"}},
		{NamesExact, "Main", []string{"Main2", "main1", "LEVEL1", "level2"}, []string{"Main2", "level2"}},
		// 1: stored lower-case, so listed lower-case, whatever case
		// --table-name was given in.
		{NamesLower, "Main", []string{"main2", "main1", "level1", "other1", "main10"}, []string{"main1", "main2", "main10", "level1"}},
		// 2 (macOS): stored as given, compared lower-case.
		{NamesFolded, "main", []string{"Main2", "main1", "LEVEL1", "Level2", "MAIN10", "mainx"}, []string{"main1", "Main2", "MAIN10", "LEVEL1", "Level2"}},
		{NamesFolded, "SbTest", []string{"sbtest3", "SBTEST1", "level3"}, []string{"SBTEST1", "sbtest3", "level3"}},
	} {
		got := (SchemaOptions{TableName: c.prefix}).PreparedAmong(c.names, c.nc)
		if !slices.Equal(got, c.want) {
			t.Errorf("lower_case_table_names=%d, prefix %s, tables %v: %v, want %v", c.nc, c.prefix, c.names, got, c.want)
		}
	}
}
