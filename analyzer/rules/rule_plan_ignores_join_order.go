package rules

import "github.com/joinbench/joinbench/analyzer"

// PlanIgnoresJoinOrder reports a join-order hint (SELECT STRAIGHT_JOIN,
// the STRAIGHT_JOIN operator, JOIN_ORDER, JOIN_PREFIX, JOIN_SUFFIX,
// JOIN_FIXED_ORDER, LEADING) whose order the server's plan does not
// follow. It needs a live server: lint --check-plans.
var PlanIgnoresJoinOrder = &analyzer.Analyzer{
	Name: "plan-ignores-join-order",
	Doc:  "With --check-plans: the plan must read the tables in the order a STRAIGHT_JOIN or join-order hint asks for.",
	Explanation: analyzer.Explanation{
		Text: "A scenario that fixes the join order means to measure that order. Servers drop an order hint they do not know or " +
			"cannot follow without an error: MySQL before 8.0 has no JOIN_ORDER, a hint that conflicts with another is dropped, " +
			"and the optimizer may still move tables it merges from subqueries. This rule compares the hint with EXPLAIN on a " +
			"live server (lint --dsn ... --check-plans) and reports the order the plan reads the tables in. Tables the plan reads " +
			"as constants (one row, found before any join) are left out of the comparison, and a RIGHT JOIN counts with its " +
			"preserved side first, as servers read it. Hints the server's flavour does not know at all are reported by " +
			"hint-ignored-by-flavor, hints naming tables the query block does not have by hint-unresolved, and orders no server " +
			"can follow (an outer join's optional side first) by impossible-join-order; this rule leaves them to those.",
		Wrong: "-- on MySQL 5.7, which has no JOIN_ORDER hint, the optimizer reads m first\n" +
			"SELECT /*+ JOIN_ORDER(level1, m) */ m.id FROM {{m}} AS m JOIN level1 ON m.id = level1.parent_id;",
		Right: "SELECT STRAIGHT_JOIN m.id FROM level1 JOIN {{m}} AS m ON m.id = level1.parent_id;",
	},
	Severity:  analyzer.Warning,
	NeedsPlan: true,
	Run:       runPlanIgnoresJoinOrder,
}

// orderWant is a join order the file asks for: the tables in order, and
// whether they must come before (prefix) or after (suffix) every other
// table of the query block.
type orderWant struct {
	tables         []*analyzer.TableRef
	prefix, suffix bool
}

func runPlanIgnoresJoinOrder(p *analyzer.Pass) {
	v := NewPlanView(p)
	for _, hc := range p.Hints {
		if hc.Block < 0 {
			continue
		}
		for _, h := range hc.Hints {
			if _, known := analyzer.HintKind(p.Flavor.Name, h.Name); !known || h.QB != "" {
				continue // hint-ignored-by-flavor reports it; query block names are not followed here
			}
			want, ok := v.hintOrder(hc.Block, h)
			if !ok {
				continue
			}
			if h.Name != "JOIN_FIXED_ORDER" {
				names := make([]string, len(want.tables))
				for i, r := range want.tables {
					names[i] = r.Visible()
				}
				if oj, _, _ := impossibleOrder(p.Names, hc.Block, names, want.prefix); oj != nil {
					continue // impossible-join-order reports it
				}
			}
			if got, bad := v.violates(hc.Block, want); bad {
				p.ReportRangef(h.Start, hintEnd(p.Source, h), "%s asks for %s, but the plan reads the tables in the order %s",
					h.Name, v.describeWant(h.Name, want), RefNames(got))
			}
		}
	}
	for i, t := range p.Tokens {
		if !t.Is("STRAIGHT_JOIN") {
			continue
		}
		if sel := selectModifierOf(p.Tokens, i); sel >= 0 {
			js := joinSpanOf(p.Joins, sel)
			if js == nil {
				continue
			}
			want := orderWant{tables: fromOrder(js.Root)}
			if got, bad := v.violates(sel, want); bad {
				p.Reportf(t.Start, "SELECT STRAIGHT_JOIN asks for the FROM order %s, but the plan reads the tables in the order %s",
					RefNames(want.tables), RefNames(got))
			}
			continue
		}
		for _, js := range p.Joins {
			if n := findJoinAt(js.Root, t.Start); n != nil {
				left, right := fromOrder(n.Left), fromOrder(n.Right)
				if got, bad := v.violatesSplit(js.Block, left, right); bad {
					p.Reportf(t.Start, "STRAIGHT_JOIN asks for %s before %s, but the plan reads the tables in the order %s",
						RefNames(left), RefNames(right), RefNames(got))
				}
			}
		}
	}
}

