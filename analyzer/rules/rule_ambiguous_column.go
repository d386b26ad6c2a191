package rules

import "github.com/joinbench/joinbench/analyzer"

// AmbiguousColumn reports unqualified column references that more than one
// table of the query block has.
var AmbiguousColumn = &analyzer.Analyzer{
	Name: "ambiguous-column",
	Doc:  "An unqualified column must belong to exactly one table of its query block; the server rejects it otherwise (error 1052).",
	Explanation: analyzer.Explanation{
		Text:  "An unqualified column that two tables of the query have is rejected by the server (error 1052). Qualify it.",
		Wrong: "SELECT id FROM {{m}} AS m JOIN level1 ON m.l1_id = level1.id;",
		Right: "SELECT m.id FROM {{m}} AS m JOIN level1 ON m.l1_id = level1.id;",
	},
	Severity: analyzer.Error,
	Run:      func(p *analyzer.Pass) { reportIssues(p, analyzer.IssueAmbiguous) },
}
