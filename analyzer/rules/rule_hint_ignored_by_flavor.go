package rules

import (
	"strings"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/internal/flavor"
)

// HintIgnoredByFlavor reports optimizer hints the target flavour silently
// ignores, naming what does the same job there.
var HintIgnoredByFlavor = &analyzer.Analyzer{
	Name: "hint-ignored-by-flavor",
	Doc: "MariaDB ignores every /*+ */ optimizer hint without a warning, and MySQL and TiDB each ignore the other's; " +
		"the scenario then measures a plan it did not ask for. The message names the flavour's equivalent.",
	Explanation: analyzer.Explanation{
		Text:  "MariaDB reads /*+ */ hints as plain comments; MySQL and TiDB each ignore the other's hints. The scenario then measures a plan it did not ask for. The message names the flavour's equivalent; for a join order it never proposes one that puts the optional side of an outer join before its preserved side.",
		Wrong: "-- lint.conf: flavor = mariadb\nSELECT /*+ JOIN_ORDER(level1, m) */ m.id FROM {{m}} AS m JOIN level1 ON m.l1_id = level1.id;",
		Right: "-- lint.conf: flavor = mariadb\nSELECT STRAIGHT_JOIN m.id FROM level1 JOIN {{m}} AS m ON m.l1_id = level1.id;",
	},
	Severity: analyzer.Warning,
	// reads the hint comments' tokens only
	RunDespiteErrors: true,
	Run: func(p *analyzer.Pass) {
		fl := p.Flavor.Name
		for _, hc := range p.Hints {
			for _, h := range hc.Hints {
				_, known := analyzer.HintKind(fl, h.Name)
				if known {
					continue
				}
				_, my := analyzer.MysqlHints[h.Name]
				_, ti := analyzer.TidbHints[h.Name]
				if !my && !ti {
					continue // unknown everywhere: hint-unresolved
				}
				order := orderHints[h.Name] || h.Name == "JOIN_SUFFIX"
				if order {
					h = meant(p, hc.Block, h)
				}
				eq := hintEquivalent(fl, h)
				if order {
					// Never propose an order no server can follow: an
					// outer join's optional side read before its
					// preserved side (impossible-join-order says so).
					var names []string
					for _, a := range h.Args {
						names = append(names, a.Text)
					}
					if oj, _, pres := impossibleOrder(p.Names, hc.Block, names, h.Name != "JOIN_ORDER"); oj != nil || h.Name == "JOIN_SUFFIX" && len(names) > 0 {
						if oj != nil {
							eq = "\x00no equivalent: the order reads the optional side of the " + joinKind(oj) + " before " + pres + ", which no server can do; keep " + pres + " first"
						} else if fl == flavor.MariaDB {
							eq = "SELECT STRAIGHT_JOIN with the FROM clause ending with " + hintArgs(h) + ", outer joins' preserved sides first"
						}
					}
				}
				if strings.HasPrefix(eq, "\x00") {
					eq = "; " + eq[1:]
				} else if eq != "" {
					eq = "; use " + eq
				}
				p.Reportf(h.Start, "%s ignores optimizer hint %s silently%s", fl.Title(), h.Name, eq)
			}
		}
	},
}

// meant is a join-order hint with each table named as the query block
// sees the table it means (its alias where the hint wrote the aliased
// table's name), so that the equivalent proposed names it right and an
// order no server can follow is told apart.
func meant(p *analyzer.Pass, block int, h *analyzer.Hint) *analyzer.Hint {
	args, _ := ReadOrder(p, block, h)
	m := *h
	m.Args = append([]analyzer.HintArg(nil), h.Args...)
	for i := range m.Args {
		m.Args[i].Text = args[i].Name
	}
	return &m
}

func hintArgs(h *analyzer.Hint) string {
	var a []string
	for _, x := range h.Args {
		a = append(a, x.Text)
	}
	return strings.Join(a, ", ")
}

