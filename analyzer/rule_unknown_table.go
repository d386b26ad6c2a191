package analyzer

// UnknownTable reports tables, and table qualifiers of columns, that the
// schema does not have or the query block does not see.
var UnknownTable = register(&Analyzer{
	Name: "unknown-table",
	Doc:  "Every table must exist in the schema, and every column qualifier must name a table or alias visible in its query block.",
	Explanation: Explanation{
		Text:  "Every table, alias and qualifier must name a table of the schema (the built-in one, --schema or --dsn), a CTE or a derived table of the query. A table that has an alias must be referred to by that alias.",
		Wrong: "SELECT m.id FROM {{m}} AS m JOIN levl1 ON m.l1_id = levl1.id;",
		Right: "SELECT m.id FROM {{m}} AS m JOIN level1 ON m.l1_id = level1.id;",
	},
	Severity: Error,
	Run:      func(p *Pass) { reportIssues(p, issueUnknownTable) },
})

func reportIssues(p *Pass, k issueKind) {
	for _, is := range p.Names.issues {
		if is.kind == k {
			p.Reportf(is.offset, "%s", is.msg)
		}
	}
}
