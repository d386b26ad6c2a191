package analyzer

// UnknownTable reports tables, and table qualifiers of columns, that the
// schema does not have or the query block does not see.
var UnknownTable = register(&Analyzer{
	Name:     "unknown-table",
	Doc:      "Every table must exist in the schema, and every column qualifier must name a table or alias visible in its query block.",
	Severity: Error,
	Run:      func(p *Pass) { reportIssues(p, issueUnknownTable) },
})

func reportIssues(p *Pass, k issueKind) {
	for _, is := range p.u.res.issues {
		if is.kind == k {
			p.Reportf(is.offset, "%s", is.msg)
		}
	}
}
