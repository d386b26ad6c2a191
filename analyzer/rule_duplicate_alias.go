package analyzer

import "strings"

// DuplicateAlias reports a name given twice in one select list (ORDER BY
// and outer queries then see only one of them) and a table alias used
// twice in one FROM clause (the server rejects it, error 1066).
var DuplicateAlias = register(&Analyzer{
	Name: "duplicate-alias",
	Doc:  "The aliases of a select list must differ from each other, and so must the table aliases of a FROM clause.",
	Explanation: Explanation{
		Text:  "Two tables of one FROM clause with one alias fail (error 1066); two select-list entries with one name make ORDER BY and the client's columns ambiguous.",
		Wrong: "SELECT m.color AS c, m.continent AS c FROM {{m}} AS m;",
		Right: "SELECT m.color AS color, m.continent AS continent FROM {{m}} AS m;",
	},
	Severity: Warning,
	Run: func(p *Pass) {
		for _, b := range p.Names.blocks {
			if b.stmt.Fields == nil {
				continue
			}
			seen := map[string]bool{}
			for _, f := range b.stmt.Fields.Fields {
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
			v := strings.ToLower(r.visible())
			if v == "" {
				continue
			}
			if byBlock[r.block] == nil {
				byBlock[r.block] = map[string]bool{}
			}
			if byBlock[r.block][v] {
				off := r.start
				if r.aliasTok != nil {
					off = r.aliasTok.Start
				}
				p.Reportf(off, "table alias %s is used twice in this FROM clause (the server rejects it: not unique table/alias)", r.visible())
			}
			byBlock[r.block][v] = true
		}
	},
})

// fieldAliasOffset finds the alias token of a select field starting at
// the parse-text offset fieldOff.
func fieldAliasOffset(p *Pass, fieldOff int, alias string) int {
	start := p.SourceOffset(fieldOff)
	depth := 0
	for _, t := range p.Tokens {
		if t.Start < start {
			continue
		}
		switch {
		case t.punct("("):
			depth++
		case t.punct(")"):
			depth--
		case t.punct(",") && depth == 0, t.is("FROM") && depth == 0:
			return start
		case depth == 0 && t.Kind == tokIdent && strings.EqualFold(t.name(), alias):
			return t.Start
		}
	}
	return start
}
