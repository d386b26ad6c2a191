package results

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"
	"github.com/parquet-go/parquet-go/format"
)

// ExecutionColumns is one row group of an executions file, decoded column
// by column: only the columns a report or a comparison reads, each page's
// values copied out in bulk, no row built. Row i of the group is the i-th
// element of every slice. It is only valid during the callback it is
// passed to.
type ExecutionColumns struct {
	Len int
	// Scenario, TemplateHash and PlanHash are kept as their distinct
	// values and, per row, an index into them (as the files keep them:
	// dictionary encoded), so a reader maps a scenario once per group.
	Scenario, TemplateHash, PlanHash StringColumn
	StartNs                          []int64 // Unix nanoseconds
	IntendedStartNs                  []int64 // Unix nanoseconds; 0 when null (unpaced)
	LatencyNs                        []int64
	Rows                             []int64
	ErrorCode                        []int32
	// Retries are each statement's deadlock and lock-wait retries;
	// CommitErrorCode the error of the COMMIT that ended its event, on the
	// event's last statement (0 when none, and in files written before).
	Retries, CommitErrorCode []int32
	// Warnings are each statement's warning count (0 when none, when not
	// counted, and in files written before; see Run.WarningsCounted).
	Warnings []int32
	// Checksum ("" when null) and Params are only read when
	// ColumnScan.Checksums asks for them, and are nil when no row of the
	// group has a checksum; Params are only meant for rows with one. The
	// strings of a page share its memory: copy one to keep it past the
	// callback.
	Checksum []string
	Params   [][]string
	// Cut holds the statements of the group cut at the end of the run
	// (see cut.go): they are not rows of the columns above.
	Cut []CutExecution
	// ClientHost and Segment (0 when null) are only read when
	// ColumnScan.Clients asks for them; else ClientHost holds no value
	// (every index -1) and Segment is nil.
	ClientHost StringColumn
	Segment    []int32
	// File and Group are where the rows are: the executions file and its
	// row group (see Ref).
	File  string
	Group int
	// rowInGroup is the row of the group each row is, when some rows of
	// the group were left out (cut at the end); nil when row i is row i.
	rowInGroup []int32
}

// Ref is where row i is, for ReadExecutionsAt to read what the columns
// leave out (its parameters, its endpoint).
func (c *ExecutionColumns) Ref(i int) RowRef {
	r := i
	if c.rowInGroup != nil {
		r = int(c.rowInGroup[i])
	}
	return RowRef{File: c.File, Group: c.Group, Row: r}
}

// StringColumn is a string column as its distinct values and, per row, an
// index into them; -1 for a null.
type StringColumn struct {
	Values []string
	Index  []int32
}

// At is the value of row i, "" for a null.
func (c *StringColumn) At(i int) string {
	if j := c.Index[i]; j >= 0 {
		return c.Values[j]
	}
	return ""
}

func (c *ExecutionColumns) reset() {
	c.Len = 0
	for _, s := range []*StringColumn{&c.Scenario, &c.TemplateHash, &c.PlanHash, &c.ClientHost} {
		s.Values, s.Index = s.Values[:0], s.Index[:0]
	}
	c.StartNs, c.IntendedStartNs, c.LatencyNs, c.Rows = c.StartNs[:0], c.IntendedStartNs[:0], c.LatencyNs[:0], c.Rows[:0]
	c.ErrorCode, c.Retries, c.CommitErrorCode, c.Warnings = c.ErrorCode[:0], c.Retries[:0], c.CommitErrorCode[:0], c.Warnings[:0]
	c.Checksum, c.Params = nil, nil
	c.Cut = c.Cut[:0]
	c.Segment = nil
	c.rowInGroup = nil
}

