package rules

import "github.com/joinbench/joinbench/analyzer"

// Syntax reports text the SQL parser rejects.
var Syntax = &analyzer.Analyzer{
	Name: "syntax",
	Doc:  "The statement must parse as SQL of the targeted flavour once placeholders are substituted.",
	Explanation: analyzer.Explanation{
		Text: "The statement is parsed as MySQL-family SQL after table parameters are replaced by a table of their family and value parameters by ? markers. " +
			"Syntax the targeted server accepts and the parser lacks (MariaDB's LIMIT ROWS EXAMINED, DELETE ... RETURNING, SELECT ... INTO @var ...) is read, not reported; " +
			"MariaDB's syntax in a corpus that targets MySQL is an error that names it. " +
			"The error points at the token the parser rejected and quotes the file as written. A word the parser took for an alias because it is a misspelt keyword (JION) is named, and so is a reserved word used as a name (rank). " +
			"With a live server (--dsn, --sandbox), a statement the analyzer cannot read is prepared on the server, in a read-only transaction, and the server's parser decides.",
		Wrong: "SELECT m.id FROM {{m}} AS m JION level1 ON m.l1_id = level1.id;",
		Right: "SELECT m.id FROM {{m}} AS m JOIN level1 ON m.l1_id = level1.id;",
	},
	Severity:         analyzer.Error,
	RunDespiteErrors: true,
	Run: func(p *analyzer.Pass) {
		if e := p.SyntaxError; e != nil && !e.Unchecked && !e.ServerRead {
			p.ReportRangef(e.Offset, e.End, "%s", e.Msg)
		}
	},
}
