package ddl

import (
	"cmp"
	"slices"
	"strings"
	"sync"
)

// Schema is the parsed model of a set of tables: what the analyzer resolves
// names against and what corpus reads ENUM/SET members from. Names are
// matched case-insensitively, as MySQL does for columns and (on Linux with
// lower_case_table_names=0, the common case for these workloads) as we
// choose to for tables.
type Schema struct {
	tables map[string]*Table
	order  []string

	// families indexes the tables by lower-cased Family, each family in
	// Family's order: built on the first call of Family (a schema of
	// 100,000 main tables is linted file by file, concurrently, and each
	// file asks for its families), dropped by Add and GroupFamily.
	familiesMu sync.Mutex
	families   map[string][]*Table
}

// NewSchema returns an empty schema; Add puts tables in it.
func NewSchema() *Schema { return &Schema{tables: map[string]*Table{}} }

// Add adds or replaces a table.
func (s *Schema) Add(t *Table) {
	key := strings.ToLower(t.Name)
	if _, ok := s.tables[key]; !ok {
		s.order = append(s.order, key)
	}
	s.tables[key] = t
	s.dropFamilies()
}

// dropFamilies forgets the family index after a change of the tables or
// of their families.
func (s *Schema) dropFamilies() {
	s.familiesMu.Lock()
	s.families = nil
	s.familiesMu.Unlock()
}

// Table returns the named table, or nil.
func (s *Schema) Table(name string) *Table {
	if s == nil {
		return nil
	}
	return s.tables[strings.ToLower(name)]
}

// Tables returns every table in the order they were added.
func (s *Schema) Tables() []*Table {
	out := make([]*Table, 0, len(s.order))
	for _, k := range s.order {
		out = append(out, s.tables[k])
	}
	return out
}

// Family returns the tables of one family (e.g. every main<N>), sorted by
// name with numeric suffixes in numeric order. The slice is shared by
// every caller: read it, do not modify it. A table's Family set directly
// after the first call is not seen (GroupFamily and Add are).
func (s *Schema) Family(family string) []*Table {
	s.familiesMu.Lock()
	defer s.familiesMu.Unlock()
	if s.families == nil {
		s.families = map[string][]*Table{}
		for _, k := range s.order {
			t := s.tables[k]
			f := strings.ToLower(t.Family)
			s.families[f] = append(s.families[f], t)
		}
		for _, ts := range s.families {
			slices.SortStableFunc(ts, func(a, b *Table) int { return compareNumbered(a.Name, b.Name) })
		}
	}
	return slices.Clip(s.families[strings.ToLower(family)])
}

// compareNumbered orders the names of one family (main1, main2, ...,
// main10) by their number: shorter first, then by text.
func compareNumbered(a, b string) int {
	if len(a) != len(b) {
		return cmp.Compare(len(a), len(b))
	}
	return strings.Compare(a, b)
}

// isMember reports whether name is <prefix><N>, N a number without leading
// zeros: how prepare names the tables of a family.
func isMember(name, prefix string) bool {
	rest, ok := strings.CutPrefix(name, prefix)
	return ok && rest != "" && rest[0] != '0' && strings.Trim(rest, "0123456789") == ""
}

// Table is one table: its columns in order, its indexes, its primary key.
type Table struct {
	Name string
	// Family groups tables of one definition: "main" for main1..mainN,
	// "level1" for level1. It equals Name for a table with no family.
	Family     string
	Columns    []*Column
	Indexes    []*Index // every index including the primary key
	PrimaryKey *Index   // nil when the table has none
	Engine     string
	Options    string // table options as written, e.g. "CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC"
	// Charset and Collation are the table's defaults for its string
	// columns, lower case: "" when not given (the database's default).
	Charset, Collation string
}

// Column returns the named column, or nil.
func (t *Table) Column(name string) *Column {
	for _, c := range t.Columns {
		if strings.EqualFold(c.Name, name) {
			return c
		}
	}
	return nil
}

