package rules

import (
	"sort"
	"strings"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/internal/suggest"
)

// HintUnresolved checks the names inside optimizer hints. A hint that names
// a table the wrong way is silently ignored by the server, so a forced join
// order quietly stops being forced.
var HintUnresolved = &analyzer.Analyzer{
	Name: "hint-unresolved",
	Doc: "An optimizer hint must be a known hint, name tables by the name visible in its query block (the alias when there is one) " +
		"and name indexes that exist; otherwise the server ignores it with only a warning.",
	Explanation: analyzer.Explanation{
		Text: "An optimizer hint must be known to the target flavour and name tables (aliases when the table has one) and query blocks of the statement; the server ignores a hint it cannot resolve, with at most a warning. " +
			"A table named by its name where it has an alias gets a fix writing the alias; in a join-order hint whose order would then put an outer join's optional side first (impossible-join-order), the fix lists the preserved side first too, so that it never leads into another ignored hint.",
		Wrong: "SELECT /*+ JOIN_ORDER(main1, level1) */ m.id FROM {{m}} AS m JOIN level1 ON m.l1_id = level1.id;",
		Right: "SELECT /*+ JOIN_ORDER(m, level1) */ m.id FROM {{m}} AS m JOIN level1 ON m.l1_id = level1.id;",
	},
	Severity: analyzer.Error,
	Run:      runHintUnresolved,
}

func runHintUnresolved(p *analyzer.Pass) {
	fl := p.Flavor.Name
	for _, hc := range p.Hints {
		if hc.Block < 0 {
			p.Reportf(hc.Tok.Start, "optimizer hint comment is not right after SELECT, UPDATE, DELETE or INSERT: the server reads it as a plain comment")
			continue
		}
		var refs []*analyzer.TableRef
		for _, r := range p.TableRefs {
			if r.Block == hc.Block {
				refs = append(refs, r)
			}
		}
		for _, h := range hc.Hints {
			kind, known := analyzer.HintKind(fl, h.Name)
			if fl == flavor.MariaDB {
				known = true // reported by hint-ignored-by-flavor; names are still checked
				if _, ok := analyzer.MysqlHints[h.Name]; !ok {
					kind, known = analyzer.TidbHints[h.Name]
				}
			}
			if !known {
				if _, other := analyzer.MysqlHints[h.Name]; !other {
					if _, other = analyzer.TidbHints[h.Name]; !other {
						p.Reportf(h.Start, "unknown optimizer hint %s%s", h.Name, suggest.DidYouMean(h.Name, allHintNames()))
					}
				}
				continue // known to another flavour: hint-ignored-by-flavor says so
			}
			if h.QB != "" || kind == analyzer.HintNoTables {
				continue
			}
			args := h.Args
			if kind == analyzer.HintTableIndex && len(args) > 0 {
				args = args[:1]
			}
			var order []OrderArg
			rewritable := false
			if orderHints[h.Name] {
				order, rewritable = ReadOrder(p, hc.Block, h)
			}
			var target *analyzer.TableRef
			for _, a := range args {
				if a.QB != "" {
					continue
				}
				r := findVisible(refs, a.Text)
				if r == nil {
					reportUnresolved(p, hc.Block, h, a, refs, order, rewritable)
					continue
				}
				target = r
			}
			if kind == analyzer.HintTableIndex && target != nil && !target.Derived && len(h.Args) > 1 {
				t := p.Schema.Table(target.Name)
				if t == nil {
					continue
				}
				for _, a := range h.Args[1:] {
					if t.Index(a.Text) == nil {
						p.Reportf(a.Start, "hint %s names index %s, which table %s does not have%s", h.Name, a.Text, t.Name, suggest.DidYouMean(a.Text, indexNames(t.Indexes)))
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
func reportUnresolved(p *analyzer.Pass, block int, h *analyzer.Hint, a analyzer.HintArg, refs []*analyzer.TableRef, order []OrderArg, rewritable bool) {
	end := p.TokenEnd(a.Start)
	if a.Start == a.Tok.Start {
		end = a.Tok.End
	}
	msg := unresolvedMsg(h.Name, a.Text, refs)
	r := AliasedByName(refs, a.Text)
	if r == nil {
		p.ReportRangef(a.Start, end, "%s", msg)
		return
	}
	alias := p.Source[r.AliasTok.Start:r.AliasTok.End]
	aliasFix := func(d *analyzer.Diagnostic) {
		if a.Start == a.Tok.Start {
			d.Fixes = []analyzer.SuggestedFix{{Message: "write " + alias, Edits: []analyzer.TextEdit{{Start: a.Start, End: end, NewText: alias}}}}
		}
	}
	if order == nil {
		aliasFix(p.ReportRangef(a.Start, end, "%s", msg))
		return
	}
	oj, opt, _ := impossibleOrder(p.Names, block, OrderNames(order), h.Name != "JOIN_ORDER")
	if oj == nil {
		aliasFix(p.ReportRangef(a.Start, end, "%s", msg))
		return
	}
	if text, start, stop, ok := PossibleOrder(p, block, h, order); rewritable && ok {
		d := p.ReportRangef(a.Start, end, "hint %s names %s, which is aliased as %s in its query block: write %s(%s), which also lists the preserved side of the %s before %s, its optional side (the server ignores the hint otherwise)",
			h.Name, a.Text, r.Alias, h.Name, text, joinKind(oj), opt)
		d.Fixes = []analyzer.SuggestedFix{OrderFix(text, start, stop)}
		return
	}
	p.ReportRangef(a.Start, end, "hint %s names %s, which is aliased as %s in its query block; with %s the order would still list %s, the optional side of the %s, first (see impossible-join-order)",
		h.Name, a.Text, r.Alias, r.Alias, opt, joinKind(oj))
}

func findVisible(refs []*analyzer.TableRef, name string) *analyzer.TableRef {
	for _, r := range refs {
		if strings.EqualFold(r.Visible(), name) {
			return r
		}
	}
	return nil
}

func unresolvedMsg(hintName, name string, refs []*analyzer.TableRef) string {
	for _, r := range refs {
		if r.Alias != "" && strings.EqualFold(r.Name, name) {
			return "hint " + hintName + " names " + name + ", which is aliased as " + r.Alias + " in its query block: write " + r.Alias + " (the server ignores the hint otherwise)"
		}
	}
	var vis []string
	for _, r := range refs {
		if v := r.Visible(); v != "" {
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
	for n := range analyzer.MysqlHints {
		out = append(out, n)
	}
	for n := range analyzer.TidbHints {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
