package analyzer

import (
	"strings"

	"github.com/joinbench/joinbench/internal/suggest"
)

// Inline suppression: `-- lint:ignore <rule>[,<rule>] <reason>` silences
// the named rules on its own line (as a trailing comment) or on the next
// line of SQL (as a comment line of its own); `-- lint:file-ignore <rule>
// <reason>` silences them in the whole file. The reason is required, and a
// suppression that silences nothing is reported, so none outlive the code
// they were written for.

type suppression struct {
	offset int
	rules  []string
	line   int // the line it applies to; 0 for the whole file
	used   bool
	reason string
}

// LintIgnore is the finding for a suppression comment that names no
// known rule, gives no reason or silences nothing.
var LintIgnore = &Analyzer{
	Name: "lint-ignore",
	Doc:  "A lint:ignore comment must name known rules, give a reason, and silence something.",
	Explanation: Explanation{
		Text:  "-- lint:ignore RULE REASON silences RULE on its line (or the next line of SQL); -- lint:file-ignore RULE REASON in the whole file. The rule must exist, the reason is required, and a suppression that silences nothing is reported.",
		Wrong: "-- lint:ignore right-join\nSELECT m.id FROM {{m}} AS m;",
		Right: "-- lint:file-ignore right-join the scenario measures how the server plans RIGHT JOIN",
	},
	Severity:         Warning,
	RunDespiteErrors: true,
	Run:              func(*Pass) {}, // reported by applySuppressions
}

func parseSuppressions(u *unit) (sups []*suppression, bad []Diagnostic) {
	for _, c := range u.comments {
		text := c.Text
		switch {
		case strings.HasPrefix(text, "--"):
			text = text[2:]
		case strings.HasPrefix(text, "#"):
			text = text[1:]
		case strings.HasPrefix(text, "/*"):
			text = strings.TrimSuffix(text[2:], "*/")
		}
		text = strings.TrimSpace(text)
		fileWide := false
		switch {
		case strings.HasPrefix(text, "lint:ignore"):
			text = text[len("lint:ignore"):]
		case strings.HasPrefix(text, "lint:file-ignore"):
			text = text[len("lint:file-ignore"):]
			fileWide = true
		default:
			continue
		}
		if text != "" && text[0] != ' ' && text[0] != '\t' {
			continue
		}
		f := strings.Fields(text)
		s := &suppression{offset: c.Start}
		if len(f) == 0 {
			bad = append(bad, u.diag(c.Start, "lint:ignore needs a rule name and a reason"))
			continue
		}
		for _, r := range strings.Split(f[0], ",") {
			if r == "" {
				continue
			}
			if u.lookup(r) == nil {
				bad = append(bad, u.diag(c.Start, "lint:ignore names unknown rule "+r+suggest.DidYouMean(r, u.ruleNames())))
				continue
			}
			s.rules = append(s.rules, r)
		}
		if len(f) < 2 {
			bad = append(bad, u.diag(c.Start, "lint:ignore "+f[0]+" needs a reason after the rule name"))
			continue
		}
		s.reason = strings.Join(f[1:], " ")
		if len(s.rules) == 0 {
			continue
		}
		if !fileWide {
			line, _ := u.position(c.Start)
			s.line = line
			if !u.codeBefore(c.Start) {
				s.line = u.nextCodeLine(c.End)
			}
		}
		sups = append(sups, s)
	}
	return sups, bad
}

func (u *unit) ruleNames() []string {
	var out []string
	for _, a := range u.rules {
		out = append(out, a.Name)
	}
	return out
}

func (u *unit) diag(off int, msg string) Diagnostic {
	d := Diagnostic{Path: u.path, Offset: off, Rule: LintIgnore.Name, Message: msg}
	u.place(&d)
	return d
}

// codeBefore reports whether a token precedes off on its line.
func (u *unit) codeBefore(off int) bool {
	line, _ := u.position(off)
	start := u.lines.Start(line)
	for _, t := range u.toks {
		if t.Start >= start && t.Start < off {
			return true
		}
	}
	return false
}

// nextCodeLine returns the line of the first token after off.
func (u *unit) nextCodeLine(off int) int {
	for _, t := range u.toks {
		if t.Start >= off {
			l, _ := u.position(t.Start)
			return l
		}
	}
	l, _ := u.position(off)
	return l + 1
}

// applySuppressions silences the findings suppressions name and reports
// the suppressions themselves. A static analysis (withPlan false) cannot
// judge a suppression of a rule that needs a plan, and the plan check
// (withPlan true) judges only those: each pass reports the unused
// suppressions it can tell are unused, and the static pass alone reports
// malformed ones.
func applySuppressions(u *unit, diags []Diagnostic, opts *Options, withPlan bool) []Diagnostic {
	sups, bad := parseSuppressions(u)
	out := diags[:0]
	for _, d := range diags {
		silenced := false
		for _, s := range sups {
			if (s.line == 0 || s.line == d.Line) && contains(s.rules, d.Rule) {
				s.used = true
				silenced = true
			}
		}
		if !silenced {
			out = append(out, d)
		}
	}
	sev := opts.severity(LintIgnore)
	if sev == Off {
		return out
	}
	for _, s := range sups {
		if s.used || !judgedBy(u, s, withPlan) {
			continue
		}
		// a rule turned off by configuration silences nothing, but the
		// suppression is not stale: it may be turned on again. Nor is it
		// when the rule could not run: a file with a syntax error gets
		// only the rules that run despite errors, and its suppressions
		// of the others are judged once it parses.
		judged := false
		for _, r := range s.rules {
			if a := u.lookup(r); a != nil && opts.severity(a) != Off && (u.parseErr == nil || a.RunDespiteErrors) {
				judged = true
			}
		}
		if judged {
			out = append(out, u.diag(s.offset, "unused lint:ignore "+strings.Join(s.rules, ",")+": nothing to silence here"))
		}
	}
	if !withPlan {
		out = append(out, bad...)
	}
	for i := range out {
		if out[i].Rule == LintIgnore.Name {
			out[i].Severity = sev
		}
	}
	return out
}

// judgedBy reports whether a pass with or without a plan can tell that
// the suppression silences nothing: a static pass when it names no rule
// that needs a plan, a plan check when it names only such rules.
func judgedBy(u *unit, s *suppression, withPlan bool) bool {
	for _, r := range s.rules {
		if a := u.lookup(r); a != nil && a.NeedsPlan != withPlan {
			return false
		}
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