// columnFields are the columns of the row-by-row reading of the same
// columns: they decide which columns a file must have (the same as for
// the rows report always read), and read the row groups that the column
// reader does not handle (see readGroupRows). The client host and the
// segment may be missing: only the per-client breakdown reads them; and
// the retries, which only count.
var columnFields = executionSchema.project(
	[]string{"Scenario", "TemplateHash", "Start", "IntendedStart", "LatencyNs", "Rows", "ErrorCode", "PlanHash",
		"Params", "Checksum", "CutAtEnd", "ClientHost", "Segment", "Retries", "CommitErrorCode", "Warnings"},
	[]string{"ClientHost", "Segment", "Retries", "Warnings"})

// errByRows sends a row group to the row reader: its layout is not the one
// the column reader decodes (another encoding or type), or the caller
// wants parameters, which only the row reader assembles.
var errByRows = errors.New("row group read row by row")

// columnFile is an open executions file and where its columns are.
type columnFile struct {
	path string
	pf   *parquet.File
	// leaf column index of each column read, -1 when the file lacks it
	// (an optional column added after the file was written)
	scenario, template, start, intended, latency, rows, code, plan, checksum, cut, client, segment, retries, commit, warnings int
	// params is the leaf column of the parameters' list, -1 unless it is
	// a list of required strings (the layout joinbench writes)
	params int
}

// openColumnFile opens an executions file for reading by columns. A file
// that cannot be read is warned about, as scanFile does, and gives nil.
func openColumnFile(path string, warn func(error)) (cf *columnFile, closeFn func()) {
	f, err := os.Open(path)
	if err != nil {
		warn(fmt.Errorf("%s: %w (skipped)", path, err))
		return nil, nil
	}
	ok := false
	defer func() {
		if r := recover(); r != nil { // parquet-go may panic on corrupt input
			warn(fmt.Errorf("%s: unreadable after %d rows: %v (rest skipped)", path, 0, r))
			ok = false
		}
		if !ok {
			f.Close()
			cf, closeFn = nil, nil
		}
	}()
	st, err := f.Stat()
	if err != nil {
		warn(fmt.Errorf("%s: %w (skipped)", path, err))
		return nil, nil
	}
	if st.Size() == 0 {
		warn(fmt.Errorf("%s: empty file (skipped; run still writing or interrupted?)", path))
		return nil, nil
	}
	pf, err := parquet.OpenFile(f, st.Size(), parquet.SkipBloomFilters(true), parquet.SkipPageIndex(true))
	if err != nil {
		warn(fmt.Errorf("%s: not a complete Parquet file: %w (skipped; truncated?)", path, err))
		return nil, nil
	}
	if err := checkFileFormat(path, pf); err != nil {
		warn(fmt.Errorf("%w (skipped)", err))
		return nil, nil
	}
	if missing := columnFields.missing(pf.Schema()); len(missing) > 0 {
		warn(fmt.Errorf("%s: not %s: no column %s (skipped)", path, kindOf[Execution](), strings.Join(missing, ", ")))
		return nil, nil
	}
	col := func(field string) int {
		if leaf, ok := pf.Schema().Lookup(executionSchema.column(field)); ok {
			return leaf.ColumnIndex
		}
		return -1
	}
	params := -1
	if leaf, ok := pf.Schema().Lookup(executionSchema.leaf("Params")...); ok && leaf.MaxRepetitionLevel == 1 && leaf.MaxDefinitionLevel == 1 &&
		leaf.Node.Type().Kind() == parquet.ByteArray {
		params = leaf.ColumnIndex
	}
	cf = &columnFile{path: path, pf: pf, params: params,
		scenario: col("Scenario"), template: col("TemplateHash"), start: col("Start"), intended: col("IntendedStart"),
		latency: col("LatencyNs"), rows: col("Rows"), code: col("ErrorCode"), plan: col("PlanHash"), checksum: col("Checksum"),
		cut: col("CutAtEnd"), client: col("ClientHost"), segment: col("Segment"), retries: col("Retries"),
		commit: col("CommitErrorCode"), warnings: col("Warnings")}
	ok = true
	return cf, func() { f.Close() }
}

