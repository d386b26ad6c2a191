package sqlcompat

import "github.com/joinbench/joinbench/internal/sqllex"

// Constructs of aggregate and window functions.

// percentile blanks the WITHIN GROUP (...) and OVER (...) of MariaDB's
// PERCENTILE_CONT and PERCENTILE_DISC, and the OVER (...) of MEDIAN: the
// parser reads what is left as a plain function call.
func percentile(r *rewriter, st stmt) {
	for i, t := range st {
		c := WithinGroup
		switch t.low {
		case "percentile_cont", "percentile_disc":
		case "median":
			c = MedianOver
		default:
			continue
		}
		if st.at(i+1) != "(" {
			continue
		}
		j := st.closing(i+1) + 1
		var edits []edit
		end := t.End
		if st.at(j) == "within" && st.at(j+1) == "group" && st.at(j+2) == "(" {
			k := st.closing(j + 2)
			edits = append(edits, r.blank(st[j].Start, st[k].End))
			end, j = st[k].End, k+1
		}
		if st.at(j) == "over" && st.at(j+1) == "(" {
			k := st.closing(j + 1)
			edits = append(edits, r.blank(st[j].Start, st[k].End))
			end = st[k].End
		}
		r.add(c, t.Start, end, edits...)
	}
}

// windowOffset replaces the expression MariaDB takes as LEAD's and LAG's
// offset, NTH_VALUE's N and NTILE's N (the TiDB parser, as MySQL, takes a
// number) by the number 1, padded to its length.
func windowOffset(r *rewriter, st stmt) {
	for i, t := range st {
		arg := 1
		switch t.low {
		case "lead", "lag", "nth_value":
		case "ntile":
			arg = 0
		default:
			continue
		}
		if st.at(i+1) != "(" {
			continue
		}
		end := st.closing(i + 1)
		if st.at(end+1) != "over" {
			continue
		}
		from, to := st.argument(i+1, end, arg)
		if from < 0 || to-from == 1 && (st[from].Kind == sqllex.Number || st[from].low == "?") {
			continue
		}
		r.add(WindowOffset, st[from].Start, st[to-1].End, replace(st[from].Start, st[to-1].End, "1"))
	}
}

// argument returns the tokens [from, to) of the n-th argument (from 0)
// of the call whose brackets are st[open] and st[close]; -1 when it has
// fewer arguments or the argument is empty.
func (st stmt) argument(open, close, n int) (from, to int) {
	args := st.arguments(open, close)
	if n >= len(args) || args[n].from == args[n].to {
		return -1, -1
	}
	return args[n].from, args[n].to
}

// span is the tokens st[from:to].
type span struct{ from, to int }

// arguments returns the tokens of each argument of the call whose
// brackets are st[open] and st[close], an empty span for an empty one:
// one for a call without arguments.
func (st stmt) arguments(open, close int) []span {
	var args []span
	from := open + 1
	for j := range st.level(open+1, close) {
		if st[j].low == "," {
			args = append(args, span{from, j})
			from = j + 1
		}
	}
	return append(args, span{from, close})
}

// excludeNoOthers blanks a window frame's EXCLUDE NO OTHERS, MariaDB's
// spelling of the default. The other exclusions stay: MariaDB refuses
// them.
func excludeNoOthers(r *rewriter, st stmt) {
	for i, t := range st {
		if t.low == "exclude" && st.at(i+1) == "no" && st.at(i+2) == "others" {
			r.add(ExcludeNoOthers, t.Start, st[i+2].End, r.blank(t.Start, st[i+2].End))
		}
	}
}

// lastValueList reads MariaDB's LAST_VALUE(a, b, ...) outside a window
// (the value of its last argument) as COALESCE(a, b, ...), a call of as
// many arguments the parser reads.
func lastValueList(r *rewriter, st stmt) {
	for i, t := range st {
		if t.low != "last_value" || st.at(i+1) != "(" {
			continue
		}
		end := st.closing(i + 1)
		if st.at(end+1) == "over" {
			continue
		}
		if from, _ := st.argument(i+1, end, 1); from < 0 {
			continue
		}
		r.add(LastValueList, t.Start, st[end].End, padLeft(t.Start, t.End, "COALESCE"))
	}
}

// padLeft puts s in place of src[start:end], spaces before it to the
// length it replaces: a function's name keeps its bracket next to it.
func padLeft(start, end int, s string) edit {
	for len(s) < end-start {
		s = " " + s
	}
	return edit{start: start, end: end, repl: s}
}
