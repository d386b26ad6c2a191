package sqlcompat

import "slices"

// Constructs of a query's clauses: its FROM list, LIMIT, HAVING, CTEs.

// limitRowsExamined blanks MariaDB's `ROWS EXAMINED n`, and the LIMIT
// before it when it has no row count of its own.
func limitRowsExamined(r *rewriter, st stmt) {
	for i := range st {
		if st.at(i) != "rows" || st.at(i+1) != "examined" || i+2 >= len(st) {
			continue
		}
		start := st[i].Start
		if st.at(i-1) == "limit" {
			start = st[i-1].Start
		}
		r.add(LimitRowsExamined, start, st[i+2].End, r.blank(start, st[i+2].End))
	}
}

// offsetFetch blanks the standard `OFFSET n ROWS` and `FETCH FIRST n
// ROWS ONLY|WITH TIES` MariaDB reads.
func offsetFetch(r *rewriter, st stmt) {
	for i := range st {
		switch {
		case st.at(i) == "offset" && (st.at(i+2) == "rows" || st.at(i+2) == "row"):
			r.add(OffsetFetch, st[i].Start, st[i+2].End, r.blank(st[i].Start, st[i+2].End))
		case st.at(i) == "fetch" && (st.at(i+1) == "first" || st.at(i+1) == "next"):
			j := i + 2
			if st.at(j) != "row" && st.at(j) != "rows" {
				j++ // the count
			}
			if st.at(j) != "row" && st.at(j) != "rows" {
				continue
			}
			switch j++; {
			case st.at(j) == "only":
			case st.at(j) == "with" && st.at(j+1) == "ties":
				j++
			default:
				continue
			}
			r.add(OffsetFetch, st[i].Start, st[j].End, r.blank(st[i].Start, st[j].End))
		}
	}
}

// valuesWithoutRow writes ROW before each row of a table value
// constructor that stands as a query (not INSERT's VALUES).
func valuesWithoutRow(r *rewriter, st stmt) {
	for i, t := range st {
		if t.low != "values" || st.at(i+1) != "(" {
			continue
		}
		switch st.at(i - 1) {
		case "", "(", "union", "all", "distinct", "intersect", "except":
		default:
			continue // INSERT ... VALUES
		}
		var edits []edit
		end := t.End
		for j := i + 1; j < len(st) && st[j].low == "("; {
			edits = append(edits, insert(st[j].Start, "ROW"))
			k := st.closing(j)
			end = st[k].End
			if j = k + 1; st.at(j) != "," {
				break
			}
			j++
		}
		r.add(ValuesWithoutRow, t.Start, end, edits...)
	}
}

// block returns the extent of the query block whose SELECT is st[i]: the
// indexes after it up to the end of the block (exclusive), which is where
// a bracket closes it, a set operator or the statement ends.
func (st stmt) block(i int) int {
	for j := range st.level(i+1, len(st)) {
		switch st[j].low {
		case ")", "union", "intersect", "except":
			return j
		}
	}
	return len(st)
}

// topLevel returns the index of the first of words at the level of
// st[from] in st[from:to], or -1.
func (st stmt) topLevel(from, to int, words ...string) int {
	for j := range st.level(from, to) {
		if slices.Contains(words, st[j].low) {
			return j
		}
	}
	return -1
}

// havingWithoutTable lets a HAVING stand in a SELECT without a table:
// `FROM dual HAVING` loses its `FROM dual`; with a WHERE or GROUP BY
// between, dual is quoted (a table to the parser, which name resolution
// must take for none); a block without FROM gets a FROM `dual` before
// its WHERE or GROUP BY.
func havingWithoutTable(r *rewriter, st stmt) {
	for i, t := range st {
		if t.low != "select" {
			continue
		}
		end := st.block(i)
		having := st.topLevel(i+1, end, "having")
		if having < 0 {
			continue
		}
		from := st.topLevel(i+1, having, "from")
		switch {
		case from >= 0 && st.at(from+1) == "dual" && from+2 == having:
			r.add(HavingWithoutTable, st[from].Start, st[from+1].End, r.blank(st[from].Start, st[from+1].End))
		case from >= 0 && st.at(from+1) == "dual":
			d := st[from+1]
			r.add(HavingWithoutTable, d.Start, d.End, insert(d.Start, "`"), insert(d.End, "`"))
		case from < 0:
			if w := st.topLevel(i+1, having, "where", "group"); w >= 0 {
				r.add(HavingWithoutTable, st[having].Start, st[having].End, insert(st[w].Start, "FROM `dual` "))
			}
		}
	}
}

// cycleRestrict blanks a recursive CTE's `CYCLE col, ... RESTRICT`.
func cycleRestrict(r *rewriter, st stmt) {
	for i, t := range st {
		if t.low != "cycle" || st.at(i-1) != ")" {
			continue
		}
		for j := i + 1; j < len(st); j++ {
			if st[j].low == "restrict" {
				r.add(CycleRestrict, t.Start, st[j].End, r.blank(t.Start, st[j].End))
				break
			}
			if !st.name(j) && st[j].low != "," {
				break
			}
		}
	}
}

// naturalJoin reads NATURAL INNER JOIN as NATURAL JOIN, and MariaDB's
// NATURAL STRAIGHT_JOIN as NATURAL JOIN too (the join order the keyword
// asks for is the analyzer's to read from the tokens).
func naturalJoin(r *rewriter, st stmt) {
	for i, t := range st {
		if t.low != "natural" || i+1 >= len(st) {
			continue
		}
		n := st[i+1]
		switch n.low {
		case "inner":
			r.add(NaturalInner, t.Start, n.End, r.blank(n.Start, n.End))
		case "straight_join":
			r.add(NaturalStraight, t.Start, n.End, replace(n.Start, n.End, "JOIN"))
		}
	}
}

// aliasEquals blanks the `=` of MariaDB's `FROM t1 = alias`.
func aliasEquals(r *rewriter, st stmt) {
	for i, t := range st {
		if t.low != "=" || !st.name(i-1) || !st.name(i+1) {
			continue
		}
		switch st.at(i + 2) {
		case ".", "(":
			continue // an expression
		}
		switch st.at(i - 2) {
		case "from", "join", "straight_join":
		case ",":
			if !st.inFromList(i - 2) {
				continue
			}
		default:
			continue
		}
		r.add(AliasEquals, t.Start, st[i+1].End, r.blank(t.Start, t.End))
	}
}

// inFromList reports whether st[i] is in a FROM clause: FROM is the last
// clause keyword before it at its level.
func (st stmt) inFromList(i int) bool {
	for j := range st.levelBefore(i) {
		switch st[j].low {
		case "from":
			return true
		case "(", "select", "where", "group", "having", "order", "limit", "on", "using", "set", "window":
			return false
		}
	}
	return false
}
