package shellcomplete

import (
	"slices"
	"strings"

	"github.com/alecthomas/kong"
)

// Candidate is one completion: the text to insert and a line saying what
// it is (zsh and fish show it; bash does not).
type Candidate struct {
	Value       string
	Description string
}

// Directive tells the shell what else to offer.
type Directive string

const (
	None  Directive = "none"  // the candidates only
	Files Directive = "files" // the shell's file names (a path flag or argument)
	Dirs  Directive = "dirs"  // the shell's directory names
)

// Result is the answer to one Tab.
type Result struct {
	Candidates []Candidate
	Directive  Directive
}

// Line is what the words before the one being completed say: the command
// chosen and the flags given, so that a predictor can depend on them.
type Line struct {
	Node  *kong.Node
	Flags map[string][]string // by flag name, the values as typed; "true" for a bool flag
}

// Predictor returns the values a flag or positional argument can take
// that start with prefix.
type Predictor func(line Line, prefix string) []Candidate

// Completer completes the command lines of App.
type Completer struct {
	App *kong.Application
	// Predict, when set, returns the predictor of a flag or positional
	// argument (v) of a command (node), or nil to fall back to the model:
	// enum values, file or directory names for path types, else nothing.
	Predict func(node *kong.Node, v *kong.Value) Predictor
}

// state is the walk over the completed words.
type state struct {
	line       Line
	positional int        // positional arguments given to line.Node
	expecting  *kong.Flag // the flag whose value comes next
	onlyArgs   bool       // after "--": no more flags
	seen       map[*kong.Flag]bool
}

// Complete completes the last of words (the words after the program
// name, the last one being typed, possibly empty).
func (c *Completer) Complete(words []string) Result {
	words, splitValue := joinSplitFlagValues(words)
	current := ""
	if len(words) > 0 {
		current, words = words[len(words)-1], words[:len(words)-1]
	}
	s := &state{line: Line{Node: c.App.Node, Flags: map[string][]string{}}, seen: map[*kong.Flag]bool{}}
	for _, w := range words {
		s.consume(w)
	}
	switch {
	case s.expecting != nil:
		return c.values(s, s.expecting.Value, current, "")
	case !s.onlyArgs && strings.HasPrefix(current, "--") && strings.Contains(current, "="):
		name, prefix, _ := strings.Cut(current, "=")
		f := s.flag(strings.TrimPrefix(name, "--"))
		if f == nil || f.IsBool() {
			return Result{Directive: None}
		}
		if splitValue { // bash completes the text after "=" only
			name = ""
		} else {
			name += "="
		}
		return c.values(s, f.Value, prefix, name)
	case !s.onlyArgs && strings.HasPrefix(current, "-"):
		return Result{Candidates: s.flagNames(current), Directive: None}
	}
	var out Result
	out.Directive = None
	if s.positional == 0 {
		for _, child := range s.line.Node.Children {
			if child.Type == kong.CommandNode && !child.Hidden && strings.HasPrefix(child.Name, current) {
				out.Candidates = append(out.Candidates, Candidate{child.Name, summary(child.Help)})
			}
		}
	}
	if arg := s.argument(); arg != nil {
		r := c.values(s, arg, current, "")
		out.Candidates = append(out.Candidates, r.Candidates...)
		out.Directive = r.Directive
	}
	return out
}

// consume takes one completed word.
func (s *state) consume(w string) {
	switch {
	case s.expecting != nil:
		s.set(s.expecting, w)
		s.expecting = nil
	case s.onlyArgs:
		s.positional++
	case w == "--":
		s.onlyArgs = true
	case strings.HasPrefix(w, "--"):
		name, value, inline := strings.Cut(strings.TrimPrefix(w, "--"), "=")
		f := s.flag(name)
		switch {
		case f == nil:
		case inline || f.IsBool() || f.IsCounter():
			if !inline {
				value = "true"
			}
			s.set(f, value)
		default:
			s.expecting = f
		}
	case strings.HasPrefix(w, "-") && len(w) > 1:
		for i, r := range w[1:] {
			f := s.short(r)
			if f == nil {
				return
			}
			if f.IsBool() || f.IsCounter() {
				s.set(f, "true")
				continue
			}
			if rest := w[2+i:]; rest != "" {
				s.set(f, rest)
			} else {
				s.expecting = f
			}
			return
		}
	default:
		if s.positional == 0 {
			for _, child := range s.line.Node.Children {
				if child.Type == kong.CommandNode && (child.Name == w || slices.Contains(child.Aliases, w)) {
					s.line.Node = child
					return
				}
			}
		}
		s.positional++
	}
}

func (s *state) set(f *kong.Flag, value string) {
	s.seen[f] = true
	s.line.Flags[f.Name] = append(s.line.Flags[f.Name], value)
}

