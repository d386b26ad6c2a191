package sqlcompat

import "github.com/joinbench/joinbench/internal/sqllex"

// windowNames are the window functions' names MySQL 8 reserves and
// MariaDB does not: a name there unless a bracket follows. (ROW_NUMBER
// and OVER are reserved in MariaDB too.)
var windowNames = map[string]bool{"rank": true, "dense_rank": true, "lead": true, "lag": true,
	"ntile": true, "first_value": true, "last_value": true, "nth_value": true, "cume_dist": true,
	"percent_rank": true}

// reservedNames backquotes the words MySQL 8 reserves and MariaDB takes
// as names (a column, an alias, a table): the window functions' names
// when no bracket follows, WINDOW outside `WINDOW w AS (`, GROUPS outside
// a frame, ROW outside ROW(...) and CURRENT ROW.
func reservedNames(r *rewriter, st stmt) {
	for i, t := range st {
		if !st.word(i) || st.at(i-1) == "@" && st[i-1].End == t.Start {
			continue
		}
		var name bool
		switch {
		case windowNames[t.low]:
			name = st.at(i+1) != "("
		case t.low == "window":
			name = !(st.name(i+1) && st.at(i+2) == "as" && st.at(i+3) == "(")
		case t.low == "groups":
			switch st.at(i + 1) {
			case "between", "unbounded", "current", "?":
			default:
				name = i+1 >= len(st) || st[i+1].Kind != sqllex.Number
			}
		case t.low == "row":
			name = st.at(i+1) != "(" && st.at(i-1) != "current" && st.at(i-1) != "each"
		}
		if name {
			r.add(ReservedName, t.Start, t.End, insert(t.Start, "`"), insert(t.End, "`"))
		}
	}
}