// hintOrder reads the order a hint asks for; ok is false for hints that
// fix no order, and for hints naming a table the block does not have
// (hint-unresolved reports those).
func (v *PlanView) hintOrder(block int, h *analyzer.Hint) (orderWant, bool) {
	var w orderWant
	switch h.Name {
	case "JOIN_ORDER":
	case "JOIN_PREFIX", "LEADING":
		w.prefix = true
	case "JOIN_SUFFIX":
		w.suffix = true
	case "JOIN_FIXED_ORDER":
		js := joinSpanOf(v.P.Joins, block)
		if js == nil {
			return w, false
		}
		w.tables = fromOrder(js.Root)
		return w, len(w.tables) > 1
	default:
		return w, false
	}
	for _, a := range h.Args {
		if a.QB != "" {
			return w, false
		}
		r := v.RefNamed(block, a.Text)
		if r == nil {
			return w, false
		}
		w.tables = append(w.tables, r)
	}
	return w, len(w.tables) > 1 || (w.prefix || w.suffix) && len(w.tables) > 0
}

// violates compares the plan's order of the block's tables with want and
// returns the plan's order when it differs.
func (v *PlanView) violates(block int, want orderWant) ([]*analyzer.TableRef, bool) {
	got := v.PlanOrder(v.BlockRefs(block))
	pos := map[*analyzer.TableRef]int{}
	for i, r := range got {
		pos[r] = i
	}
	var listed []int
	inWant := map[*analyzer.TableRef]bool{}
	for _, r := range want.tables {
		inWant[r] = true
		if i, ok := pos[r]; ok {
			listed = append(listed, i)
		}
	}
	for i := 1; i < len(listed); i++ {
		if listed[i] < listed[i-1] {
			return got, true
		}
	}
	if len(listed) == 0 {
		return got, false
	}
	for i, r := range got {
		if inWant[r] {
			continue
		}
		if want.prefix && i < listed[len(listed)-1] || want.suffix && i > listed[0] {
			return got, true
		}
	}
	return got, false
}

// violatesSplit reports whether the plan reads a table of right before
// one of left.
func (v *PlanView) violatesSplit(block int, left, right []*analyzer.TableRef) ([]*analyzer.TableRef, bool) {
	got := v.PlanOrder(v.BlockRefs(block))
	inLeft, inRight := map[*analyzer.TableRef]bool{}, map[*analyzer.TableRef]bool{}
	for _, r := range left {
		inLeft[r] = true
	}
	for _, r := range right {
		inRight[r] = true
	}
	seenRight := false
	for _, r := range got {
		if inRight[r] {
			seenRight = true
		}
		if inLeft[r] && seenRight {
			return got, true
		}
	}
	return got, false
}

func (v *PlanView) describeWant(name string, w orderWant) string {
	s := RefNames(w.tables)
	switch {
	case name == "JOIN_FIXED_ORDER":
		return "the FROM order " + s
	case w.prefix:
		return s + " first, in that order"
	case w.suffix:
		return s + " last, in that order"
	}
	return s + " in that order"
}

// selectModifierOf returns the token index of the SELECT a STRAIGHT_JOIN
// token modifies (SELECT [hint] [modifiers] STRAIGHT_JOIN), or -1 when it
// is a join operator.
func selectModifierOf(toks []analyzer.Token, i int) int {
	for j := i - 1; j >= 0; j-- {
		t := toks[j]
		switch {
		case t.Is("SELECT"):
			return j
		case t.Kind == analyzer.TokHint, t.Is("DISTINCT"), t.Is("ALL"), t.Is("DISTINCTROW"), t.Is("HIGH_PRIORITY"),
			t.Is("SQL_SMALL_RESULT"), t.Is("SQL_BIG_RESULT"), t.Is("SQL_BUFFER_RESULT"), t.Is("SQL_NO_CACHE"),
			t.Is("SQL_CACHE"), t.Is("SQL_CALC_FOUND_ROWS"):
		default:
			return -1
		}
	}
	return -1
}

// joinSpanOf returns the FROM clause of the query block opened by the
// token at index block.
func joinSpanOf(joins []*analyzer.JoinSpan, block int) *analyzer.JoinSpan {
	for _, js := range joins {
		if js.Block == block {
			return js
		}
	}
	return nil
}

// findJoinAt returns the join node whose keyword starts at off.
func findJoinAt(n *analyzer.JoinNode, off int) *analyzer.JoinNode {
	if n == nil {
		return nil
	}
	if n.Paren {
		return findJoinAt(n.Inner, off)
	}
	if n.Ref == nil && n.KwStart == off {
		return n
	}
	if f := findJoinAt(n.Left, off); f != nil {
		return f
	}
	return findJoinAt(n.Right, off)
}

// fromOrder lists the named tables of a join tree in the order a server
// that keeps the FROM order reads them: left to right, except that a
// RIGHT JOIN, which servers turn into a LEFT JOIN, reads its right
// (preserved) side first.
func fromOrder(n *analyzer.JoinNode) []*analyzer.TableRef {
	if n == nil {
		return nil
	}
	switch {
	case n.Paren:
		return fromOrder(n.Inner)
	case n.Ref != nil:
		if n.Ref.Derived {
			return nil
		}
		return []*analyzer.TableRef{n.Ref}
	case n.Kind == "RIGHT" || n.IsNaturalRight:
		return append(fromOrder(n.Right), fromOrder(n.Left)...)
	}
	return append(fromOrder(n.Left), fromOrder(n.Right)...)
}
