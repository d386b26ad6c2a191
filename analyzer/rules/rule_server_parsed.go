package rules

import "github.com/joinbench/joinbench/analyzer"

// ServerParsed reports a statement the analyzer cannot parse that the
// live server's parser read: valid SQL, unchecked by the rules.
var ServerParsed = &analyzer.Analyzer{
	Name: "server-parsed",
	Doc:  "With a live server, a statement the analyzer cannot parse and the server's parser reads is valid, but no rule checked it.",
	Explanation: analyzer.Explanation{
		Text: "With --dsn or --sandbox, a statement the analyzer cannot read (a syntax error to it, or not checked) is prepared on the server inside a read-only transaction, " +
			"which parses it and executes nothing. When the server reads it, its syntax is valid and this finding replaces the syntax error or the not-checked warning; " +
			"the analyzer's own rules (names, joins, hints) still did not run on it. When the server rejects it, rule syntax reports the server's error where the server says.",
		Wrong: "SELECT * FROM {{m}} FOR SYSTEM_TIME ALL; -- linted with --dsn against MariaDB",
		Right: "SELECT * FROM {{m}};",
	},
	Severity:         analyzer.Info,
	RunDespiteErrors: true,
	Run: func(p *analyzer.Pass) {
		if e := p.SyntaxError; e != nil && e.ServerRead {
			p.ReportRangef(e.Offset, e.End, "%s", e.Msg)
		}
	},
}
