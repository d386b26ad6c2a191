package work

import (
	"strconv"
	"strings"

	"github.com/joinbench/joinbench/results"
)

// statusVar is one session status counter a results.SourceSessionStatus work reads.
type statusVar int

const (
	stRowsRead    statusVar = iota // MariaDB only
	stRowsSent                     // MariaDB only
	stRowsTmpRead                  // MariaDB only
	stReadFirst
	stReadKey
	stReadLast
	stReadNext
	stReadPrev
	stReadRnd
	stReadRndNext
	stWrite
	stUpdate
	stDelete
	stTmpWrite // MariaDB only: internal temporary tables apart from Handler_write
	stTmpTables
	stTmpDiskTables
	stSortRows
	stSortMergePasses
	stSelectScan
	stSelectFullJoin
	numStatusVars
)

var statusNames = [numStatusVars]string{
	"Rows_read", "Rows_sent", "Rows_tmp_read",
	"Handler_read_first", "Handler_read_key", "Handler_read_last", "Handler_read_next",
	"Handler_read_prev", "Handler_read_rnd", "Handler_read_rnd_next",
	"Handler_write", "Handler_update", "Handler_delete", "Handler_tmp_write",
	"Created_tmp_tables", "Created_tmp_disk_tables", "Sort_rows", "Sort_merge_passes",
	"Select_scan", "Select_full_join",
}

// StatusQuery reads the session counters a results.SourceSessionStatus work is made of.
// Reading them costs the same as SHOW SESSION STATUS whatever the filter
// (MariaDB computes the InnoDB counters for every such statement; the cost
// is in docs/work.md), and it moves some of the counters itself:
// capture.StatusCost measures by how much.
var StatusQuery = func() string {
	q := make([]string, len(statusNames))
	for i, n := range statusNames {
		q[i] = "'" + n + "'"
	}
	return "SHOW SESSION STATUS WHERE Variable_name IN (" + strings.Join(q, ", ") + ")"
}()

// Status is one reading of the session counters.
type Status struct {
	v   [numStatusVars]int64
	has [numStatusVars]bool
}

// Set records one counter of a reading, as the server names it; counters
// a Work is not made of, and values that are not integers, are ignored.
func (s *Status) Set(name, value string) {
	for i, n := range statusNames {
		if strings.EqualFold(n, name) {
			if v, err := strconv.ParseInt(value, 10, 64); err == nil {
				s.v[i], s.has[i] = v, true
			}
			return
		}
	}
}

// Sub is the change of the counters from before to s.
func (s Status) Sub(before Status) Status {
	var d Status
	for i := range s.v {
		d.has[i] = s.has[i] && before.has[i]
		if d.has[i] {
			d.v[i] = s.v[i] - before.v[i]
		}
	}
	return d
}

// StatusWork is the work of what ran on a connection between the readings
// before and after, less cost (what reading the counters moves them by,
// measured once per connection; a counter cost lacks costs nothing). RowsExamined is MariaDB's
// Rows_read (rows read from base tables, a rowid filter's index entries
// and internal lookups included); on MySQL, which has no such counter, it
// is the sum of the Handler_read counters. RowsChanged needs the
// temporary tables' writes apart from the tables' (MariaDB's
// Handler_tmp_write): on MySQL, Handler_write counts both, and it is nil.
func StatusWork(before, after, cost Status) *results.Work {
	d := after.Sub(before)
	for i := range d.v {
		if cost.has[i] {
			d.v[i] -= cost.v[i]
		}
	}
	get := func(v statusVar) *int64 {
		if !d.has[v] {
			return nil
		}
		return Counter(d.v[v])
	}
	w := &results.Work{
		Source:             results.SourceSessionStatus,
		RowsSent:           get(stRowsSent),
		HandlerReadKey:     get(stReadKey),
		HandlerReadNext:    get(stReadNext),
		HandlerReadPrev:    get(stReadPrev),
		HandlerReadFirst:   get(stReadFirst),
		HandlerReadLast:    get(stReadLast),
		HandlerReadRnd:     get(stReadRnd),
		HandlerReadRndNext: get(stReadRndNext),
		HandlerWrite:       get(stWrite),
		HandlerUpdate:      get(stUpdate),
		HandlerDelete:      get(stDelete),
		TmpTables:          get(stTmpTables),
		TmpDiskTables:      get(stTmpDiskTables),
		TmpRowsRead:        get(stRowsTmpRead),
		SortRows:           get(stSortRows),
		SortMergePasses:    get(stSortMergePasses),
		FullScans:          get(stSelectScan),
		FullJoins:          get(stSelectFullJoin),
	}
	if d.has[stRowsRead] {
		w.RowsExamined = get(stRowsRead)
	} else if d.has[stReadKey] {
		var n int64
		for _, v := range []statusVar{stReadFirst, stReadKey, stReadLast, stReadNext, stReadPrev, stReadRnd, stReadRndNext} {
			n += d.v[v]
		}
		w.RowsExamined = Counter(n)
	}
	if d.has[stTmpWrite] && d.has[stWrite] && d.has[stUpdate] && d.has[stDelete] {
		w.RowsChanged = Counter(d.v[stWrite] + d.v[stUpdate] + d.v[stDelete])
	}
	return w
}
