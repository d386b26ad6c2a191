package rules

import "github.com/joinbench/joinbench/analyzer"

// NotChecked reports a statement the targeted server accepts that the
// analyzer cannot parse, at a construct it knows: valid SQL is not an
// error, but no rule checked it.
var NotChecked = &analyzer.Analyzer{
	Name: "not-checked",
	Doc:  "A statement the analyzer cannot parse, at syntax the targeted server accepts (JSON_TABLE, MariaDB's FOR SYSTEM_TIME), is not checked by any rule.",
	Explanation: analyzer.Explanation{
		Text: "The parser lacks some syntax the targeted server accepts and no rewrite reads. Such a statement is not a syntax error, but no rule looked at it: " +
			"its names, joins and hints are unchecked. Lint with a live server (--dsn, --sandbox) to have the server's parser check its syntax (rule server-parsed), or set the rule off in lint.conf where such statements are expected.",
		Wrong: "SELECT * FROM {{m}} FOR SYSTEM_TIME AS OF TIMESTAMP '2024-01-01 00:00:00'; -- flavor = mariadb",
		Right: "SELECT * FROM {{m}};",
	},
	Severity:         analyzer.Warning,
	RunDespiteErrors: true,
	Run: func(p *analyzer.Pass) {
		if e := p.SyntaxError; e != nil && e.Unchecked && !e.ServerRead {
			p.ReportRangef(e.Offset, e.End, "%s", e.Msg)
		}
	},
}
