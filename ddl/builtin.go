package ddl

import (
	"embed"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/template"

	"github.com/joinbench/joinbench/internal/sqllex"
)

//go:embed schema/*.sql.tmpl
var schemaFS embed.FS

var schemaTemplates = template.Must(template.New("schema").ParseFS(schemaFS, "schema/*.sql.tmpl"))

// LevelTables is how many level tables the workload has (level1..level5).
const LevelTables = 5

// Defaults of SchemaOptions.
const (
	DefaultTableName    = "main"
	DefaultEngine       = "InnoDB"
	DefaultTableOptions = "CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC"
)

// SchemaOptions shape the built-in schema. The zero value is the reference
// workload: one main table, InnoDB, AUTO_INCREMENT ids, a primary key.
type SchemaOptions struct {
	Tables       int    // number of main tables; 0 means 1
	TableName    string // prefix of the main tables; "" means "main"
	Engine       string // "" means InnoDB
	TableOptions string // "" means DefaultTableOptions; use "-" for none
	// ClientIDs declares id without AUTO_INCREMENT: the client supplies
	// ids (the generator always does, so rows are the same either way).
	ClientIDs bool
	// NoPrimaryKey leaves the tables without an explicit primary key (the
	// engine then clusters on a hidden row id). It implies ClientIDs, since
	// an AUTO_INCREMENT column must be the first column of a key.
	NoPrimaryKey bool
}

var identRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_$]*$`)

// Normalize applies the defaults and checks the options.
func (o SchemaOptions) Normalize() (SchemaOptions, error) {
	if o.Tables == 0 {
		o.Tables = 1
	}
	if o.Tables < 0 {
		return o, fmt.Errorf("number of tables must be at least 1, got %d", o.Tables)
	}
	if o.TableName == "" {
		o.TableName = DefaultTableName
	}
	if !identRe.MatchString(o.TableName) || len(o.TableName) > 54 {
		return o, fmt.Errorf("table name %q: use letters, digits and _ only (at most 54 characters, not starting with a digit)", o.TableName)
	}
	if strings.HasPrefix(strings.ToLower(o.TableName), "level") {
		return o, fmt.Errorf("table name %q would collide with the level tables", o.TableName)
	}
	if o.Engine == "" {
		o.Engine = DefaultEngine
	}
	if !identRe.MatchString(o.Engine) {
		return o, fmt.Errorf("engine %q is not a valid engine name", o.Engine)
	}
	switch o.TableOptions {
	case "":
		o.TableOptions = DefaultTableOptions
	case "-":
		o.TableOptions = ""
	}
	if strings.ContainsAny(o.TableOptions, ";") {
		return o, fmt.Errorf("table options %q must not contain ';'", o.TableOptions)
	}
	if o.NoPrimaryKey {
		o.ClientIDs = true
	}
	return o, nil
}

// MainTableName returns the name of main table n (1-based).
func (o SchemaOptions) MainTableName(n int) string {
	name := o.TableName
	if name == "" {
		name = DefaultTableName
	}
	return name + strconv.Itoa(n)
}

// LevelTableName returns the name of level table n (1..5).
func LevelTableName(n int) string { return "level" + strconv.Itoa(n) }

// TableNames returns the names of every table of the built-in schema in
// creation order: main1..mainN, then level1..level5.
func (o SchemaOptions) TableNames() []string {
	n := o.Tables
	if n <= 0 {
		n = 1
	}
	var out []string
	for i := 1; i <= n; i++ {
		out = append(out, o.MainTableName(i))
	}
	for i := 1; i <= LevelTables; i++ {
		out = append(out, LevelTableName(i))
	}
	return out
}

// PreparedAmong returns those of names (a database's tables, as the
// server spells them) that prepare creates for this prefix: every
// <prefix><N> (N without leading zeros, whatever Tables is) and
// level1..level5, compared as the server compares table names (nc), in
// creation order (main tables by number, then the level tables) and
// spelled as in names. Nothing else matches.
func (o SchemaOptions) PreparedAmong(names []string, nc NameCase) []string {
	prefix := o.TableName
	if prefix == "" {
		prefix = DefaultTableName
	}
	prefix = nc.Key(prefix)
	var mains, levels []string
	for _, n := range names {
		switch k := nc.Key(n); {
		case isMember(k, prefix):
			mains = append(mains, n)
		case isLevelTable(k):
			levels = append(levels, n)
		}
	}
	byKey := func(a, b string) int { return compareNumbered(nc.Key(a), nc.Key(b)) }
	slices.SortFunc(mains, byKey)
	slices.SortFunc(levels, byKey)
	return append(mains, levels...)
}

// isLevelTable reports whether key (a name as NameCase.Key gives it) is a
// level table's.
func isLevelTable(key string) bool {
	for i := 1; i <= LevelTables; i++ {
		if key == LevelTableName(i) {
			return true
		}
	}
	return false
}

type tableTemplateData struct {
	Name          string
	AutoIncrement bool
	PrimaryKey    bool
	Indexes       bool
	Engine        string
	Options       string
}

// TableKind tells which definition a built-in table uses.
type TableKind int

const (
	MainTable TableKind = iota
	LevelTable
)

// renderTable renders the CREATE TABLE of one built-in table; opts must be
// normalized. With indexes false the secondary indexes are left out.
func renderTable(kind TableKind, name string, opts SchemaOptions, indexes bool) (string, error) {
	tmpl := "main.sql.tmpl"
	if kind == LevelTable {
		tmpl = "level.sql.tmpl"
	}
	var b strings.Builder
	err := schemaTemplates.ExecuteTemplate(&b, tmpl, tableTemplateData{
		Name:          sqllex.QuoteIdent(name),
		AutoIncrement: !opts.ClientIDs,
		PrimaryKey:    !opts.NoPrimaryKey,
		Indexes:       indexes,
		Engine:        opts.Engine,
		Options:       opts.TableOptions,
	})
	if err != nil {
		return "", fmt.Errorf("render %s: %w", name, err)
	}
	return strings.TrimSpace(b.String()), nil
}

// BuiltinTable is one table of the built-in schema with its DDL.
type BuiltinTable struct {
	Name string
	Kind TableKind
	// Create is the full CREATE TABLE statement.
	Create string
	// CreateBare is the CREATE TABLE without secondary indexes, and
	// AddIndexes the ALTER TABLE that adds them afterwards (for loading
	// with deferred indexes).
	CreateBare string
	AddIndexes string
}

// BuiltinTables renders the DDL of every built-in table, main tables first.
func BuiltinTables(opts SchemaOptions) ([]BuiltinTable, error) {
	tabs, _, err := builtinTables(opts, false)
	return tabs, err
}

// builtinTables renders the DDL of every built-in table (none with
// modelOnly) and returns the schema model. The tables of one kind differ
// in name only, so the first of each kind is parsed and the others are
// its model under their own name, sharing its columns and indexes (which
// nothing modifies): a parse per table made a schema of 100,000 main
// tables take half a minute.
func builtinTables(opts SchemaOptions, modelOnly bool) ([]BuiltinTable, *Schema, error) {
	opts, err := opts.Normalize()
	if err != nil {
		return nil, nil, err
	}
	var out []BuiltinTable
	model := NewSchema()
	parsed := map[TableKind]*Table{}
	for i, name := range opts.TableNames() {
		kind := MainTable
		if i >= opts.Tables {
			kind = LevelTable
		}
		var full, bare string
		if !modelOnly || parsed[kind] == nil {
			if full, err = renderTable(kind, name, opts, true); err != nil {
				return nil, nil, err
			}
		}
		if !modelOnly {
			if bare, err = renderTable(kind, name, opts, false); err != nil {
				return nil, nil, err
			}
		}
		var t *Table
		if first := parsed[kind]; first != nil {
			c := *first
			c.Name, c.Family = name, name
			t = &c
		} else {
			s, err := ParseSchema(full)
			if err != nil {
				return nil, nil, fmt.Errorf("built-in schema of %s: %w", name, err)
			}
			if t = s.Table(name); t == nil {
				return nil, nil, fmt.Errorf("built-in schema of %s: no such table in its DDL", name)
			}
			parsed[kind] = t
		}
		model.Add(t)
		if !modelOnly {
			out = append(out, BuiltinTable{Name: name, Kind: kind, Create: full, CreateBare: bare,
				AddIndexes: AddSecondaryIndexes(t)})
		}
	}
	return out, model, nil
}

// CreateStatements returns the CREATE TABLE statements of the built-in
// schema, main1..mainN then level1..level5.
func CreateStatements(opts SchemaOptions) ([]string, error) {
	tabs, err := BuiltinTables(opts)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(tabs))
	for i, t := range tabs {
		out[i] = t.Create
	}
	return out, nil
}

// BuiltinSchema returns the model of the built-in schema, built by parsing
// its rendered DDL: tables main1..mainN (family "main", or the configured
// prefix) and level1..level5 (each its own family).
func BuiltinSchema(opts SchemaOptions) (*Schema, error) {
	opts, err := opts.Normalize()
	if err != nil {
		return nil, err
	}
	_, s, err := builtinTables(opts, true)
	if err != nil {
		return nil, err
	}
	for i := 1; i <= opts.Tables; i++ {
		s.Table(opts.MainTableName(i)).Family = opts.TableName
	}
	for _, t := range s.Tables() {
		t.Options = opts.TableOptions // as written, not as the parser restores it
	}
	return s, nil
}

// AddSecondaryIndexes returns an ALTER TABLE adding every index of t but
// the primary key, or "" when there is none.
func AddSecondaryIndexes(t *Table) string {
	if t == nil {
		return ""
	}
	var parts []string
	for _, ix := range t.Indexes {
		if ix.Primary {
			continue
		}
		cols := make([]string, len(ix.Columns))
		for i, c := range ix.Columns {
			cols[i] = sqllex.QuoteIdent(c)
		}
		kind := "INDEX"
		if ix.Unique {
			kind = "UNIQUE INDEX"
		}
		parts = append(parts, fmt.Sprintf("ADD %s %s (%s)", kind, sqllex.QuoteIdent(ix.Name), strings.Join(cols, ", ")))
	}
	if len(parts) == 0 {
		return ""
	}
	return "ALTER TABLE " + sqllex.QuoteIdent(t.Name) + "\n  " + strings.Join(parts, ",\n  ")
}