// readGroup decodes row group g into c. errByRows (or any error or panic)
// leaves c to be filled by readGroupRows instead.
func (cf *columnFile) readGroup(g int, opt ColumnScan, c *ExecutionColumns) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	c.reset()
	rg := cf.pf.RowGroups()[g]
	chunks := rg.ColumnChunks()
	n := int(rg.NumRows())
	if opt.Checksums && cf.checksum >= 0 && !cf.allNull(g, cf.checksum) {
		some, err := hasValues(chunks[cf.checksum])
		if err != nil {
			return err
		}
		if some {
			if cf.params < 0 {
				return errByRows
			}
			if err := readOptionalStrings(chunks[cf.checksum], &c.Checksum); err != nil {
				return err
			}
			if err := readLists(chunks[cf.params], &c.Params); err != nil {
				return err
			}
			if len(c.Checksum) != n || len(c.Params) != n {
				return fmt.Errorf("%d checksums and %d parameter lists for %d rows", len(c.Checksum), len(c.Params), n)
			}
		}
	}
	if cf.cut >= 0 { // a few rows at the end of a run: that group is read by rows
		some, err := hasValues(chunks[cf.cut])
		if err != nil {
			return err
		}
		if some {
			return errByRows
		}
	}
	template, rows := cf.template, cf.rows
	// Columns whose statistics say they hold only nulls are not decoded:
	// an unpaced run has no intended start, a run without EXPLAIN no plan.
	template, rows, client, plan, intended := cf.template, cf.rows, -1, cf.plan, cf.intended
	if plan >= 0 && cf.allNull(g, plan) {
		plan = -1
	}
	if intended >= 0 && cf.allNull(g, intended) {
		intended = -1
	}
	if opt.SkipTemplates {
		template = -1
	}
	if opt.SkipRows && c.Checksum == nil { // a checksum goes with its rows
		rows = -1
	}
	if opt.Clients {
		client = cf.client
		c.Segment = []int32{} // filled below
	}
	for _, s := range []struct {
		col int
		dst *StringColumn
	}{{cf.scenario, &c.Scenario}, {template, &c.TemplateHash}, {plan, &c.PlanHash}, {client, &c.ClientHost}} {
		if s.col < 0 {
			s.dst.Index = fillInt32(s.dst.Index, n, -1)
			continue
		}
		if err := readStrings(chunks[s.col], s.dst); err != nil {
			return err
		}
	}
	for _, s := range []struct {
		col int
		dst *[]int64
	}{{cf.start, &c.StartNs}, {intended, &c.IntendedStartNs}, {cf.latency, &c.LatencyNs}, {rows, &c.Rows}} {
		if s.col < 0 {
			*s.dst = fillInt64(*s.dst, n, 0)
			continue
		}
		if err := readInt64s(chunks[s.col], s.dst); err != nil {
			return err
		}
	}
	if cf.allZero32(g, cf.code) { // no statement failed
		c.ErrorCode = fillInt32(c.ErrorCode, n, 0)
	} else if err := readInt32s(chunks[cf.code], &c.ErrorCode); err != nil {
		return err
	}
	if cf.retries < 0 || cf.allZero32(g, cf.retries) { // no statement was retried
		c.Retries = fillInt32(c.Retries, n, 0)
	} else if err := readInt32s(chunks[cf.retries], &c.Retries); err != nil {
		return err
	}
	if cf.commit < 0 || cf.allNull(g, cf.commit) { // every COMMIT succeeded
		c.CommitErrorCode = fillInt32(c.CommitErrorCode, n, 0)
	} else if err := readNumbers(chunks[cf.commit], parquet.Int32, (*encoding.Values).Int32, true, &c.CommitErrorCode); err != nil {
		return err
	}
	if cf.warnings < 0 || cf.allNull(g, cf.warnings) { // no statement had warnings
		c.Warnings = fillInt32(c.Warnings, n, 0)
	} else if err := readNumbers(chunks[cf.warnings], parquet.Int32, (*encoding.Values).Int32, true, &c.Warnings); err != nil {
		return err
	}
	if opt.Clients {
		if cf.segment < 0 {
			c.Segment = fillInt32(c.Segment, n, 0)
		} else if err := readNumbers(chunks[cf.segment], parquet.Int32, (*encoding.Values).Int32, true, &c.Segment); err != nil {
			return err
		}
	}
	lens := []int{len(c.Scenario.Index), len(c.TemplateHash.Index), len(c.PlanHash.Index), len(c.ClientHost.Index),
		len(c.StartNs), len(c.IntendedStartNs), len(c.LatencyNs), len(c.Rows), len(c.ErrorCode), len(c.Retries), len(c.CommitErrorCode),
		len(c.Warnings)}
	if opt.Clients {
		lens = append(lens, len(c.Segment))
	}
	for _, l := range lens {
		if l != n {
			return fmt.Errorf("a column holds %d values for %d rows", l, n)
		}
	}
	c.Len = n
	return nil
}

