package rules

import "github.com/joinbench/joinbench/analyzer"

// UnknownTable reports tables, and table qualifiers of columns, that the
// schema does not have or the query block does not see.
var UnknownTable = &analyzer.Analyzer{
	Name: "unknown-table",
	Doc:  "Every table must exist in the schema, and every column qualifier must name a table or alias visible in its query block.",
	Explanation: analyzer.Explanation{
		Text:  "Every table, alias and qualifier must name a table of the schema (the built-in one, --schema or --dsn), a CTE or a derived table of the query. A table that has an alias must be referred to by that alias.",
		Wrong: "SELECT m.id FROM {{m}} AS m JOIN levl1 ON m.l1_id = levl1.id;",
		Right: "SELECT m.id FROM {{m}} AS m JOIN level1 ON m.l1_id = level1.id;",
	},
	Severity: analyzer.Error,
	Run:      func(p *analyzer.Pass) { reportIssues(p, analyzer.IssueUnknownTable) },
}

func reportIssues(p *analyzer.Pass, k analyzer.IssueKind) {
	for _, is := range p.Names.Issues {
		if is.Kind == k {
			p.Reportf(is.Offset, "%s", is.Msg)
		}
	}
}
