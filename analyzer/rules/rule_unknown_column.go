package rules

import "github.com/joinbench/joinbench/analyzer"

// UnknownColumn reports column references that no visible table has.
var UnknownColumn = &analyzer.Analyzer{
	Name: "unknown-column",
	Doc:  "Every column reference must name a column of a table (or derived table) visible to it, through aliases and correlated subqueries.",
	Explanation: analyzer.Explanation{
		Text: "Every column must exist in the table, derived table or CTE it is read from. " +
			"A column read through a derived table or CTE that selects * from an unknown table is not reported: nobody can tell its columns, and the unknown table is the one error (unknown-table).",
		Wrong: "SELECT m.nosuch FROM {{m}} AS m;",
		Right: "SELECT m.myvalue FROM {{m}} AS m;",
	},
	Severity: analyzer.Error,
	Run:      func(p *analyzer.Pass) { reportIssues(p, analyzer.IssueUnknownColumn) },
}