// hintEquivalent names what does a hint's job in flavour f.
func hintEquivalent(f flavor.Name, h *analyzer.Hint) string {
	args := hintArgs(h)
	idx := func() (string, string) {
		if len(h.Args) == 0 {
			return "t", "idx"
		}
		var ix []string
		for _, a := range h.Args[1:] {
			ix = append(ix, a.Text)
		}
		return h.Args[0].Text, strings.Join(ix, ", ")
	}
	switch f {
	case flavor.MariaDB:
		switch h.Name {
		case "JOIN_ORDER", "JOIN_PREFIX", "JOIN_SUFFIX", "JOIN_FIXED_ORDER":
			if args != "" {
				return "SELECT STRAIGHT_JOIN with the FROM clause listing " + args + " in that order"
			}
			return "SELECT STRAIGHT_JOIN"
		case "BNL", "NO_BNL", "BKA", "NO_BKA", "HASH_JOIN", "NO_HASH_JOIN":
			return "SET STATEMENT join_cache_level=N FOR ... (or optimizer_switch='join_cache_incremental=...,join_cache_hashed=...,join_cache_bka=...')"
		case "INDEX", "JOIN_INDEX", "GROUP_INDEX", "ORDER_INDEX":
			t, ix := idx()
			return "FORCE INDEX (" + ix + ") after table " + t
		case "NO_INDEX", "NO_JOIN_INDEX", "NO_GROUP_INDEX", "NO_ORDER_INDEX":
			t, ix := idx()
			return "IGNORE INDEX (" + ix + ") after table " + t
		case "INDEX_MERGE", "NO_INDEX_MERGE":
			return "SET STATEMENT optimizer_switch='index_merge=on|off' FOR ..."
		case "MRR", "NO_MRR":
			return "SET STATEMENT optimizer_switch='mrr=on|off' FOR ..."
		case "NO_ICP":
			return "SET STATEMENT optimizer_switch='index_condition_pushdown=off' FOR ..."
		case "SEMIJOIN", "NO_SEMIJOIN":
			return "SET STATEMENT optimizer_switch='semijoin=...,firstmatch=...,loosescan=...,materialization=...' FOR ..."
		case "SUBQUERY":
			return "SET STATEMENT optimizer_switch='materialization=...,in_to_exists=...' FOR ..."
		case "MERGE", "NO_MERGE":
			return "SET STATEMENT optimizer_switch='derived_merge=on|off' FOR ..."
		case "DERIVED_CONDITION_PUSHDOWN", "NO_DERIVED_CONDITION_PUSHDOWN":
			return "SET STATEMENT optimizer_switch='condition_pushdown_for_derived=on|off' FOR ..."
		case "MAX_EXECUTION_TIME":
			return "SET STATEMENT max_statement_time=<seconds> FOR ..."
		case "SET_VAR":
			return "SET STATEMENT " + args + " FOR ..."
		case "LEADING":
			return "SELECT STRAIGHT_JOIN with the FROM clause in the wanted order"
		}
	case flavor.TiDB:
		switch h.Name {
		case "JOIN_ORDER", "JOIN_PREFIX":
			return "LEADING(" + args + ")"
		case "JOIN_FIXED_ORDER":
			return "STRAIGHT_JOIN()"
		case "INDEX", "JOIN_INDEX", "GROUP_INDEX":
			t, ix := idx()
			return "USE_INDEX(" + t + ", " + ix + ")"
		case "NO_INDEX", "NO_JOIN_INDEX", "NO_GROUP_INDEX":
			t, ix := idx()
			return "IGNORE_INDEX(" + t + ", " + ix + ")"
		case "BNL", "BKA":
			return "HASH_JOIN(" + args + ") or INL_JOIN(" + args + ")"
		case "INDEX_MERGE":
			return "USE_INDEX_MERGE(" + args + ")"
		case "SEMIJOIN":
			return "SEMI_JOIN_REWRITE()"
		}
	default:
		switch h.Name {
		case "LEADING":
			return "JOIN_PREFIX(" + args + ")"
		case "STRAIGHT_JOIN":
			return "SELECT STRAIGHT_JOIN or JOIN_FIXED_ORDER()"
		case "USE_INDEX", "FORCE_INDEX":
			t, ix := idx()
			return "INDEX(" + t + " " + ix + ")"
		case "IGNORE_INDEX":
			t, ix := idx()
			return "NO_INDEX(" + t + " " + ix + ")"
		case "INL_JOIN", "INL_HASH_JOIN", "INL_MERGE_JOIN", "INDEX_JOIN":
			return "BKA(" + args + ")"
		case "MERGE_JOIN":
			return "nothing: MySQL has no merge join"
		}
	}
	return ""
}
