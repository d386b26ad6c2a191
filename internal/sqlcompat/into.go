package sqlcompat

// into blanks the INTO clause of a SELECT that the TiDB parser cannot
// read: INTO @variables wherever it stands (before FROM, at the end,
// after a UNION), INTO DUMPFILE, and INTO OUTFILE before FROM (at the end
// the parser reads it). Storing into variables writes nothing to the
// database; a file is written, which the Construct tells.
func into(r *rewriter, st stmt) {
	switch st.at(0) {
	case "insert", "replace", "load":
		return
	}
	for i, t := range st {
		if t.low != "into" {
			continue
		}
		switch st.at(i + 1) {
		case "@":
			j := i + 1
			for st.at(j) == "@" && j+1 < len(st) {
				j += 2
				if st.at(j) != "," || st.at(j+1) != "@" {
					break
				}
				j++
			}
			r.add(IntoVariables, t.Start, st[j-1].End, r.blank(t.Start, st[j-1].End))
		case "outfile", "dumpfile":
			end := st.clauseEnd(i + 2)
			if st.at(i+1) == "outfile" && st.at(end) != "from" {
				continue // at the end: the parser reads it
			}
			r.add(IntoFile, t.Start, st[end-1].End, r.blank(t.Start, st[end-1].End))
		}
	}
}

// clauseEnd returns the index of the first token from i on, at the
// level of st[i], that starts what follows an INTO clause: FROM, a set
// operator, a locking clause, a closing bracket or the end.
func (st stmt) clauseEnd(i int) int {
	for j := range st.level(i, len(st)) {
		switch st[j].low {
		case ")", "from", "union", "intersect", "except", "for", "lock":
			return j
		}
	}
	return len(st)
}
