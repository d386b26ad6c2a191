package corpus

import "slices"

// Scenario is one parsed scenario file: its header and its statement body
// with the placeholder uses located, before any value is chosen.
type Scenario struct {
	Name        string // the file name without .sql; unique in a corpus
	Family      string // the sub-folder: inner, left, right, derived, semi_anti, update, write
	Path        string // the path shown in diagnostics (built-ins: "corpus/scenarios/<family>/<name>.sql")
	Builtin     bool
	Description string
	Tags        []string
	Params      []*Param
	Source      string // the whole file, as read
	Body        string // the statement text after the header, placeholders included
	BodyOffset  int    // byte offset of Body in Source
	Uses        []Use  // every placeholder use in Body, in order of appearance
	// Count is the header's default number of executions per event (0
	// when the header has no `count`: the scenario is disabled unless the
	// run enables it).
	Count int
	// Statements are the body's statements, in order of execution (a body
	// may hold a short `;`-separated sequence; each runs as statement_seq
	// 0, 1, ... of the event).
	Statements []StmtSpan
	// Plain marks a file read as plain SQL (ParsePlain), not as a
	// scenario: it has no header and its placeholders declare nothing.
	Plain bool

	// kindsPending says the loader left classifying the statements to
	// Classify.
	kindsPending bool
	nameOff      int                   // byte offset of the `-- scenario:` value in Source; 0 without one
	stmts        []stmtParts           // the statements cut at placeholder uses
	lists        map[string]*ValueList // the corpus's user lists, for list(name)
}

// Span is a byte range [Start, End) in a scenario's Source.
type Span struct{ Start, End int }

// StmtSpan is one statement of a scenario's body: where it is in Source
// and what it does.
type StmtSpan struct {
	Span
	Kind StmtKind
}

// Writes returns the kinds of s's statements that are not plain reads,
// each once, in statement order: nil when s only reads.
func (s *Scenario) Writes() []StmtKind {
	s.Classify()
	var out []StmtKind
	for _, st := range s.Statements {
		if !st.Kind.PlainRead() && !slices.Contains(out, st.Kind) {
			out = append(out, st.Kind)
		}
	}
	return out
}

// Param is one `-- param name: type(args)` declaration.
type Param struct {
	Name string
	Kind string   // table, enum, set, list, int, id, string, uuid, year
	Args []string // the type's arguments as written, e.g. ["level1.record_status"]
	// Distribution for numeric, id and list kinds: uniform, gaussian,
	// pareto, zipf, hotspot ("" means the run's default).
	Distribution string
	DistArgs     []string // the distribution's arguments, e.g. ["0.1"] for pareto(0.1)
	Line, Col    int      // 1-based position of the parameter's name in Source

	argOff []int // byte offsets in Source of each of Args
	off    int   // byte offset of the name in Source
}

// Use is one `{{name}}` in the body.
type Use struct {
	Param      *Param
	Start, End int // byte offsets in Source of the whole `{{name}}`
}

// Classify fills in the kinds of the statements the loader left
// unclassified (LoadOptions.LazyKinds, which lint sets: its rules parse
// the statements themselves, and only --check-plans needs the loader's
// kinds); it does nothing for a scenario loaded otherwise. Writes calls
// it. Not for concurrent use on one scenario.
func (s *Scenario) Classify() {
	if !s.kindsPending {
		return
	}
	s.kindsPending = false
	// The body is read again, classifying this time: building the texts
	// to classify for every file of a lint whose kinds are never asked
	// for cost more than reading a few bodies twice.
	p := &parser{s: &Scenario{Path: s.Path, Source: s.Source, Name: s.Name, Family: s.Family,
		Params: s.Params, BodyOffset: s.BodyOffset, Body: s.Body}}
	p.body()
	if len(p.s.Statements) != len(s.Statements) {
		return // not the body it was: a scenario changed since loading
	}
	for i, st := range p.s.Statements {
		s.Statements[i].Kind = st.Kind
	}
}

// Param returns the declared parameter with that name, or nil.
func (s *Scenario) Param(name string) *Param {
	for _, p := range s.Params {
		if p.Name == name {
			return p
		}
	}
	return nil
}
