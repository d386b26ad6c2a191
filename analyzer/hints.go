package analyzer

import (
	"strings"

	"github.com/joinbench/joinbench/internal/flavor"
)

// The SQL parser drops optimizer hints it does not know (JOIN_ORDER, BNL,
// INDEX, ...) with only a warning, so hints are read here from the raw
// `/*+ ... */` text.

// hintComment is one `/*+ ... */` comment and the hints in it.
type hintComment struct {
	tok   token
	block int // token index of the keyword it follows (SELECT, UPDATE, ...), -1 if misplaced (a plain comment to the server)
	hints []*hint
}

// hint is one hint: NAME(args).
type hint struct {
	Name  string // upper case
	Start int    // offset of the name in the source
	QB    string // leading @query_block argument
	Args  []hintArg
}

type hintArg struct {
	Text  string // the name, quotes removed
	Start int
	QB    string // tbl@qb
	Tok   token
}

func parseHints(u *unit) []*hintComment {
	var out []*hintComment
	for i, t := range u.toks {
		if t.Kind != tokHint {
			continue
		}
		hc := &hintComment{tok: t, block: -1}
		if !t.Misplaced && i > 0 {
			hc.block = i - 1 // the keyword the hint follows
		}
		inner := tokenizeHint(u.src, t)
		for j := 0; j < len(inner); {
			nt := inner[j]
			if nt.Kind != tokIdent {
				j++
				continue
			}
			h := &hint{Name: strings.ToUpper(nt.name()), Start: nt.Start}
			j++
			if j < len(inner) && inner[j].punct("(") {
				j++
				for j < len(inner) && !inner[j].punct(")") {
					a := inner[j]
					switch {
					case a.punct("@") && j+1 < len(inner) && len(h.Args) == 0 && h.QB == "":
						h.QB = inner[j+1].name()
						j += 2
						continue
					case a.Kind == tokIdent || a.Kind == tokPlaceholder || a.Kind == tokNumber || a.Kind == tokString:
						arg := hintArg{Text: a.name(), Start: a.Start, Tok: a}
						if a.Kind == tokString {
							arg.Text = strings.Trim(a.Text, `'"`)
						}
						if a.Kind == tokPlaceholder {
							if s, ok := u.tableParamSubst(a.Word); ok {
								arg.Text = s
							}
						}
						// tbl@qb, or db.tbl
						if j+2 < len(inner) && inner[j+1].punct("@") {
							arg.QB = inner[j+2].name()
							j += 2
						} else if j+2 < len(inner) && inner[j+1].punct(".") && inner[j+1].Start == a.End {
							arg.Text = inner[j+2].name()
							arg.Start = inner[j+2].Start
							j += 2
						}
						h.Args = append(h.Args, arg)
					}
					j++
				}
				j++
			}
			hc.hints = append(hc.hints, h)
		}
		out = append(out, hc)
	}
	return out
}

// Kinds of hint arguments.
const (
	hintNoTables   = iota // MAX_EXECUTION_TIME(n), SET_VAR(...), SEMIJOIN(strategies), QB_NAME(x)
	hintTables            // JOIN_ORDER(t1, t2), BNL(t1), MERGE(dt)
	hintTableIndex        // INDEX(t idx1, idx2)
)

// mysqlHints are the optimizer hints MySQL 8 knows, with their argument kind.
var mysqlHints = map[string]int{
	"JOIN_FIXED_ORDER": hintTables, "JOIN_ORDER": hintTables, "JOIN_PREFIX": hintTables, "JOIN_SUFFIX": hintTables,
	"BKA": hintTables, "NO_BKA": hintTables, "BNL": hintTables, "NO_BNL": hintTables,
	"HASH_JOIN": hintTables, "NO_HASH_JOIN": hintTables, "MERGE": hintTables, "NO_MERGE": hintTables,
	"DERIVED_CONDITION_PUSHDOWN": hintTables, "NO_DERIVED_CONDITION_PUSHDOWN": hintTables,
	"INDEX": hintTableIndex, "NO_INDEX": hintTableIndex, "JOIN_INDEX": hintTableIndex, "NO_JOIN_INDEX": hintTableIndex,
	"GROUP_INDEX": hintTableIndex, "NO_GROUP_INDEX": hintTableIndex, "ORDER_INDEX": hintTableIndex, "NO_ORDER_INDEX": hintTableIndex,
	"INDEX_MERGE": hintTableIndex, "NO_INDEX_MERGE": hintTableIndex, "MRR": hintTableIndex, "NO_MRR": hintTableIndex,
	"NO_ICP": hintTableIndex, "NO_RANGE_OPTIMIZATION": hintTableIndex, "SKIP_SCAN": hintTableIndex, "NO_SKIP_SCAN": hintTableIndex,
	"SEMIJOIN": hintNoTables, "NO_SEMIJOIN": hintNoTables, "SUBQUERY": hintNoTables,
	"MAX_EXECUTION_TIME": hintNoTables, "SET_VAR": hintNoTables, "RESOURCE_GROUP": hintNoTables, "QB_NAME": hintNoTables,
}

// tidbHints are TiDB's optimizer hints (the ones naming tables or indexes
// are checked; others are only recognized).
var tidbHints = map[string]int{
	"LEADING": hintTables, "STRAIGHT_JOIN": hintNoTables, "MERGE_JOIN": hintTables, "NO_MERGE_JOIN": hintTables,
	"INL_JOIN": hintTables, "NO_INDEX_JOIN": hintTables, "INL_HASH_JOIN": hintTables, "NO_INDEX_HASH_JOIN": hintTables,
	"INL_MERGE_JOIN": hintTables, "NO_INDEX_MERGE_JOIN": hintTables, "HASH_JOIN": hintTables, "NO_HASH_JOIN": hintTables,
	"HASH_JOIN_BUILD": hintTables, "HASH_JOIN_PROBE": hintTables, "SEMI_JOIN_REWRITE": hintNoTables, "NO_DECORRELATE": hintNoTables,
	"USE_INDEX": hintTableIndex, "IGNORE_INDEX": hintTableIndex, "FORCE_INDEX": hintTableIndex, "ORDER_INDEX": hintTableIndex,
	"NO_ORDER_INDEX": hintTableIndex, "USE_INDEX_MERGE": hintTableIndex, "INDEX_JOIN": hintTables, "MERGE": hintNoTables,
	"AGG_TO_COP": hintNoTables, "HASH_AGG": hintNoTables, "STREAM_AGG": hintNoTables, "READ_FROM_STORAGE": hintNoTables,
	"MAX_EXECUTION_TIME": hintNoTables, "SET_VAR": hintNoTables, "RESOURCE_GROUP": hintNoTables, "QB_NAME": hintNoTables,
	"MEMORY_QUOTA": hintNoTables, "USE_TOJA": hintNoTables, "NO_INDEX_MERGE": hintNoTables, "USE_CASCADES": hintNoTables,
	"IGNORE_PLAN_CACHE": hintNoTables, "LIMIT_TO_COP": hintNoTables, "SHUFFLE_JOIN": hintTables, "BROADCAST_JOIN": hintTables,
}

// hintKind returns how a hint's arguments are read and whether the flavour
// knows the hint at all. MariaDB knows none.
func hintKind(f flavor.Name, name string) (int, bool) {
	switch f {
	case flavor.TiDB:
		k, ok := tidbHints[name]
		return k, ok
	case flavor.MariaDB:
		if k, ok := mysqlHints[name]; ok {
			return k, false
		}
		k, ok := tidbHints[name]
		_ = ok
		return k, false
	default:
		k, ok := mysqlHints[name]
		return k, ok
	}
}
