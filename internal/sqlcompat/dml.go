package sqlcompat

// Constructs of UPDATE, DELETE and INSERT.

// returning blanks MariaDB's RETURNING list of a DELETE, INSERT or
// REPLACE: the statement is the write it is without it.
func returning(r *rewriter, st stmt) {
	switch st.at(0) {
	case "delete", "insert", "replace":
	default:
		return
	}
	if i := st.topLevel(0, len(st), "returning"); i >= 0 {
		end := st[len(st)-1].End
		r.add(Returning, st[i].Start, end, r.blank(st[i].Start, end))
	}
}

// multiUpdateLimit reads MariaDB's multi-table `UPDATE t1, t2 SET ...
// ORDER BY ... LIMIT n` as `UPDATE t1 JOIN t2 SET ...`, which the TiDB
// parser reads with ORDER BY and LIMIT: the tables, the ordering and the
// limit stay in the statement for the rules to see.
func multiUpdateLimit(r *rewriter, st stmt) {
	if st.at(0) != "update" {
		return
	}
	set := st.topLevel(1, len(st), "set")
	if set < 0 {
		return
	}
	tail := st.topLevel(set+1, len(st), "order", "limit")
	if tail < 0 {
		return
	}
	var edits []edit
	for j := range st.level(1, set) {
		if st[j].low == "," {
			edits = append(edits, edit{start: st[j].Start, end: st[j].End, repl: " JOIN "})
		}
	}
	r.add(MultiUpdateLimit, st[tail].Start, st[len(st)-1].End, edits...)
}

// portionOf blanks MariaDB's `FOR PORTION OF period FROM x TO y` of a
// DELETE or UPDATE on an application-time period table.
func portionOf(r *rewriter, st stmt) {
	switch st.at(0) {
	case "delete", "update":
	default:
		return
	}
	for i, t := range st {
		if t.low != "for" || st.at(i+1) != "portion" || st.at(i+2) != "of" {
			continue
		}
		end := st.topLevel(i+3, len(st), "where", "order", "limit", "returning", "set")
		if end < 0 {
			end = len(st)
		}
		if end-1 > i+2 {
			r.add(PortionOf, t.Start, st[end-1].End, r.blank(t.Start, st[end-1].End))
		}
	}
}
