package analyzer

import (
	"sort"
	"strings"

	"github.com/joinbench/joinbench/internal/server/flavor"
)

// HintUnresolved checks the names inside optimizer hints. A hint that names
// a table the wrong way is silently ignored by the server, so a forced join
// order quietly stops being forced.
var HintUnresolved = register(&Analyzer{
	Name: "hint-unresolved",
	Doc: "An optimizer hint must be a known hint, name tables by the name visible in its query block (the alias when there is one) " +
		"and name indexes that exist; otherwise the server ignores it with only a warning.",
	Explanation: Explanation{
		Text:  "An optimizer hint must be known to the target flavour and name tables (aliases when the table has one) and query blocks of the statement; the server ignores a hint it cannot resolve, with at most a warning.",
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
			var target *tableRef
			for _, a := range args {
				if a.QB != "" {
					continue
				}
				r := findVisible(refs, a.Text)
				if r == nil {
					p.Reportf(a.Start, "%s", unresolvedMsg(h.Name, a.Text, refs))
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
