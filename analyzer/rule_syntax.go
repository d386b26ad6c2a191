package analyzer

// Syntax reports text the SQL parser rejects.
var Syntax = register(&Analyzer{
	Name:             "syntax",
	Doc:              "The statement must parse as MySQL-family SQL once placeholders are substituted.",
	Severity:         Error,
	RunDespiteErrors: true,
	Run: func(p *Pass) {
		if e := p.u.parseErr; e != nil {
			p.ReportRangef(e.offset, e.end, "%s", e.msg)
		}
	},
})
