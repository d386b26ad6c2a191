package analyzer

import (
	"strings"

	"github.com/joinbench/joinbench/internal/flavor"
)

// The SQL parser drops optimizer hints it does not know (JOIN_ORDER, BNL,
// INDEX, ...) with only a warning, so hints are read here from the raw
// `/*+ ... */` text.

// hintComment is one `/*+ ... */` comment and the hints in it.
type HintComment struct {
	Tok   Token
	Block int // token index of the keyword it follows (SELECT, UPDATE, ...), -1 if misplaced (a plain comment to the server)
	Hints []*Hint
}

// hint is one hint: NAME(args).
type Hint struct {
	Name  string // upper case
	Start int    // offset of the name in the source
	QB    string // leading @query_block argument
	Args  []HintArg
}

type HintArg struct {
	Text  string // the name, quotes removed
	Start int
	QB    string // tbl@qb
	Tok   Token
}

func parseHints(u *unit) []*HintComment {
	var out []*HintComment
	for i, t := range u.toks {
		if t.Kind != TokHint {
			continue
		}
		hc := &HintComment{Tok: t, Block: -1}
		if !t.Misplaced && i > 0 {
			hc.Block = i - 1 // the keyword the hint follows
		}
		inner := tokenizeHint(u.src, t)
		for j := 0; j < len(inner); {
			nt := inner[j]
			if nt.Kind != TokIdent {
				j++
				continue
			}
			h := &Hint{Name: strings.ToUpper(nt.Name()), Start: nt.Start}
			j++
			if j < len(inner) && inner[j].Punct("(") {
				j++
				for j < len(inner) && !inner[j].Punct(")") {
					a := inner[j]
					switch {
					case a.Punct("@") && j+1 < len(inner) && len(h.Args) == 0 && h.QB == "":
						h.QB = inner[j+1].Name()
						j += 2
						continue
					case a.Kind == TokIdent || a.Kind == TokPlaceholder || a.Kind == TokNumber || a.Kind == TokString:
						arg := HintArg{Text: a.Name(), Start: a.Start, Tok: a}
						if a.Kind == TokString {
							arg.Text = strings.Trim(a.Text, `'"`)
						}
						if a.Kind == TokPlaceholder {
							if s, ok := u.tableParamSubst(a.Word); ok {
								arg.Text = s
							}
						}
						// tbl@qb, or db.tbl
						if j+2 < len(inner) && inner[j+1].Punct("@") {
							arg.QB = inner[j+2].Name()
							j += 2
						} else if j+2 < len(inner) && inner[j+1].Punct(".") && inner[j+1].Start == a.End {
							arg.Text = inner[j+2].Name()
							arg.Start = inner[j+2].Start
							j += 2
						}
						h.Args = append(h.Args, arg)
					}
					j++
				}
				j++
			}
			hc.Hints = append(hc.Hints, h)
		}
		out = append(out, hc)
	}
	return out
}

// Kinds of hint arguments.
const (
	HintNoTables   = iota // MAX_EXECUTION_TIME(n), SET_VAR(...), SEMIJOIN(strategies), QB_NAME(x)
	hintTables            // JOIN_ORDER(t1, t2), BNL(t1), MERGE(dt)
	HintTableIndex        // INDEX(t idx1, idx2)
)

