package analyzer

// AmbiguousColumn reports unqualified column references that more than one
// table of the query block has.
var AmbiguousColumn = register(&Analyzer{
	Name:     "ambiguous-column",
	Doc:      "An unqualified column must belong to exactly one table of its query block; the server rejects it otherwise (error 1052).",
	Severity: Error,
	Run:      func(p *Pass) { reportIssues(p, issueAmbiguous) },
})