// flags are the flags valid at the chosen command: its own and those of
// the commands above it, nearest first.
func (s *state) flags() []*kong.Flag {
	var out []*kong.Flag
	for n := s.line.Node; n != nil; n = n.Parent {
		out = append(out, n.Flags...)
	}
	return out
}

// flag finds a flag by its long name, an alias or its negation.
func (s *state) flag(name string) *kong.Flag {
	for _, f := range s.flags() {
		if f.Name == name || slices.Contains(f.Aliases, name) || slices.Contains(negations(f), "--"+name) {
			return f
		}
	}
	return nil
}

func (s *state) short(r rune) *kong.Flag {
	for _, f := range s.flags() {
		if f.Short == r {
			return f
		}
	}
	return nil
}

// negations are the --no-NAME forms of a negatable bool flag.
func negations(f *kong.Flag) []string {
	switch neg := f.Tag.Negatable; {
	case neg == "":
		return nil
	case neg == "_": // negatable:"" (kong does not export the name of this marker)
		return []string{"--no-" + f.Name}
	default:
		return []string{"--" + neg}
	}
}

// flagNames are the visible flags starting with prefix, less those given
// already that cannot be repeated.
func (s *state) flagNames(prefix string) []Candidate {
	var out []Candidate
	for _, f := range s.flags() {
		if f.Hidden || (s.seen[f] && !f.IsCumulative() && !f.IsCounter()) {
			continue
		}
		help := summary(f.Help)
		names := append([]string{"--" + f.Name}, negations(f)...)
		if f.Short != 0 && prefix == "-" {
			names = append(names, "-"+string(f.Short))
		}
		for _, name := range names {
			if strings.HasPrefix(name, prefix) {
				out = append(out, Candidate{name, help})
			}
		}
	}
	return out
}

// argument is the positional argument the next word fills, if any: the
// last one takes every further word when it is a list.
func (s *state) argument() *kong.Value {
	args := s.line.Node.Positional
	switch {
	case s.positional < len(args):
		return args[s.positional]
	case len(args) > 0 && args[len(args)-1].IsCumulative():
		return args[len(args)-1]
	}
	return nil
}

// values completes a value of v starting with prefix, from the predictor
// or the model, keeping only those that do; each candidate is written
// after lead (a flag's "--name=", or nothing).
func (c *Completer) values(s *state, v *kong.Value, prefix, lead string) Result {
	var found []Candidate
	directive := None
	switch p := c.predictor(s.line.Node, v); {
	case p != nil:
		found = p(s.line, prefix)
	case v.Enum != "":
		for _, e := range v.EnumSlice() {
			if e != "" {
				found = append(found, Candidate{Value: e})
			}
		}
	case v.IsBool():
	default:
		directive = pathDirective(v)
	}
	out := Result{Directive: directive}
	for _, cand := range found {
		if strings.HasPrefix(cand.Value, prefix) {
			cand.Value = lead + cand.Value
			out.Candidates = append(out.Candidates, cand)
		}
	}
	return out
}

func (c *Completer) predictor(node *kong.Node, v *kong.Value) Predictor {
	if c.Predict == nil {
		return nil
	}
	return c.Predict(node, v)
}

// pathDirective says whether a value names a file or a folder, from its
// kong type or its placeholder.
func pathDirective(v *kong.Value) Directive {
	placeholder := ""
	if v.Flag != nil {
		placeholder = v.Flag.PlaceHolder
	}
	switch {
	case v.Tag.Type == "existingdir" || placeholder == "DIR":
		return Dirs
	case v.Tag.Type == "path" || v.Tag.Type == "existingfile" || v.Tag.Type == "filecontent" ||
		placeholder == "FILE" || placeholder == "PATH":
		return Files
	}
	return None
}

// summary is the first sentence of a help text, on one line.
func summary(help string) string {
	help = strings.Join(strings.Fields(help), " ")
	if i := strings.Index(help, ". "); i >= 0 {
		help = help[:i+1]
	}
	return help
}

// joinSplitFlagValues undoes bash's splitting of "--flag=value" at "="
// (bash passes "--flag", "=", "value"), and reports whether the word being
// completed was split so: bash then replaces only the text after "=".
func joinSplitFlagValues(words []string) ([]string, bool) {
	out := make([]string, 0, len(words))
	split := false
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w == "=" && len(out) > 0 && strings.HasPrefix(out[len(out)-1], "-") && !strings.Contains(out[len(out)-1], "=") {
			out[len(out)-1] += "="
			split = i == len(words)-1
			if i+1 < len(words) {
				i++
				out[len(out)-1] += words[i]
				split = i == len(words)-1
			}
			continue
		}
		out = append(out, w)
	}
	return out, split
}
