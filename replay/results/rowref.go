package results

import (
	"cmp"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"
)

// RowRef is where one row of a run's executions is: its file, row group
// and row within the group, as ExecutionColumns.Ref gives it.
type RowRef struct {
	File  string
	Group int
	Row   int
}

// Compare orders refs as a scan reads the rows: by file, group and row.
func (r RowRef) Compare(o RowRef) int {
	return cmp.Or(strings.Compare(r.File, o.File), cmp.Compare(r.Group, o.Group), cmp.Compare(r.Row, o.Row))
}

// ReadExecutionsAt reads the rows at refs, the columns of fields only:
// what a column scan leaves out (parameters, endpoints, messages) for a
// few rows it picked. A row costs, per column, the one page that holds it
// (found through the file's page index), not its row group, and no row is
// assembled but those asked for. The rows come in the order of refs; a
// row that cannot be read is nil, and warned about. Columns a file lacks
// (written before they were added) read as zero values.
func ReadExecutionsAt(refs []RowRef, fields ExecutionFields, warn Warner) []*Execution {
	out := make([]*Execution, len(refs))
	order := make([]int, len(refs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return refs[a].Compare(refs[b]) })
	for from := 0; from < len(order); {
		to := from + 1
		for to < len(order) && refs[order[to]].File == refs[order[from]].File {
			to++
		}
		readFileAt(refs, order[from:to], fields.cols, out, warn)
		from = to
	}
	return out
}

// readFileAt reads the rows refs[i] of one file, for each i of idx (in
// the order of the file), into out[i].
func readFileAt(refs []RowRef, idx []int, cols columnSet, out []*Execution, warn Warner) {
	path := refs[idx[0]].File
	f, err := os.Open(path)
	if err != nil {
		warn.warn(fmt.Errorf("%s: %w (rows not read)", path, err))
		return
	}
	defer f.Close()
	defer func() {
		if r := recover(); r != nil { // parquet-go may panic on corrupt input
			warn.warn(fmt.Errorf("%s: unreadable: %v (rows not read)", path, r))
		}
	}()
	st, err := f.Stat()
	if err != nil {
		warn.warn(fmt.Errorf("%s: %w (rows not read)", path, err))
		return
	}
	pf, err := parquet.OpenFile(f, st.Size(), parquet.SkipBloomFilters(true))
	if err != nil {
		warn.warn(fmt.Errorf("%s: not a complete Parquet file: %w (rows not read)", path, err))
		return
	}
	if missing := cols.missing(pf.Schema()); len(missing) > 0 {
		warn.warn(fmt.Errorf("%s: no column %s (rows not read)", path, strings.Join(missing, ", ")))
		return
	}
	// the fields read: their place in Execution and their leaf column in
	// the file
	type field struct {
		index []int
		leaf  int
	}
	var fs []field
	for _, c := range cols.schema.Fields() {
		sf, ok := executionFieldByColumn[c.Name()]
		if !ok {
			continue
		}
		paths := leafPaths(c, []string{c.Name()})
		if len(paths) != 1 {
			continue
		}
		if leaf, ok := pf.Schema().Lookup(paths[0]...); ok {
			fs = append(fs, field{sf.Index, leaf.ColumnIndex})
		}
	}
	groups := pf.RowGroups()
	// the pages of each column of the group being read, kept from row to
	// row: rows of one page decode it once
	pages := make([]parquet.Pages, len(fs))
	closePages := func() {
		for i, p := range pages {
			if p != nil {
				p.Close()
				pages[i] = nil
			}
		}
	}
	defer closePages()
	group := -1
	for _, i := range idx {
		ref := refs[i]
		if ref.Group < 0 || ref.Group >= len(groups) || ref.Row < 0 || int64(ref.Row) >= groups[ref.Group].NumRows() {
			warn.warn(fmt.Errorf("%s: no row %d in row group %d", path, ref.Row, ref.Group))
			continue
		}
		if ref.Group != group {
			closePages()
			group = ref.Group
		}
		var e Execution
		row := reflect.ValueOf(&e).Elem()
		ok := true
		for k, fd := range fs {
			if pages[k] == nil {
				pages[k] = groups[group].ColumnChunks()[fd.leaf].Pages()
			}
			vals, err := firstRowValues(pages[k], int64(ref.Row))
			if err == nil {
				err = setField(row.FieldByIndex(fd.index), vals)
			}
			if err != nil {
				warn.warn(fmt.Errorf("%s: row group %d, row %d: %w", path, ref.Group, ref.Row, err))
				ok = false
				break
			}
		}
		if ok {
			out[i] = &e
		}
	}
}

// executionFieldByColumn is the Execution field of each column.
var executionFieldByColumn = func() map[string]reflect.StructField {
	m := map[string]reflect.StructField{}
	t := reflect.TypeFor[Execution]()
	for name, f := range executionSchema.fields {
		sf, _ := t.FieldByName(name)
		m[f.Name()] = sf
	}
	return m
}()

// firstRowValues are the values of row of a column chunk's pages: one, or
// a list's elements (none for an empty list).
func firstRowValues(pages parquet.Pages, row int64) ([]parquet.Value, error) {
	if err := pages.SeekToRow(row); err != nil {
		return nil, err
	}
	p, err := pages.ReadPage()
	if err != nil {
		return nil, err
	}
	buf := make([]parquet.Value, 16)
	var vals []parquet.Value
	r := p.Values()
	for {
		n, err := r.ReadValues(buf)
		for _, v := range buf[:n] {
			if len(vals) > 0 && v.RepetitionLevel() == 0 {
				return vals, nil // the next row
			}
			vals = append(vals, v.Clone())
		}
		if err != nil || n == 0 {
			return vals, nil
		}
	}
}

// setField sets a field of an Execution from the values of its column in
// one row; a null leaves it zero.
func setField(f reflect.Value, vals []parquet.Value) error {
	if f.Kind() == reflect.Slice {
		out := []string{}
		for _, v := range vals {
			if !v.IsNull() {
				out = append(out, string(v.ByteArray()))
			}
		}
		f.Set(reflect.ValueOf(out))
		return nil
	}
	if len(vals) != 1 {
		return fmt.Errorf("%d values for one", len(vals))
	}
	v := vals[0]
	if v.IsNull() {
		return nil
	}
	switch f.Interface().(type) {
	case string:
		f.SetString(string(v.ByteArray()))
	case int32:
		f.SetInt(int64(v.Int32()))
	case int64:
		f.SetInt(v.Int64())
	case bool:
		f.SetBool(v.Boolean())
	case time.Time:
		f.Set(reflect.ValueOf(time.Unix(0, v.Int64()).UTC()))
	case *time.Time:
		t := time.Unix(0, v.Int64()).UTC()
		f.Set(reflect.ValueOf(&t))
	default:
		return fmt.Errorf("no reading of a %s", f.Type())
	}
	return nil
}