// mysqlHints are the optimizer hints MySQL 8 knows, with their argument kind.
var MysqlHints = map[string]int{
	"JOIN_FIXED_ORDER": hintTables, "JOIN_ORDER": hintTables, "JOIN_PREFIX": hintTables, "JOIN_SUFFIX": hintTables,
	"BKA": hintTables, "NO_BKA": hintTables, "BNL": hintTables, "NO_BNL": hintTables,
	"HASH_JOIN": hintTables, "NO_HASH_JOIN": hintTables, "MERGE": hintTables, "NO_MERGE": hintTables,
	"DERIVED_CONDITION_PUSHDOWN": hintTables, "NO_DERIVED_CONDITION_PUSHDOWN": hintTables,
	"INDEX": HintTableIndex, "NO_INDEX": HintTableIndex, "JOIN_INDEX": HintTableIndex, "NO_JOIN_INDEX": HintTableIndex,
	"GROUP_INDEX": HintTableIndex, "NO_GROUP_INDEX": HintTableIndex, "ORDER_INDEX": HintTableIndex, "NO_ORDER_INDEX": HintTableIndex,
	"INDEX_MERGE": HintTableIndex, "NO_INDEX_MERGE": HintTableIndex, "MRR": HintTableIndex, "NO_MRR": HintTableIndex,
	"NO_ICP": HintTableIndex, "NO_RANGE_OPTIMIZATION": HintTableIndex, "SKIP_SCAN": HintTableIndex, "NO_SKIP_SCAN": HintTableIndex,
	"SEMIJOIN": HintNoTables, "NO_SEMIJOIN": HintNoTables, "SUBQUERY": HintNoTables,
	"MAX_EXECUTION_TIME": HintNoTables, "SET_VAR": HintNoTables, "RESOURCE_GROUP": HintNoTables, "QB_NAME": HintNoTables,
}

// tidbHints are TiDB's optimizer hints (the ones naming tables or indexes
// are checked; others are only recognized).
var TidbHints = map[string]int{
	"LEADING": hintTables, "STRAIGHT_JOIN": HintNoTables, "MERGE_JOIN": hintTables, "NO_MERGE_JOIN": hintTables,
	"INL_JOIN": hintTables, "NO_INDEX_JOIN": hintTables, "INL_HASH_JOIN": hintTables, "NO_INDEX_HASH_JOIN": hintTables,
	"INL_MERGE_JOIN": hintTables, "NO_INDEX_MERGE_JOIN": hintTables, "HASH_JOIN": hintTables, "NO_HASH_JOIN": hintTables,
	"HASH_JOIN_BUILD": hintTables, "HASH_JOIN_PROBE": hintTables, "SEMI_JOIN_REWRITE": HintNoTables, "NO_DECORRELATE": HintNoTables,
	"USE_INDEX": HintTableIndex, "IGNORE_INDEX": HintTableIndex, "FORCE_INDEX": HintTableIndex, "ORDER_INDEX": HintTableIndex,
	"NO_ORDER_INDEX": HintTableIndex, "USE_INDEX_MERGE": HintTableIndex, "INDEX_JOIN": hintTables, "MERGE": HintNoTables,
	"AGG_TO_COP": HintNoTables, "HASH_AGG": HintNoTables, "STREAM_AGG": HintNoTables, "READ_FROM_STORAGE": HintNoTables,
	"MAX_EXECUTION_TIME": HintNoTables, "SET_VAR": HintNoTables, "RESOURCE_GROUP": HintNoTables, "QB_NAME": HintNoTables,
	"MEMORY_QUOTA": HintNoTables, "USE_TOJA": HintNoTables, "NO_INDEX_MERGE": HintNoTables, "USE_CASCADES": HintNoTables,
	"IGNORE_PLAN_CACHE": HintNoTables, "LIMIT_TO_COP": HintNoTables, "SHUFFLE_JOIN": hintTables, "BROADCAST_JOIN": hintTables,
}

// hintKind returns how a hint's arguments are read and whether the flavour
// knows the hint at all. MariaDB knows none.
func HintKind(f flavor.Name, name string) (int, bool) {
	switch f {
	case flavor.TiDB:
		k, ok := TidbHints[name]
		return k, ok
	case flavor.MariaDB:
		if k, ok := MysqlHints[name]; ok {
			return k, false
		}
		k, ok := TidbHints[name]
		_ = ok
		return k, false
	default:
		k, ok := MysqlHints[name]
		return k, ok
	}
}
