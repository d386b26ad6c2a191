package work

import (
	"errors"
	"math"
	"strings"

	"github.com/joinbench/joinbench/results"
)

// ParseMariaDBAnalyze reads the work of an execution from MariaDB's
// ANALYZE FORMAT=JSON output: a Table per table access, in the plan's
// order, with the rows it returned over all its loops (r_rows is a mean per
// loop, written with nine significant digits, so r_rows × r_loops rounds to
// the exact count), and the pages it requested (r_engine_stats, 10.9+). A
// rowid filter's range scan is a Table of its own, with the access
// "rowid_filter": its rows are read from the index like any other.
// RowsExamined and Pages are the sums over the base tables.
func ParseMariaDBAnalyze(text string) (*results.Work, error) {
	root, err := parseLenient(strings.TrimSpace(text))
	if err != nil {
		return nil, err
	}
	if root.get("query_block") == nil {
		return nil, errors.New("ANALYZE output: no query_block")
	}
	w := &results.Work{Source: results.SourceMariaDBAnalyze}
	collectMariaDB(root, 0, &w.Tables)
	sumTables(w)
	return w, nil
}

// collectMariaDB appends the table accesses under n, in order.
func collectMariaDB(n *node, selectID int32, out *[]results.WorkTable) {
	switch n.kind {
	case '[':
		for _, it := range n.items {
			collectMariaDB(it, selectID, out)
		}
		return
	case '{':
	default:
		return
	}
	if v, ok := n.get("select_id").num(); ok {
		selectID = int32(v)
	}
	for _, m := range n.members {
		if m.key == "table" && m.val.kind == '{' {
			if t, ok := mariaDBTable(m.val, n, selectID); ok {
				*out = append(*out, t)
				if f, ok := rowidFilter(m.val, t); ok {
					*out = append(*out, f)
				}
			}
		}
		collectMariaDB(m.val, selectID, out)
	}
}

// mariaDBTable reads one "table" object; parent is the object holding it, a
// block-nl-join when the table is joined through a join buffer. A table
// without an access type or runtime figures (the target of an INSERT) is
// no access.
func mariaDBTable(t, parent *node, selectID int32) (results.WorkTable, bool) {
	rRows, hasRows := t.get("r_rows").num()
	access := t.get("access_type").str()
	if access == "" && !hasRows {
		return results.WorkTable{}, false
	}
	loops, hasLoops := t.get("r_loops").num()
	if !hasLoops && hasRows {
		loops = 1 // single-table UPDATE and DELETE print no r_loops
	}
	if (access == "const" || access == "system") && loops == 0 {
		// read once while optimizing, before the figures are counted
		loops, rRows = 1, 1
		if est, ok := t.get("rows").num(); ok {
			rRows = est
		}
	}
	tb := results.WorkTable{
		SelectID: selectID,
		Name:     t.get("table_name").str(),
		Access:   access,
		Key:      mariaDBKey(t),
		Loops:    int64(math.Round(loops)),
		Rows:     int64(math.Round(rRows * loops)),
	}
	if f, ok := t.get("r_filtered").num(); ok {
		tb.Filtered = &f
	}
	if p, ok := t.get("r_engine_stats").get("pages_accessed").num(); ok {
		tb.Pages = Counter(int64(p))
	}
	if jt := parent.get("join_type").str(); jt != "" {
		tb.JoinBuffer = jt
		bl, ok1 := parent.get("r_loops").num()
		eff, ok2 := parent.get("r_effective_rows").num()
		if ok1 && ok2 {
			tb.Compared = Counter(int64(math.Round(bl * eff)))
		}
	}
	return tb, true
}

// mariaDBKey is the index a table access reads: "key", or the keys of an
// index merge joined by commas.
func mariaDBKey(t *node) string {
	if k := t.get("key").str(); k != "" {
		return k
	}
	var keys []string
	var walk func(n *node)
	walk = func(n *node) {
		for _, it := range n.items {
			walk(it)
		}
		for _, m := range n.members {
			if m.key == "key" && m.val.kind == '"' {
				keys = append(keys, m.val.text)
			} else {
				walk(m.val)
			}
		}
	}
	if im := t.get("index_merge"); im != nil {
		walk(im)
	}
	return strings.Join(keys, ",")
}

// rowidFilter is the range scan that fills a table's rowid filter, when
// the access has one that ran.
func rowidFilter(t *node, of results.WorkTable) (results.WorkTable, bool) {
	f := t.get("rowid_filter")
	rows, ok := f.get("r_rows").num()
	if !ok {
		return results.WorkTable{}, false
	}
	return results.WorkTable{
		SelectID: of.SelectID,
		Name:     of.Name,
		Access:   "rowid_filter",
		Key:      f.get("range").get("key").str(),
		Loops:    1,
		Rows:     int64(math.Round(rows)),
	}, true
}
