package analyzer

import "github.com/joinbench/joinbench/ddl"

// IndexHintUnknown reports FORCE/USE/IGNORE INDEX naming an index the table
// does not have (the server rejects the statement, error 1176).
var IndexHintUnknown = register(&Analyzer{
	Name: "index-hint-unknown",
	Doc:  "FORCE, USE and IGNORE INDEX must name indexes of the table they follow.",
	Explanation: Explanation{
		Text:  "USE/FORCE/IGNORE INDEX must name indexes the table has; the server fails on an unknown one (error 1176).",
		Wrong: "SELECT m.id FROM {{m}} AS m FORCE INDEX (idx_nosuch) WHERE m.l1_id = 3;",
		Right: "SELECT m.id FROM {{m}} AS m FORCE INDEX (idx_l1_id) WHERE m.l1_id = 3;",
	},
	Severity: Error,
	Run: func(p *Pass) {
		for _, r := range p.TableRefs {
			if r.derived || len(r.indexHints) == 0 {
				continue
			}
			t := p.Schema.Table(r.name)
			if t == nil {
				continue
			}
			for _, ih := range r.indexHints {
				for _, n := range ih.names {
					if t.Index(n.name()) == nil {
						p.Reportf(n.Start, "%s INDEX names %s, which table %s does not have%s", ih.kind, n.name(), t.Name, didYouMean(n.name(), indexNames(t.Indexes)))
					}
				}
			}
		}
	},
})

func indexNames(ixs []*ddl.Index) []string {
	var out []string
	for _, ix := range ixs {
		out = append(out, ix.Name)
	}
	return out
}
