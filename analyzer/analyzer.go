package analyzer

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/internal/sqllex"
)

// Severity of a finding. A rule's default can be changed per corpus in its
// lint.conf; Off disables the rule.
type Severity int

const (
	Off Severity = iota
	Info
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Off:
		return "off"
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("Severity(%d)", int(s))
}

// ParseSeverity reads "off", "info", "warning" (or "warn") and "error".
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "off", "ignore", "none":
		return Off, nil
	case "info", "note":
		return Info, nil
	case "warning", "warn":
		return Warning, nil
	case "error":
		return Error, nil
	}
	return Off, fmt.Errorf("unknown severity %q (want off, info, warning or error)", s)
}

// MarshalText makes severities read as words in JSON.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Analyzer is one lint rule: a name used in output, configuration and
// suppressions, a description, a default severity and the check itself.
type Analyzer struct {
	Name     string
	Doc      string
	Severity Severity
	Run      func(*Pass)
	// Explanation is the long documentation `lint --explain-rule RULE` prints.
	Explanation Explanation
	// RunDespiteErrors lets the rule run on a file whose statement does
	// not parse (as in go/analysis). Such a rule must not rely on the
	// parse: on a broken file, what the parse would tell is guesswork and
	// its findings would be noise next to the syntax error.
	RunDespiteErrors bool
	// NeedsPlan marks a rule that compares the statement with the plan a
	// live server chose (see CheckPlan): it runs only when a plan is
	// given, never in a static analysis.
	NeedsPlan bool
}

// Explanation documents a rule at length: why it matters, and a wrong
// and a right example (as `ruff rule` and `clippy --explain` show).
type Explanation struct {
	Text  string
	Wrong string
	Right string
}

// WriteExplanation prints a rule's documentation: name, default severity,
// summary, explanation, and the wrong and right examples.
func (a *Analyzer) WriteExplanation(w io.Writer) error {
	_, err := fmt.Fprintf(w, "# %s (default: %s)\n\n%s\n\n%s\n\n## Wrong\n\n%s\n\n## Right\n\n%s\n",
		a.Name, a.Severity, a.Doc, a.Explanation.Text, indent(a.Explanation.Wrong), indent(a.Explanation.Right))
	return err
}

// rulesPage is the rule reference in the repository: WriteReference
// writes it, and each rule's HelpURI points at its section.
const rulesPage = "https://github.com/joinbench/joinbench/blob/main/docs/rules.md"

// HelpURI is where a rule is documented, for SARIF and editors: its
// section of docs/rules.md, whose heading is the rule's name.
func (a *Analyzer) HelpURI() string { return rulesPage + "#" + a.Name }