// readGroupRows reads row group g row by row into c, up to the first
// error: what the column reader leaves to it, and a group it failed on
// (which then fails here the way a row-by-row scan always did).
func (cf *columnFile) readGroupRows(g int, c *ExecutionColumns, opt ColumnScan) error {
	c.reset()
	checksums := opt.Checksums
	if opt.Clients {
		c.Segment = []int32{}
	}
	ids := [4]map[string]int32{{}, {}, {}, {}}
	add := func(s *StringColumn, m map[string]int32, v string, null bool) {
		if null {
			s.Index = append(s.Index, -1)
			return
		}
		j, ok := m[v]
		if !ok {
			j = int32(len(s.Values))
			m[v] = j
			s.Values = append(s.Values, strings.Clone(v))
		}
		s.Index = append(s.Index, j)
	}
	r := parquet.NewGenericRowGroupReader[Execution](cf.pf.RowGroups()[g], columnFields.schema)
	defer r.Close()
	buf := make([]Execution, readBatch)
	row := int32(0)
	for {
		n, rerr := r.Read(buf)
		for i := range buf[:n] {
			e := &buf[i]
			row++
			if e.CutAtEnd {
				if c.rowInGroup == nil {
					c.rowInGroup = make([]int32, c.Len, c.Len+n)
					for j := range c.rowInGroup {
						c.rowInGroup[j] = int32(j)
					}
				}
				c.Cut = append(c.Cut, cutExecution(e))
				continue
			}
			if c.rowInGroup != nil {
				c.rowInGroup = append(c.rowInGroup, row-1)
			}
			add(&c.Scenario, ids[0], e.Scenario, false)
			add(&c.TemplateHash, ids[1], e.TemplateHash, false)
			add(&c.PlanHash, ids[2], e.PlanHash, e.PlanHash == "")
			add(&c.ClientHost, ids[3], e.ClientHost, !opt.Clients)
			if opt.Clients {
				c.Segment = append(c.Segment, e.Segment)
			}
			c.StartNs = append(c.StartNs, e.Start.UnixNano())
			var intended int64
			if e.IntendedStart != nil {
				intended = e.IntendedStart.UnixNano()
			}
			c.IntendedStartNs = append(c.IntendedStartNs, intended)
			c.LatencyNs = append(c.LatencyNs, e.LatencyNs)
			c.Rows = append(c.Rows, e.Rows)
			c.ErrorCode = append(c.ErrorCode, e.ErrorCode)
			c.Retries = append(c.Retries, e.Retries)
			c.CommitErrorCode = append(c.CommitErrorCode, e.CommitErrorCode)
			c.Warnings = append(c.Warnings, e.Warnings)
			if checksums {
				c.Checksum = append(c.Checksum, strings.Clone(e.Checksum))
				c.Params = append(c.Params, cloneStrings(e.Params))
			}
			c.Len++
		}
		if rerr == io.EOF {
			return nil
		}
		if rerr != nil {
			return rerr
		}
	}
}

