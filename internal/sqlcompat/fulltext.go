package sqlcompat

import "github.com/joinbench/joinbench/internal/sqllex"

// matchAgainst brackets MATCH's columns when they have none (`MATCH a, b
// AGAINST (...)`), and the whole MATCH ... AGAINST (...) when an
// operator stands next to it (`MATCH (a) AGAINST ('x') > 0`), which the
// TiDB parser reads only in brackets.
func matchAgainst(r *rewriter, st stmt) {
	for i, t := range st {
		if t.low != "match" {
			continue
		}
		j := i + 1
		if st.at(j) == "(" {
			j = st.closing(j) + 1
		} else {
			k := j
			for k < len(st) && st[k].low != "against" && (st.name(k) || st[k].low == "," || st[k].low == ".") {
				k++
			}
			if st.at(k) != "against" || k == j {
				continue
			}
			r.add(MatchColumns, st[j].Start, st[k-1].End, insert(st[j].Start, "("), insert(st[k-1].End, ")"))
			j = k
		}
		if st.at(j) != "against" || st.at(j+1) != "(" {
			continue
		}
		end := st.closing(j + 1)
		if operator(st, i-1) || operator(st, end+1) {
			r.add(MatchCompared, t.Start, st[end].End, insert(t.Start, "("), insert(st[end].End, ")"))
		}
	}
}

// operator reports whether st[i] is an operator (punctuation other than
// brackets, commas and the statement's end).
func operator(st stmt, i int) bool {
	if i < 0 || i >= len(st) || st[i].Kind != sqllex.Punct {
		return false
	}
	switch st[i].low {
	case "(", ")", ",", ";", "?", ".", "@":
		return false
	}
	return true
}