func indent(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

// Diagnostic is one finding, pointing at the original file.
type Diagnostic struct {
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Col    int    `json:"column"`
	Offset int    `json:"offset"`
	// The end of the text the finding is about (exclusive): the column
	// and offset just after its last byte.
	EndLine   int            `json:"end_line"`
	EndCol    int            `json:"end_column"`
	EndOffset int            `json:"end_offset"`
	Severity  Severity       `json:"severity"`
	Rule      string         `json:"rule"`
	Message   string         `json:"message"`
	Fixes     []SuggestedFix `json:"fixes,omitempty"`
}

func (d Diagnostic) String() string {
	return fmt.Sprintf("%s:%d:%d: %s: %s [%s]", d.Path, d.Line, d.Col, d.Severity, d.Message, d.Rule)
}

// SuggestedFix is a set of edits that resolves a finding.
type SuggestedFix struct {
	Message string     `json:"message"`
	Edits   []TextEdit `json:"edits"`
	// Unsafe marks a fix that changes what the statement returns: lint
	// --fix applies it only when asked to (Options.UnsafeFixes).
	Unsafe bool `json:"unsafe,omitempty"`
}

// TextEdit replaces Source[Start:End] with NewText.
type TextEdit struct {
	Start   int    `json:"start"`
	End     int    `json:"end"`
	NewText string `json:"new_text"`
}

// Options configure an analysis.
type Options struct {
	Schema *ddl.Schema // names are resolved against it; nil means every name is unknown
	// Flavor is the server the corpus targets: its family ("" means
	// mysql), its version when known, and whether it is a Galera/PXC
	// cluster.
	Flavor flavor.Flavor
	// Severity overrides per rule name (from lint.conf); absent means the
	// rule's default.
	Severity map[string]Severity
	// Rules are the rules to run (package analyzer/rules lists them:
	// rules.All); the framework's own findings, ScenarioFormat and
	// LintIgnore, are made whatever it holds.
	Rules []*Analyzer
	// UnsafeFixes lets FixFile apply fixes that change a statement's
	// results (SuggestedFix.Unsafe).
	UnsafeFixes bool

	// serverParse holds a live server's verdicts on the statements the
	// analyzer cannot read, by text (server_parse.go).
	serverParse map[string]ServerParse
}

func (o *Options) severity(a *Analyzer) Severity {
	if o != nil {
		if s, ok := o.Severity[a.Name]; ok {
			return s
		}
	}
	return a.Severity
}

// rules returns the rules an analysis runs: Rules, and the framework's
// own findings (ScenarioFormat, LintIgnore), which need no rule to run.
func (o *Options) rules() []*Analyzer {
	out := ownRules
	if o == nil {
		return out
	}
	out = out[:len(out):len(out)]
	for _, a := range o.Rules {
		if a != ScenarioFormat && a != LintIgnore {
			out = append(out, a)
		}
	}
	return out
}

// ownRules are the findings the framework makes itself: a file the
// loader refuses, and the suppressions.
var ownRules = []*Analyzer{ScenarioFormat, LintIgnore}

// lookup returns the rule of the analysis with that name, or nil.
func (u *unit) lookup(name string) *Analyzer {
	for _, a := range u.rules {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// AnalyzeScenario lints one parsed scenario.
func AnalyzeScenario(sc *corpus.Scenario, opts *Options) []Diagnostic {
	return analyze(nil, sc.Path, sc.Source, sc, opts)
}

// AnalyzeFile lints one file on its own. A file with a scenario header is
// read as a scenario (with the built-in value lists only: a corpus's
// NAME.list files come with corpus.Check and AnalyzeScenario); any other
// file as plain SQL (DDL files, for example).
func AnalyzeFile(path, src string, opts *Options) []Diagnostic {
	return analyzeFile(nil, path, src, opts)
}

func analyzeFile(w *scratch, path, src string, opts *Options) []Diagnostic {
	if isScenario(src) {
		sc, errs := corpus.ParseFileAll(path, []byte(src))
		if len(errs) > 0 {
			return loadFindings(errs, src)
		}
		return analyze(w, path, src, sc, opts)
	}
	return analyze(w, path, src, corpus.ParsePlain(path, src), opts)
}

// ReadScenario reads a scenario with the corpus parser, or a file without a
// scenario header (a DDL file, say) as plain SQL.
func ReadScenario(path, src string) (*corpus.Scenario, error) {
	if isScenario(src) {
		return corpus.ParseFile(path, []byte(src))
	}
	return corpus.ParsePlain(path, src), nil
}

// isScenario reports whether the file's leading comment lines hold a
// `-- scenario:` or `-- param` line.
func isScenario(src string) bool {
	for _, l := range strings.Split(src, "\n") {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if !strings.HasPrefix(t, "--") {
			return false
		}
		t = strings.TrimSpace(t[2:])
		if strings.HasPrefix(t, "scenario:") || strings.HasPrefix(t, "param ") {
			return true
		}
	}
	return false
}

// scratch is what a worker linting file after file reuses: its parser,
// the token and depth buffers of the file it finished, and the rules of
// the options it last saw (files of a folder share their options).
type scratch struct {
	p     *parser.Parser
	toks  []Token
	depth []int
	// lines, segs and cols serve each file in turn too: positions and
	// offsets in the findings are numbers, and no finding keeps the
	// resolution's map.
	lines sqllex.Lines
	segs  []segment
	cols  map[*ast.ColumnNameExpr]*ColRef
	// pass and diags serve each file's rules: the findings a file keeps
	// are copied out of diags (most files keep none).
	pass  Pass
	diags []Diagnostic

	rulesFor *Options
	rules    []*Analyzer
}

// rulesOf returns o.rules(), worked out again only when o changes (the
// rules are read, never changed, by the units that share them).
func (w *scratch) rulesOf(o *Options) []*Analyzer {
	if w.rules == nil || w.rulesFor != o {
		w.rulesFor, w.rules = o, o.rules()
	}
	return w.rules
}

// analyze lints one file, parsing with w's parser and keeping its tokens
// in w's buffer (nil: its own).
func analyze(w *scratch, path, src string, sc *corpus.Scenario, opts *Options) []Diagnostic {
	if opts == nil {
		opts = &Options{}
	}
	if w == nil {
		w = &scratch{}
	}
	u := newUnitIn(w, path, src, sc, opts.Schema, opts)
	// The findings hold no token nor depth: the buffers serve the next
	// file.
	defer func() {
		w.toks, w.depth, w.segs = u.toks[:0], u.depth[:0], u.segs[:0]
		if u.res != nil {
			w.cols = u.res.Cols
		}
	}()
	diags := w.diags[:0]
	// One Pass serves every rule in turn: rules only read it (a Pass per
	// rule was a tenth of lint's allocations).
	pass := &w.pass
	pass.init(u, nil, &diags, nil)
	for _, a := range u.rules {
		sev := opts.severity(a)
		if sev == Off && a != LintIgnore {
			continue
		}
		if u.parseErr != nil && !a.RunDespiteErrors {
			continue
		}
		if a.NeedsPlan {
			continue // CheckPlan runs it, with the server's plan
		}
		pass.Analyzer = a
		start := len(diags)
		runRule(pass)
		for i := start; i < len(diags); i++ {
			diags[i].Severity = sev
		}
	}
	diags = applySuppressions(u, diags, opts, false)
	sortDiagnostics(diags)
	w.diags = diags[:0]
	if len(diags) == 0 {
		return nil
	}
	return slices.Clone(diags)
}

// runRule runs a rule and turns a panic (a bug, never an input problem
// the user can fix) into a finding rather than a crash.
func runRule(p *Pass) {
	defer func() {
		if r := recover(); r != nil {
			p.Reportf(p.Body, "internal error in rule %s: %v", p.Analyzer.Name, r)
		}
	}()
	p.Analyzer.Run(p)
}

func sortDiagnostics(d []Diagnostic) {
	sort.SliceStable(d, func(i, j int) bool {
		if d[i].Path != d[j].Path {
			return d[i].Path < d[j].Path
		}
		if d[i].Offset != d[j].Offset {
			return d[i].Offset < d[j].Offset
		}
		return d[i].Rule < d[j].Rule
	})
}
