package analyzer

import (
	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/internal/sqllex"
)

// ScenarioFormat is the finding for a file the corpus loader refuses: a
// header, placeholder or list mistake, a bare ?, a scenario name defined
// twice, an unknown list(NAME). list, show and run stop on such a file
// with exit code 2, so lint reports it at error severity, whatever
// lint.conf says and however it is commented; the loader finds it, the
// rule itself checks nothing more.
var ScenarioFormat = &Analyzer{
	Name: "scenario-format",
	Doc:  "The file must load as a scenario (header, parameters, placeholders, value lists, unique names) as list, show and run load it.",
	Explanation: Explanation{
		Text:  "Every command reads scenarios through one loader: each `-- key: value` header line, each `-- param` declaration and each {{placeholder}} is checked, a NAME.list file beside the scenarios (or anywhere in a --corpus folder) defines list(NAME), and two scenarios may not share a name. A file the loader refuses stops list, show and run with exit code 2; lint reports the same mistake at error severity (it cannot be turned off or suppressed) and does not analyse the file's SQL further.",
		Wrong: "-- scenario: by_region\n-- count: -5\n-- param r: list(regions)   -- no regions.list beside the file\nSELECT id FROM level1 WHERE continent = {{r}} AND id = ?;",
		Right: "-- scenario: by_region\n-- count: 5\n-- param r: list(regions)   -- regions.list: one value per line\n-- param id: id(level1)\nSELECT id FROM level1 WHERE continent = {{r}} AND id = {{id}};",
	},
	Severity:         Error,
	RunDespiteErrors: true,
	Run:              func(*Pass) {},
}

// loadFinding is the finding for a loader mistake in a file whose text
// is src: it spans from the mistake to the end of its line.
// loadFindings turns a file's loader mistakes into findings.
func loadFindings(errs []*corpus.Error, src string) []Diagnostic {
	out := make([]Diagnostic, len(errs))
	for i, e := range errs {
		out[i] = loadFinding(e, src)
	}
	sortDiagnostics(out)
	return out
}

func loadFinding(e *corpus.Error, src string) Diagnostic {
	d := Diagnostic{Path: e.Path, Line: e.Line, Col: e.Col, Severity: Error, Rule: ScenarioFormat.Name, Message: e.Msg}
	lines := sqllex.NewLines(src)
	d.Offset = min(lines.Start(e.Line)+max(e.Col-1, 0), len(src))
	d.EndOffset = d.Offset
	for d.EndOffset < len(src) && src[d.EndOffset] != '\n' && src[d.EndOffset] != '\r' {
		d.EndOffset++
	}
	d.EndLine, d.EndCol = lines.Position(d.EndOffset)
	return d
}