func cloneStrings(ss []string) []string {
	if len(ss) == 0 {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.Clone(s)
	}
	return out
}

// allNull reports whether the statistics of column col in row group g say
// that it holds only nulls.
func (cf *columnFile) allNull(g, col int) bool {
	rg := cf.pf.Metadata().RowGroups[g]
	return rg.NumRows > 0 && rg.Columns[col].MetaData.Statistics.NullCount == rg.NumRows
}

// allZero32 reports whether the statistics of the int32 column col in row
// group g say that it holds only zeros (and no null).
func (cf *columnFile) allZero32(g, col int) bool {
	rg := cf.pf.Metadata().RowGroups[g]
	cm := rg.Columns[col].MetaData
	st := cm.Statistics
	zero := []byte{0, 0, 0, 0}
	return rg.NumRows > 0 && cm.Type == format.Int32 && st.NullCount == 0 &&
		bytes.Equal(st.MinValue, zero) && bytes.Equal(st.MaxValue, zero)
}

// hasValues reports whether an optional column chunk holds any non-null
// value.
func hasValues(cc parquet.ColumnChunk) (bool, error) {
	pages := cc.Pages()
	defer pages.Close()
	for {
		p, err := pages.ReadPage()
		if err == io.EOF {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		some := p.NumNulls() < p.NumValues()
		parquet.Release(p)
		if some {
			return true, nil
		}
	}
}

// readStrings appends a string column chunk to dst: dictionary pages as
// their indexes (the dictionary converted once), plain pages through a
// map of the values seen.
func readStrings(cc parquet.ColumnChunk, dst *StringColumn) error {
	pages := cc.Pages()
	defer pages.Close()
	var dict parquet.Dictionary
	var dictBase int32
	var plain map[string]int32
	for {
		p, err := pages.ReadPage()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		def := p.DefinitionLevels()
		if p.RepetitionLevels() != nil {
			parquet.Release(p)
			return errByRows
		}
		var idx []int32
		if d := p.Dictionary(); d != nil {
			if d != dict { // one dictionary per column chunk, in practice
				dict, dictBase = d, int32(len(dst.Values))
				for i := range d.Len() {
					dst.Values = append(dst.Values, string(d.Index(int32(i)).ByteArray()))
				}
			}
			data := p.Data()
			idx = data.Int32()
			if dictBase != 0 {
				for i := range idx {
					idx[i] += dictBase
				}
			}
		} else {
			values := p.Data()
			data, offsets := values.ByteArray()
			if len(offsets) == 0 {
				offsets = []uint32{0}
			}
			if plain == nil {
				plain = map[string]int32{}
			}
			idx = make([]int32, len(offsets)-1)
			for i := range idx {
				v := data[offsets[i]:offsets[i+1]]
				j, ok := plain[string(v)]
				if !ok {
					j = int32(len(dst.Values))
					plain[string(v)] = j
					dst.Values = append(dst.Values, string(v))
				}
				idx[i] = j
			}
		}
		dst.Index = appendWithNulls(dst.Index, idx, def, -1)
		parquet.Release(p)
	}
}

// readOptionalStrings appends a plain-encoded optional string column chunk
// to dst, "" for a null. The strings of a page share one allocation.
func readOptionalStrings(cc parquet.ColumnChunk, dst *[]string) error {
	pages := cc.Pages()
	defer pages.Close()
	for {
		p, err := pages.ReadPage()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if p.Dictionary() != nil || p.RepetitionLevels() != nil {
			parquet.Release(p)
			return errByRows
		}
		def := p.DefinitionLevels()
		values := p.Data()
		vals := pageStrings(&values)
		*dst = appendWithNulls(*dst, vals, def, "")
		parquet.Release(p)
	}
}

// readLists appends, per row, the values of a column chunk of lists of
// required plain-encoded strings (repetition and definition levels at most
// 1); nil for an empty list. The strings of a page share one allocation,
// and so do the lists.
func readLists(cc parquet.ColumnChunk, dst *[][]string) error {
	pages := cc.Pages()
	defer pages.Close()
	for {
		p, err := pages.ReadPage()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		rep, def := p.RepetitionLevels(), p.DefinitionLevels()
		if p.Dictionary() != nil || len(rep) != len(def) {
			parquet.Release(p)
			return errByRows
		}
		values := p.Data()
		vals := pageStrings(&values)
		j := 0
		for k := 0; k < len(rep); {
			// one row: its first level has repetition 0, unless it goes on
			// from the page before
			from := j
			end := k + 1
			for end < len(rep) && rep[end] != 0 {
				end++
			}
			for _, d := range def[k:end] {
				if d != 0 {
					j++
				}
			}
			row := vals[from:j:j]
			if len(row) == 0 {
				row = nil
			}
			if rep[k] != 0 && len(*dst) > 0 {
				last := &(*dst)[len(*dst)-1]
				*last = append(slices.Clip(*last), row...)
			} else {
				*dst = append(*dst, row)
			}
			k = end
		}
		parquet.Release(p)
	}
}

// pageStrings returns the byte-array values of a page as strings that
// share one allocation.
func pageStrings(values *encoding.Values) []string {
	data, offsets := values.ByteArray()
	if len(offsets) < 2 {
		return nil
	}
	whole := string(data[offsets[0]:offsets[len(offsets)-1]])
	base := offsets[0]
	out := make([]string, len(offsets)-1)
	for i := range out {
		out[i] = whole[offsets[i]-base : offsets[i+1]-base]
	}
	return out
}

func readInt64s(cc parquet.ColumnChunk, dst *[]int64) error {
	return readNumbers(cc, parquet.Int64, (*encoding.Values).Int64, true, dst)
}

func readInt32s(cc parquet.ColumnChunk, dst *[]int32) error {
	return readNumbers(cc, parquet.Int32, (*encoding.Values).Int32, false, dst)
}

// readNumbers appends a plain-encoded numeric column chunk to dst, a null
// as 0 when nullable. A chunk of another kind, a dictionary or repeated
// page, or a null where none is expected sends the row group to the row
// reader (errByRows).
func readNumbers[T int32 | int64](cc parquet.ColumnChunk, kind parquet.Kind, values func(*encoding.Values) []T, nullable bool, dst *[]T) error {
	if cc.Type().Kind() != kind {
		return errByRows
	}
	pages := cc.Pages()
	defer pages.Close()
	for {
		p, err := pages.ReadPage()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		def := p.DefinitionLevels()
		if p.Dictionary() != nil || p.RepetitionLevels() != nil || !nullable && def != nil {
			parquet.Release(p)
			return errByRows
		}
		data := p.Data()
		*dst = appendWithNulls(*dst, values(&data), def, 0)
		parquet.Release(p)
	}
}

// appendWithNulls appends the values of a page to dst: all of them when
// the column is required (no definition levels), else one per definition
// level, null where the level is below the maximum (1: a top-level
// optional column).
func appendWithNulls[T any](dst, vals []T, def []byte, null T) []T {
	if def == nil {
		return append(dst, vals...)
	}
	j := 0
	for _, d := range def {
		if d != 0 {
			dst = append(dst, vals[j])
			j++
		} else {
			dst = append(dst, null)
		}
	}
	return dst
}

func fillInt32(dst []int32, n int, v int32) []int32 {
	for range n {
		dst = append(dst, v)
	}
	return dst
}

func fillInt64(dst []int64, n int, v int64) []int64 {
	for range n {
		dst = append(dst, v)
	}
	return dst
}
