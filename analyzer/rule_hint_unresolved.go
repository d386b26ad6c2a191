package analyzer

import (
	"sort"
	"strings"

	"github.com/joinbench/joinbench/internal/flavor"
)

// HintUnresolved checks the names inside optimizer hints. A hint that names
// a table the wrong way is silently ignored by the server, so a forced join
// order quietly stops being forced.
var HintUnresolved = register(&Analyzer{
	Name: "hint-unresolved",
	Doc: "An optimizer hint must be a known hint, name tables by the name visible in its query block (the alias when there is one) " +
		"and name indexes that exist; otherwise the server ignores it with only a warning.",
	Explanation: Explanation{
		Text: "An optimizer hint must be known to the target flavour and name tables (aliases when the table has one) and query blocks of the statement; the server ignores a hint it cannot resolve, with at most a warning. " +
			"A table named by its name where it has an alias gets a fix writing the alias; in a join-order hint whose order would then put an outer join's optional side first (impossible-join-order), the fix lists the preserved side first too, so that it never leads into another ignored hint.",
		Wrong: "SELECT /*+ JOIN_ORDER(main1, level1) */ m.id FROM {{m}} AS m JOIN level1 ON m.l1_id = level1.id;",
		Right: "SELECT /*+ JOIN_ORDER(m, level1) */ m.id FROM {{m}} AS m JOIN level1 ON m.l1_id = level1.id;",
	},
	Severity: Error,
	Run:      runHintUnresolved,
})

func runHintUnresolved(p *Pass) {
	fl := p.Flavor.Name
	for _, hc := range p.Hints {
		if hc.block < 0 {
			p.Reportf(hc.tok.Start, "optimizer hint comment is not right after SELECT, UPDATE, DELETE or INSERT: the server reads it as a plain comment")
			continue
		}
		var refs []*tableRef
		for _, r := range p.TableRefs {
			if r.block == hc.block {
				refs = append(refs, r)
			}
		}
		for _, h := range hc.hints {
			kind, known := hintKind(fl, h.Name)
			if fl == flavor.MariaDB {
				known = true // reported by hint-ignored-by-flavor; names are still checked
				if _, ok := mysqlHints[h.Name]; !ok {
					kind, known = tidbHints[h.Name]
				}
			}
			if !known {
				if _, other := mysqlHints[h.Name]; !other {
					if _, other = tidbHints[h.Name]; !other {
						p.Reportf(h.Start, "unknown optimizer hint %s%s", h.Name, didYouMean(h.Name, allHintNames()))
					}
				}
				continue // known to another flavour: hint-ignored-by-flavor says so
			}
			if h.QB != "" || kind == hintNoTables {
				continue
			}
			args := h.Args
			if kind == hintTableIndex && len(args) > 0 {
				args = args[:1]
			}
			var order []orderArg
			rewritable := false
			if orderHints[h.Name] {
				order, rewritable = readOrder(p, hc.block, h)
			}
			var target *tableRef
			for _, a := range args {
				if a.QB != "" {
					continue
				}
				r := findVisible(refs, a.Text)
				if r == nil {
					reportUnresolved(p, hc.block, h, a, refs, order, rewritable)
					continue
				}
				target = r
			}
			if kind == hintTableIndex && target != nil && !target.derived && len(h.Args) > 1 {
				t := p.Schema.Table(target.name)
				if t == nil {
					continue
				}
				for _, a := range h.Args[1:] {
					if t.Index(a.Text) == nil {
						p.Reportf(a.Start, "hint %s names index %s, which table %s does not have%s", h.Name, a.Text, t.Name, didYouMean(a.Text, indexNames(t.Indexes)))
					}
				}
			}
		}
	}
}

// reportUnresolved reports a hint argument that names no table of its
// query block. One that names a table by its name where the table has an
// alias gets a fix writing the alias; in a join-order hint, when the
// order with the alias would still be impossible, the fix (and the
// message) give the whole order as the server can follow it, so that the
// fix does not lead into impossible-join-order.
func reportUnresolved(p *Pass, block int, h *hint, a hintArg, refs []*tableRef, order []orderArg, rewritable bool) {
	end := p.TokenEnd(a.Start)
	if a.Start == a.Tok.Start {
		end = a.Tok.End
	}
	msg := unresolvedMsg(h.Name, a.Text, refs)
	r := aliasedByName(refs, a.Text)
	if r == nil {
		p.ReportRangef(a.Start, end, "%s", msg)
		return
	}
	alias := p.Source[r.aliasTok.Start:r.aliasTok.End]
	aliasFix := func(d *Diagnostic) {
		if a.Start == a.Tok.Start {
			d.Fixes = []SuggestedFix{{Message: "write " + alias, Edits: []TextEdit{{Start: a.Start, End: end, NewText: alias}}}}
		}
	}
	if order == nil {
		aliasFix(p.ReportRangef(a.Start, end, "%s", msg))
		return
	}
	oj, opt, _ := p.Names.impossibleOrder(block, orderNames(order), h.Name != "JOIN_ORDER")
	if oj == nil {
		aliasFix(p.ReportRangef(a.Start, end, "%s", msg))
		return
	}
	if text, start, stop, ok := possibleOrder(p, block, h, order); rewritable && ok {
		d := p.ReportRangef(a.Start, end, "hint %s names %s, which is aliased as %s in its query block: write %s(%s), which also lists the preserved side of the %s before %s, its optional side (the server ignores the hint otherwise)",
			h.Name, a.Text, r.alias, h.Name, text, joinKind(oj), opt)
		d.Fixes = []SuggestedFix{orderFix(text, start, stop)}
		return
	}
	p.ReportRangef(a.Start, end, "hint %s names %s, which is aliased as %s in its query block; with %s the order would still list %s, the optional side of the %s, first (see impossible-join-order)",
		h.Name, a.Text, r.alias, r.alias, opt, joinKind(oj))
}

func findVisible(refs []*tableRef, name string) *tableRef {
	for _, r := range refs {
		if strings.EqualFold(r.visible(), name) {
			return r
		}
	}
	return nil
}

func unresolvedMsg(hintName, name string, refs []*tableRef) string {
	for _, r := range refs {
		if r.alias != "" && strings.EqualFold(r.name, name) {
			return "hint " + hintName + " names " + name + ", which is aliased as " + r.alias + " in its query block: write " + r.alias + " (the server ignores the hint otherwise)"
		}
	}
	var vis []string
	for _, r := range refs {
		if v := r.visible(); v != "" {
			vis = append(vis, v)
		}
	}
	if len(vis) == 0 {
		return "hint " + hintName + " names " + name + ", but its query block has no tables"
	}
	return "hint " + hintName + " names " + name + ", which is not a table of its query block (visible: " + strings.Join(vis, ", ") + ")"
}

func allHintNames() []string {
	var out []string
	for n := range mysqlHints {
		out = append(out, n)
	}
	for n := range tidbHints {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
