package results

import (
	"cmp"
	"fmt"
	"os"
	"slices"
	"strings"

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
// few rows it picked. Each file is opened once, with its page index, so
// that a row costs the pages that hold it, not its row group. The rows
// come in the order of refs; a row that cannot be read is nil, and warned
// about.
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
	groups := pf.RowGroups()
	var r *parquet.GenericReader[Execution]
	group := -1
	defer func() {
		if r != nil {
			r.Close()
		}
	}()
	buf := make([]Execution, 1)
	for _, i := range idx {
		ref := refs[i]
		if ref.Group < 0 || ref.Group >= len(groups) || ref.Row < 0 || int64(ref.Row) >= groups[ref.Group].NumRows() {
			warn.warn(fmt.Errorf("%s: no row %d in row group %d", path, ref.Row, ref.Group))
			continue
		}
		if ref.Group != group {
			if r != nil {
				r.Close()
			}
			r, group = parquet.NewGenericRowGroupReader[Execution](groups[ref.Group], cols.schema), ref.Group
		}
		buf[0] = Execution{}
		if err := r.SeekToRow(int64(ref.Row)); err != nil {
			warn.warn(fmt.Errorf("%s: row group %d, row %d: %w", path, ref.Group, ref.Row, err))
			continue
		}
		if n, err := r.Read(buf); n != 1 {
			warn.warn(fmt.Errorf("%s: row group %d, row %d: %v", path, ref.Group, ref.Row, err))
			continue
		}
		e := buf[0]
		out[i] = &e
	}
}
