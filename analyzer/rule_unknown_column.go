package analyzer

// UnknownColumn reports column references that no visible table has.
var UnknownColumn = register(&Analyzer{
	Name:     "unknown-column",
	Doc:      "Every column reference must name a column of a table (or derived table) visible to it, through aliases and correlated subqueries.",
	Severity: Error,
	Run:      func(p *Pass) { reportIssues(p, issueUnknownColumn) },
})