// Index returns the named index (PRIMARY for the primary key), or nil.
func (t *Table) Index(name string) *Index {
	for _, ix := range t.Indexes {
		if strings.EqualFold(ix.Name, name) {
			return ix
		}
	}
	return nil
}

// IndexLedBy returns the first index whose first column is col, or nil:
// IndexesLedBy's first, without making the list.
func (t *Table) IndexLedBy(col string) *Index {
	for _, ix := range t.Indexes {
		if len(ix.Columns) > 0 && strings.EqualFold(ix.Columns[0], col) {
			return ix
		}
	}
	return nil
}

// IndexesLedBy returns the indexes whose first column is col.
func (t *Table) IndexesLedBy(col string) []*Index {
	var out []*Index
	for _, ix := range t.Indexes {
		if len(ix.Columns) > 0 && strings.EqualFold(ix.Columns[0], col) {
			out = append(out, ix)
		}
	}
	return out
}

// Column is one column with its full type.
type Column struct {
	Name          string
	Type          Type
	NotNull       bool
	AutoIncrement bool
	Default       string // as written; "" when there is none
	HasDefault    bool
}

// Type is a column type as the analyzer and generator need it.
type Type struct {
	// Base is the lower-case type name: tinyint, smallint, int, bigint,
	// decimal, float, double, char, varchar, binary, varbinary, text, blob,
	// date, datetime, timestamp, year, enum, set, bit, json, ...
	Base     string
	Length   int      // chars for char/varchar, bytes for binary/varbinary, digits for decimal; 0 when unset
	Decimals int      // scale for decimal
	Unsigned bool     // integer and decimal types
	Members  []string // ENUM and SET members, in order
	Charset  string   // "" when inherited from the table
	// Collation is the column's COLLATE, lower case: "" when not given
	// (the charset's default collation, or the table's collation when the
	// charset is inherited too). The analyzer resolves what "" means for
	// the targeted server (the defaults differ between MySQL and MariaDB).
	Collation string
}

// IsInteger reports whether the type is an integer type (BOOLEAN is TINYINT).
func (t Type) IsInteger() bool {
	switch t.Base {
	case "tinyint", "smallint", "mediumint", "int", "bigint", "bit", "year":
		return true
	}
	return false
}

// IsString reports whether values are compared as strings (character or
// binary strings, ENUM and SET).
func (t Type) IsString() bool {
	switch t.Base {
	case "char", "varchar", "binary", "varbinary", "tinytext", "text", "mediumtext", "longtext",
		"tinyblob", "blob", "mediumblob", "longblob", "enum", "set":
		return true
	}
	return false
}

// IntRange returns the smallest and largest value an integer type holds.
func (t Type) IntRange() (lo, hi int64, ok bool) {
	var bits uint
	switch t.Base {
	case "tinyint":
		bits = 8
	case "smallint":
		bits = 16
	case "mediumint":
		bits = 24
	case "int":
		bits = 32
	case "bigint":
		bits = 64
	case "year":
		return 1901, 2155, true
	default:
		return 0, 0, false
	}
	if t.Unsigned {
		if bits == 64 {
			return 0, 1<<63 - 1, true // the unsigned top half does not fit int64
		}
		return 0, 1<<bits - 1, true
	}
	return -(1 << (bits - 1)), 1<<(bits-1) - 1, true
}

// Index is one index with its columns in order.
type Index struct {
	Name    string // "PRIMARY" for the primary key
	Columns []string
	Unique  bool
	Primary bool
}

// GroupFamily makes every table named <prefix><N> (N a number without
// leading zeros, as prepare names them) a member of family prefix, so that
// a schema read from a server or a DDL file resolves table(prefix)
// parameters like the built-in one. It returns how many tables it grouped.
func (s *Schema) GroupFamily(prefix string) int {
	n := 0
	for _, t := range s.Tables() {
		if isMember(strings.ToLower(t.Name), strings.ToLower(prefix)) {
			t.Family = prefix
			n++
		}
	}
	s.dropFamilies()
	return n
}
