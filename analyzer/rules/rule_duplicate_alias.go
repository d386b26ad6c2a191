package rules

import (
	"strings"

	"github.com/joinbench/joinbench/analyzer"
)

// DuplicateAlias reports a name given twice in one select list (ORDER BY
// and outer queries then see only one of them) and a table alias used
// twice in one FROM clause (the server rejects it, error 1066).
var DuplicateAlias = &analyzer.Analyzer{
	Name: "duplicate-alias",
	Doc:  "The aliases of a select list must differ from each other, and so must the table aliases of a FROM clause.",
	Explanation: analyzer.Explanation{
		Text:  "Two tables of one FROM clause with one alias fail (error 1066); two select-list entries with one name make ORDER BY and the client's columns ambiguous.",
		Wrong: "SELECT m.color AS c, m.continent AS c FROM {{m}} AS m;",
		Right: "SELECT m.color AS color, m.continent AS continent FROM {{m}} AS m;",
	},
	Severity: analyzer.Warning,
	Run: func(p *analyzer.Pass) {
		for _, b := range p.Names.Blocks {
			if b.Stmt.Fields == nil {
				continue
			}
			seen := map[string]bool{}
			for _, f := range b.Stmt.Fields.Fields {
				if f.AsName.O == "" {
					continue
				}
				k := strings.ToLower(f.AsName.O)
				if seen[k] {
					p.Reportf(fieldAliasOffset(p, f.Offset, f.AsName.O), "alias %s is used twice in this select list", f.AsName.O)
				}
				seen[k] = true
			}
		}
		byBlock := map[int]map[string]bool{}
		for _, r := range p.TableRefs {
			v := strings.ToLower(r.Visible())
			if v == "" {
				continue
			}
			if byBlock[r.Block] == nil {
				byBlock[r.Block] = map[string]bool{}
			}
			if byBlock[r.Block][v] {
				off := r.Start
				if r.AliasTok != nil {
					off = r.AliasTok.Start
				}
				p.Reportf(off, "table alias %s is used twice in this FROM clause (the server rejects it: not unique table/alias)", r.Visible())
			}
			byBlock[r.Block][v] = true
		}
	},
}

// fieldAliasOffset finds the alias token of a select field starting at
// the parse-text offset fieldOff.
func fieldAliasOffset(p *analyzer.Pass, fieldOff int, alias string) int {
	start := p.SourceOffset(fieldOff)
	depth := 0
	for _, t := range p.Tokens {
		if t.Start < start {
			continue
		}
		switch {
		case t.Punct("("):
			depth++
		case t.Punct(")"):
			depth--
		case t.Punct(",") && depth == 0, t.Is("FROM") && depth == 0:
			return start
		case depth == 0 && t.Kind == analyzer.TokIdent && strings.EqualFold(t.Name(), alias):
			return t.Start
		}
	}
	return start
}
