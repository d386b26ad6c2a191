package analyzer

// Syntax reports text the SQL parser rejects.
var Syntax = register(&Analyzer{
	Name: "syntax",
	Doc:  "The statement must parse as MySQL-family SQL once placeholders are substituted.",
	Explanation: Explanation{
		Text:  "The statement is parsed as MySQL-family SQL after table parameters are replaced by a table of their family and value parameters by ? markers. The error points at the token the parser rejected and quotes the file as written. A word the parser took for an alias because it is a misspelt keyword (JION) is named.",
		Wrong: "SELECT m.id FROM {{m}} AS m JION level1 ON m.l1_id = level1.id;",
		Right: "SELECT m.id FROM {{m}} AS m JOIN level1 ON m.l1_id = level1.id;",
	},
	Severity:         Error,
	RunDespiteErrors: true,
	Run: func(p *Pass) {
		if e := p.SyntaxError; e != nil {
			p.ReportRangef(e.offset, e.end, "%s", e.msg)
		}
	},
})
