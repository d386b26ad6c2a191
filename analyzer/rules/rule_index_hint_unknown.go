package rules

import (
	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/suggest"
)

// IndexHintUnknown reports FORCE/USE/IGNORE INDEX naming an index the table
// does not have (the server rejects the statement, error 1176).
var IndexHintUnknown = &analyzer.Analyzer{
	Name: "index-hint-unknown",
	Doc:  "FORCE, USE and IGNORE INDEX must name indexes of the table they follow.",
	Explanation: analyzer.Explanation{
		Text:  "USE/FORCE/IGNORE INDEX must name indexes the table has; the server fails on an unknown one (error 1176).",
		Wrong: "SELECT m.id FROM {{m}} AS m FORCE INDEX (idx_nosuch) WHERE m.l1_id = 3;",
		Right: "SELECT m.id FROM {{m}} AS m FORCE INDEX (idx_l1_id) WHERE m.l1_id = 3;",
	},
	Severity: analyzer.Error,
	Run: func(p *analyzer.Pass) {
		for _, r := range p.TableRefs {
			if r.Derived || len(r.IndexHints) == 0 {
				continue
			}
			t := p.Schema.Table(r.Name)
			if t == nil {
				continue
			}
			for _, ih := range r.IndexHints {
				for _, n := range ih.Names {
					if t.Index(n.Name()) == nil {
						p.Reportf(n.Start, "%s INDEX names %s, which table %s does not have%s", ih.Kind, n.Name(), t.Name, suggest.DidYouMean(n.Name(), indexNames(t.Indexes)))
					}
				}
			}
		}
	},
}

func indexNames(ixs []*ddl.Index) []string {
	var out []string
	for _, ix := range ixs {
		out = append(out, ix.Name)
	}
	return out
}
