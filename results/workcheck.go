package results

import (
	"fmt"
	"math"
)

// MaxWorkCounter bounds every work figure a file may hold (2^50, about
// 10^15): no execution reads that many rows, and sums of many samples of
// it stay far from overflowing an int64.
const MaxWorkCounter = int64(1) << 50

// checkWork says why a work row's figures are outside their domain
// (negative, past MaxWorkCounter, a share outside 0..100%), nil when they
// are not: a file with such a row is a damaged or forged file, and its
// work must give no verdict.
func checkWork(w *Work) error {
	counters := []struct {
		name string
		v    *int64
	}{
		{"rows_examined", w.RowsExamined}, {"rows_sent", w.RowsSent}, {"rows_changed", w.RowsChanged}, {"pages", w.Pages},
		{"handler_read_key", w.HandlerReadKey}, {"handler_read_next", w.HandlerReadNext}, {"handler_read_prev", w.HandlerReadPrev},
		{"handler_read_first", w.HandlerReadFirst}, {"handler_read_last", w.HandlerReadLast}, {"handler_read_rnd", w.HandlerReadRnd},
		{"handler_read_rnd_next", w.HandlerReadRndNext}, {"handler_write", w.HandlerWrite}, {"handler_update", w.HandlerUpdate},
		{"handler_delete", w.HandlerDelete}, {"tmp_tables", w.TmpTables}, {"tmp_disk_tables", w.TmpDiskTables},
		{"tmp_rows_read", w.TmpRowsRead}, {"sort_rows", w.SortRows}, {"sort_merge_passes", w.SortMergePasses},
		{"full_scans", w.FullScans}, {"full_joins", w.FullJoins},
	}
	for _, t := range w.Tables {
		counters = append(counters,
			struct {
				name string
				v    *int64
			}{"tables." + t.Name + ".loops", &t.Loops},
			struct {
				name string
				v    *int64
			}{"tables." + t.Name + ".rows", &t.Rows},
			struct {
				name string
				v    *int64
			}{"tables." + t.Name + ".pages", t.Pages},
			struct {
				name string
				v    *int64
			}{"tables." + t.Name + ".compared", t.Compared})
		if f := t.Filtered; f != nil && (math.IsNaN(*f) || *f < 0 || *f > 100) {
			return fmt.Errorf("tables.%s.filtered %v is outside 0..100%%", t.Name, *f)
		}
	}
	if w.Retries < 0 {
		return fmt.Errorf("retries %d is negative", w.Retries)
	}
	for _, c := range counters {
		if c.v != nil && (*c.v < 0 || *c.v > MaxWorkCounter) {
			return fmt.Errorf("%s %d is outside its domain (0 to 2^50)", c.name, *c.v)
		}
	}
	return nil
}
