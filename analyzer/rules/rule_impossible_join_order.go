package rules

import (
	"strings"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// ImpossibleJoinOrder reports a forced join order that reads the
// NULL-supplying side of an outer join before its preserved side. No
// server can follow it: the rows the outer join must add with NULLs are
// only known once the preserved side is read. MySQL drops such a
// JOIN_ORDER/JOIN_PREFIX hint without a word; MariaDB, under SELECT
// STRAIGHT_JOIN over a RIGHT JOIN, still reads the preserved table first.
var ImpossibleJoinOrder = &analyzer.Analyzer{
	Name: "impossible-join-order",
	Doc: "A JOIN_ORDER/JOIN_PREFIX/LEADING hint or a STRAIGHT_JOIN order that puts the optional (NULL-supplying) side of an outer join " +
		"before its preserved side cannot be followed; the server ignores it silently.",
	Explanation: analyzer.Explanation{
		Text: "An outer join reads its preserved side first: the rows it adds with NULLs are those of the preserved side that found no match. " +
			"A hint that asks for the optional side first is ignored without a warning by MySQL (the whole hint, so the rest of the order is lost too), " +
			"and MariaDB reads the preserved table first under SELECT STRAIGHT_JOIN over a RIGHT JOIN, whatever the FROM clause says. " +
			"The scenario then measures a plan it did not ask for. Put the preserved side first, or use an inner join if the optional rows are not wanted. " +
			"The hint is judged by what it means: a table it names by its table name where the table has an alias (which hint-unresolved reports) counts as that alias. " +
			"The suggested fix moves each preserved side just before its optional side, the other tables keeping their places, and is offered only when the order it gives can be followed.",
		Wrong: "SELECT /*+ JOIN_ORDER(level1, m) */ m.id FROM {{m}} AS m LEFT JOIN level1 ON m.l1_id = level1.id;",
		Right: "SELECT /*+ JOIN_ORDER(m, level1) */ m.id FROM {{m}} AS m LEFT JOIN level1 ON m.l1_id = level1.id;",
	},
	Severity: analyzer.Warning,
	Run:      runImpossibleJoinOrder,
}

// orderHints are the hints that fix a join order by listing tables, first
// to be read first.
var orderHints = map[string]bool{"JOIN_ORDER": true, "JOIN_PREFIX": true, "LEADING": true}

func runImpossibleJoinOrder(p *analyzer.Pass) {
	for _, hc := range p.Hints {
		for _, h := range hc.Hints {
			if !orderHints[h.Name] || h.QB != "" {
				continue
			}
			// Judged by intent: a table named by its name where it has an
			// alias counts as its alias (hint-unresolved reports the name).
			args, rewritable := ReadOrder(p, hc.Block, h)
			oj, opt, pres := impossibleOrder(p.Names, hc.Block, OrderNames(args), h.Name != "JOIN_ORDER")
			if oj == nil {
				continue
			}
			const msg = "%s lists %s, the optional side of the %s, before its preserved side %s: no server can read them in that order and the hint is ignored silently"
			if text, start, end, ok := PossibleOrder(p, hc.Block, h, args); rewritable && ok {
				d := p.ReportRangef(h.Start, hintEnd(p.Source, h), msg+"; write %s(%s)", h.Name, opt, joinKind(oj), pres, h.Name, text)
				d.Fixes = []analyzer.SuggestedFix{OrderFix(text, start, end)}
				continue
			}
			p.ReportRangef(h.Start, hintEnd(p.Source, h), msg+"; list %s first", h.Name, opt, joinKind(oj), pres, pres)
		}
	}
	// SELECT STRAIGHT_JOIN reads the tables in FROM order; a RIGHT JOIN
	// lists its optional side first.
	for i, t := range p.Tokens {
		if !t.Is("STRAIGHT_JOIN") || i == 0 {
			continue
		}
		block := i - 1
		if p.Tokens[block].Kind == analyzer.TokHint && block > 0 {
			block--
		}
		if !p.Tokens[block].Is("SELECT") {
			continue
		}
		for _, oj := range p.Names.Outer {
			if oj.Join.Tp != ast.RightJoin || len(oj.Optional) == 0 || len(oj.Preserved) == 0 || blockTok(oj) != block {
				continue
			}
			p.Reportf(t.Start, "STRAIGHT_JOIN asks for FROM order, but the RIGHT JOIN lists its optional side %s before its preserved side %s: the server reads %s first anyway; write the LEFT JOIN with %s first (lint --fix rewrites RIGHT JOINs)",
				oj.Optional[0].Name, oj.Preserved[0].Name, oj.Preserved[0].Name, oj.Preserved[0].Name)
			break
		}
	}
}

// hintEnd is the end of a hint's argument list.
func hintEnd(src string, h *analyzer.Hint) int {
	end := h.Start + len(h.Name)
	if i := strings.IndexByte(src[end:], ')'); i >= 0 && !strings.Contains(src[end:end+i], "*/") {
		end += i + 1
	}
	return end
}

func joinKind(oj *analyzer.OuterJoin) string {
	if oj.Join.Tp == ast.RightJoin {
		return "RIGHT JOIN"
	}
	return "LEFT JOIN"
}

// impossibleOrder returns the first outer join whose optional side the
// order names before its preserved side, with the two names as the
// order writes them. The outer joins are those of the query block opened
// by the token at index block. A prefix order (JOIN_PREFIX, LEADING) puts
// every table it does not name after the ones it names.
func impossibleOrder(r *analyzer.Resolution, block int, order []string, prefix bool) (oj *analyzer.OuterJoin, optional, preserved string) {
	if r == nil {
		return nil, "", ""
	}
	pos := func(srcs []*analyzer.Source, first bool) (int, string) {
		best, name := -1, ""
		for i, n := range order {
			for _, s := range srcs {
				if s.Name != "" && strings.EqualFold(s.Name, n) && (best < 0 || first == (i < best)) {
					best, name = i, n
				}
			}
		}
		return best, name
	}
	for _, o := range r.Outer {
		if blockTok(o) != block {
			continue
		}
		oi, on := pos(o.Optional, true)
		pi, pn := pos(o.Preserved, true)
		if oi < 0 || len(o.Preserved) == 0 {
			continue
		}
		if pi < 0 {
			if !prefix || o.Preserved[0].Name == "" {
				continue // JOIN_ORDER leaves the tables it does not name free
			}
			pi, pn = len(order), o.Preserved[0].Name
		}
		if oi < pi {
			return o, on, pn
		}
	}
	return nil, "", ""
}

// blockTok is the token index of the keyword opening the query block of
// the outer join, or -1 when its tables were not found in the tokens.
func blockTok(o *analyzer.OuterJoin) int {
	for _, side := range [][]*analyzer.Source{o.Preserved, o.Optional} {
		for _, s := range side {
			if s.Ref != nil {
				return s.Ref.Block
			}
		}
	}
	return -1
}
