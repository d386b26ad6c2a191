package results

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/joinbench/joinbench/internal/parallel"
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
// (written before they were added) read as zero values. Files are read at
// once on every core.
func ReadExecutionsAt(refs []RowRef, fields ExecutionFields, warn Warner) []*Execution {
	out := make([]*Execution, len(refs))
	order := make([]int, len(refs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return refs[a].Compare(refs[b]) })
	var files [][]int // order, cut by file
	for from := 0; from < len(order); {
		to := from + 1
		for to < len(order) && refs[order[to]].File == refs[order[from]].File {
			to++
		}
		files = append(files, order[from:to])
		from = to
	}
	// Files are read on every core; their warnings are given in file
	// order once all are read, from this goroutine.
	warnings := make([][]error, len(files))
	parallel.Each(len(files), func(k int) {
		readFileAt(refs, files[k], fields.cols, out, func(err error) { warnings[k] = append(warnings[k], err) })
	})
	for _, ws := range warnings {
		for _, err := range ws {
			warn.warn(err)
		}
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
	if err := checkFileFormat(path, pf); err != nil {
		warn.warn(fmt.Errorf("%w (rows not read)", err))
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
	// the refs of one row group at a time (idx is in file order)
	for from := 0; from < len(idx); {
		group := refs[idx[from]].Group
		to := from + 1
		for to < len(idx) && refs[idx[to]].Group == group {
			to++
		}
		var rows []int64 // the group's rows asked for, each once, ascending
		var at []int     // per idx[from:to], its row's place in rows
		for _, i := range idx[from:to] {
			ref := refs[i]
			if group < 0 || group >= len(groups) || ref.Row < 0 || int64(ref.Row) >= groups[group].NumRows() {
				warn.warn(fmt.Errorf("%s: no row %d in row group %d", path, ref.Row, ref.Group))
				at = append(at, -1)
				continue
			}
			if len(rows) == 0 || rows[len(rows)-1] != int64(ref.Row) {
				rows = append(rows, int64(ref.Row))
			}
			at = append(at, len(rows)-1)
		}
		if len(rows) > 0 {
			execs := make([]Execution, len(rows))
			failed := make([]error, len(rows))
			for _, fd := range fs {
				vals, err := columnValues(groups[group].ColumnChunks()[fd.leaf], rows)
				for r := range rows {
					if failed[r] != nil {
						continue
					}
					if err != nil {
						failed[r] = err
					} else {
						failed[r] = setField(reflect.ValueOf(&execs[r]).Elem().FieldByIndex(fd.index), vals[r])
					}
				}
			}
			for k, i := range idx[from:to] {
				switch r := at[k]; {
				case r < 0:
				case failed[r] != nil:
					warn.warn(fmt.Errorf("%s: row group %d, row %d: %w", path, group, rows[r], failed[r]))
				default:
					e := execs[r]
					out[i] = &e
				}
			}
		}
		from = to
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

// columnValues are the values of rows (ascending, each once) of a column
// chunk: for each, one value or a list's elements. Each page holding some
// of them is found through the page index and decoded once, and each row
// is sliced out of it, not walked to.
func columnValues(chunk parquet.ColumnChunk, rows []int64) ([][]parquet.Value, error) {
	pages := chunk.Pages()
	defer pages.Close()
	out := make([][]parquet.Value, len(rows))
	buf := make([]parquet.Value, 256)
	for i := 0; i < len(rows); {
		if err := pages.SeekToRow(rows[i]); err != nil {
			return nil, err
		}
		p, err := pages.ReadPage() // starts at rows[i]
		if err != nil {
			return nil, err
		}
		end := rows[i] + p.NumRows()
		last := i // the last of rows in this page
		for last+1 < len(rows) && rows[last+1] < end {
			last++
		}
		for j := i; j <= last; j++ {
			at := rows[j] - rows[i]
			vals, err := pageValues(p.Slice(at, at+1), buf)
			if err != nil {
				return nil, err
			}
			out[j] = vals
		}
		i = last + 1
	}
	return out, nil
}

// pageValues are the values of a page of one row, copied out of it.
func pageValues(p parquet.Page, buf []parquet.Value) ([]parquet.Value, error) {
	var out []parquet.Value
	r := p.Values()
	for {
		n, err := r.ReadValues(buf)
		for _, v := range buf[:n] {
			out = append(out, v.Clone())
		}
		if err == io.EOF || n == 0 {
			return out, nil
		}
		if err != nil {
			return nil, err
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
