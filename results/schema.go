package results

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// The Parquet schema of the row types (Execution, Plan, Status, Action,
// and Work) is their struct tags in records.go, actions.go and
// package work, and nothing else:
// what else needs a column's name, its leaf path or its properties (the
// column reader, projections, the writers' statistics) derives it from
// those types here, once, by the fields' Go names. A field tagged
// stats:"none" is written without min/max statistics: those of free
// text, digests and lists help no query and cost time to compute.

// rowSchema is what the schema of one row type says about its fields.
type rowSchema struct {
	schema *parquet.Schema
	// fields maps a Go field name to its top-level field of the schema,
	// whose Value finds the field in a row by its index.
	fields map[string]parquet.Field
	// noStats are the leaf paths of the fields tagged stats:"none".
	noStats [][]string
}

func rowSchemaOf[T any]() *rowSchema {
	t := reflect.TypeFor[T]()
	rs := &rowSchema{schema: parquet.SchemaOf(new(T)), fields: map[string]parquet.Field{}}
	byColumn := map[string]parquet.Field{}
	for _, f := range rs.schema.Fields() {
		byColumn[f.Name()] = f
	}
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("parquet")
		if tag == "-" || !sf.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if name == "" {
			name = sf.Name
		}
		f, ok := byColumn[name]
		if !ok {
			panic(fmt.Sprintf("results: %s.%s: no column %q in the schema", t.Name(), sf.Name, name))
		}
		rs.fields[sf.Name] = f
		if sf.Tag.Get("stats") == "none" {
			rs.noStats = append(rs.noStats, leafPaths(f, []string{name})...)
		}
	}
	return rs
}

// leafPaths are the paths of the leaf columns of node n at path.
func leafPaths(n parquet.Node, path []string) [][]string {
	if n.Leaf() {
		return [][]string{path}
	}
	var out [][]string
	for _, f := range n.Fields() {
		out = append(out, leafPaths(f, append(path[:len(path):len(path)], f.Name()))...)
	}
	return out
}

// Schemas of the row types, derived once.
var (
	executionSchema = rowSchemaOf[Execution]()
	planSchema      = rowSchemaOf[Plan]()
	statusSchema    = rowSchemaOf[Status]()
	actionSchema    = rowSchemaOf[Action]()
)

// field is the schema field of Go field name; a name that is not a field
// of the row type is a mistake in this package, found by any test.
func (rs *rowSchema) field(name string) parquet.Field {
	f, ok := rs.fields[name]
	if !ok {
		panic(fmt.Sprintf("results: %s has no field %s", rs.schema.Name(), name))
	}
	return f
}

// column is the column name of Go field name.
func (rs *rowSchema) column(name string) string { return rs.field(name).Name() }

// leaf is the path of the one leaf column of Go field name: the column
// itself, or the element of a list.
func (rs *rowSchema) leaf(name string) []string {
	f := rs.field(name)
	paths := leafPaths(f, []string{f.Name()})
	if len(paths) != 1 {
		panic(fmt.Sprintf("results: %s.%s has %d leaf columns", rs.schema.Name(), name, len(paths)))
	}
	return paths[0]
}

// noStatsColumns are the leaf paths, over every row type, of the columns
// written without statistics.
func noStatsColumns() [][]string {
	seen := map[string]bool{}
	var out [][]string
	for _, rs := range []*rowSchema{executionSchema, planSchema, statusSchema, actionSchema, workSchema} {
		for _, p := range rs.noStats {
			if k := strings.Join(p, "."); !seen[k] {
				seen[k] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// ExecutionFields are some of the executions columns, named by the fields
// of Execution that hold them: a scan of them reads only those columns,
// several times faster than whole rows. Make them once, with
// SelectExecutionFields, and scan with ScanExecutionFields.
type ExecutionFields struct{ cols columnSet }

// SelectExecutionFields are the columns of the Execution fields named
// (Go names, e.g. "LatencyNs"). A name that is not a field of Execution
// panics: it is a mistake in the caller's code, found by its first test.
func SelectExecutionFields(names ...string) ExecutionFields {
	return ExecutionFields{executionSchema.project(names, nil)}
}

// columnSet is the columns a reader reads: a row type's, or some of them.
type columnSet struct {
	schema *parquet.Schema
	// mayLack are columns a file may lack although the row type requires
	// them, when the reader has a use for files written without them.
	mayLack map[string]bool
}

// allColumns are the columns of row type T.
func allColumns[T any]() columnSet { return columnSet{schema: parquet.SchemaOf(new(T))} }

// project is the columns of the fields names of the row type, in the
// order of the row type; the columns of fields mayLack may be missing
// from a file.
func (rs *rowSchema) project(names, mayLack []string) columnSet {
	want := map[string]bool{}
	for _, n := range names {
		want[rs.column(n)] = true
	}
	var fields []parquet.Field
	for _, f := range rs.schema.Fields() {
		if want[f.Name()] {
			fields = append(fields, f)
		}
	}
	cs := columnSet{schema: parquet.NewSchema(rs.schema.Name(), projection{rs.schema, fields}), mayLack: map[string]bool{}}
	for _, n := range mayLack {
		cs.mayLack[rs.column(n)] = true
	}
	return cs
}

// projection is the root of a row type's schema with some of its fields.
// They are the row type's own, so that rows are read into the row type
// field by field as when read whole.
type projection struct {
	parquet.Node
	fields []parquet.Field
}

func (p projection) Fields() []parquet.Field { return p.fields }

func (p projection) String() string {
	names := make([]string, len(p.fields))
	for i, f := range p.fields {
		names[i] = f.Name()
	}
	return "projection(" + strings.Join(names, ", ") + ")"
}

// missing lists the required columns of cs that a file's schema lacks:
// a Parquet file of another kind (plans.parquet renamed, a file from
// another tool) is refused instead of read as rows of zeros. Optional
// columns may be missing, and those of mayLack: files written before a
// column was added read with it empty.
func (cs columnSet) missing(file *parquet.Schema) []string {
	var missing []string
	for _, path := range cs.schema.Columns() {
		leaf, ok := cs.schema.Lookup(path...)
		if !ok || leaf.Node.Optional() || cs.mayLack[path[0]] {
			continue
		}
		if _, ok := file.Lookup(path...); !ok {
			missing = append(missing, strings.Join(path, "."))
		}
	}
	return missing
}
