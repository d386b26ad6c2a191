package manpage

import (
	"bufio"
	"fmt"
	"go/doc/comment"
	"io"
	"slices"
	"strings"

	"github.com/alecthomas/kong"
)

// Page is what a manual page needs beyond the model.
type Page struct {
	Section  int       // manual section: 1 for commands
	Manual   string    // the centre of the header, e.g. "User Commands"
	Sections []Section // written after the generated ones
}

// Section is a section of the page the program writes itself; Text is
// read as a help text (go/doc comment rules).
type Section struct {
	Title string
	Text  string
}

// Write writes the manual page of app. The output depends on the model
// and p only (no date, no version), so that it can be checked in and
// compared with a fresh rendering.
func Write(w io.Writer, app *kong.Application, p Page) error {
	b := bufio.NewWriter(w)
	r := &roff{w: b}
	help := strings.TrimSpace(app.Help)
	name, _, _ := strings.Cut(help, "\n")
	r.macro("TH", strings.ToUpper(app.Name), fmt.Sprint(p.Section), "", app.Name, p.Manual)
	r.macro("nh") // no hyphenation: a flag broken at a hyphen cannot be copied
	r.macro("ad", "l")
	r.macro("SH", "NAME")
	r.text(app.Name + " - " + strings.TrimSuffix(strings.TrimPrefix(name, app.Name+" "), "."))
	r.macro("SH", "SYNOPSIS")
	r.raw(`\fB` + esc(app.Name) + `\fR ` + esc(strings.TrimSpace(app.Summary())))
	if help != "" {
		r.macro("SH", "DESCRIPTION")
		r.doc(help)
	}
	shared := sharedGroups(app.Node)
	r.macro("SH", "COMMANDS")
	for _, leaf := range app.Leaves(true) {
		r.command(leaf, shared)
	}
	if len(app.Flags) > 0 {
		r.macro("SH", "GLOBAL FLAGS")
		for _, g := range groupFlags(app.Flags) {
			r.flagList(g, false)
		}
	}
	if len(shared) > 0 {
		r.macro("SH", "SHARED FLAGS")
		r.text("Flags that several commands take alike.")
		for _, g := range shared {
			r.macro("SS", g.title+" flags")
			r.flagList(g, false)
		}
	}
	if env := environment(app.Node); len(env) > 0 {
		r.macro("SH", "ENVIRONMENT")
		for _, e := range env {
			r.macro("TP")
			r.raw(`\fB` + esc(e.name) + `\fR`)
			r.text("As " + e.flag + ". " + summary(e.help))
		}
	}
	for _, s := range p.Sections {
		r.macro("SH", strings.ToUpper(s.Title))
		r.doc(s.Text)
	}
	return b.Flush()
}

// command writes one command: usage, help, arguments, flags.
func (r *roff) command(node *kong.Node, shared []flagGroup) {
	r.macro("SS", node.FullPath())
	r.raw(`\fB` + esc(rootOf(node).Name) + " " + esc(node.Summary()) + `\fR`)
	r.macro("PP")
	r.doc(node.Help)
	if node.Detail != "" {
		r.macro("PP")
		r.doc(node.Detail)
	}
	if len(node.Positional) > 0 {
		r.macro("PP")
		r.raw(`\fIArguments\fR`)
		for _, arg := range node.Positional {
			r.macro("TP")
			r.raw(`\fI` + esc(arg.Summary()) + `\fR`)
			r.text(valueHelp(arg))
		}
	}
	for _, g := range groupFlags(commandFlags(node)) {
		if slices.ContainsFunc(shared, func(s flagGroup) bool { return s.title == g.title }) {
			r.macro("PP")
			r.text(g.title + " flags: see SHARED FLAGS.")
			continue
		}
		r.flagList(g, true)
	}
}

// flagList writes a group's flags, under its title (or "Flags") when
// titled.
func (r *roff) flagList(g flagGroup, titled bool) {
	if titled {
		title := g.title
		if title == "" {
			title = "Flags"
		}
		r.macro("PP")
		r.raw(`\fI` + esc(title) + `\fR`)
	}
	for _, f := range g.flags {
		r.macro("TP")
		r.raw(flagSyntax(f))
		r.text(valueHelp(f.Value))
	}
}

// flagSyntax is the flag as --help's left column shows it, in bold with
// its placeholder in italics.
func flagSyntax(f *kong.Flag) string {
	name := `\fB\-\-` + esc(f.Name) + `\fR`
	switch neg := f.Tag.Negatable; {
	case f.IsBool() && neg == "_":
		name = `\fB\-\-[no\-]` + esc(f.Name) + `\fR`
	case f.IsBool() && neg != "":
		name += `/\fB\-\-` + esc(neg) + `\fR`
	}
	if f.Short != 0 {
		name = `\fB\-` + esc(string(f.Short)) + `\fR, ` + name
	}
	if !f.IsBool() && !f.IsCounter() {
		name += `=\fI` + esc(f.FormatPlaceHolder()) + `\fR`
	}
	return name
}

// valueHelp is a flag's or argument's help on one line, followed by what
// --help shows only in the placeholder or not at all.
func valueHelp(v *kong.Value) string {
	text := strings.Join(strings.Fields(v.Help), " ")
	var notes []string
	if v.Required && v.Flag != nil {
		notes = append(notes, "Required.")
	}
	if v.Enum != "" {
		var values []string
		for _, e := range v.EnumSlice() {
			if e == "" {
				e = `""`
			}
			values = append(values, e)
		}
		notes = append(notes, "One of: "+strings.Join(values, ", ")+".")
	}
	if v.HasDefault && v.Default != "" {
		notes = append(notes, "Default: "+v.Default+".")
	}
	if v.Tag != nil && len(v.Tag.Envs) > 0 {
		notes = append(notes, "Environment: "+strings.Join(v.Tag.Envs, ", ")+".")
	}
	if len(notes) > 0 && text != "" && !strings.HasSuffix(text, ".") {
		text += "."
	}
	return strings.TrimSpace(text + " " + strings.Join(notes, " "))
}

type envVar struct{ name, flag, help string }

// environment lists every environment variable a visible flag reads, by
// name, with the first flag that reads it.
func environment(root *kong.Node) []envVar {
	seen := map[string]bool{}
	var out []envVar
	var visit func(n *kong.Node)
	visit = func(n *kong.Node) {
		for _, f := range n.Flags {
			if f.Hidden {
				continue
			}
			for _, e := range f.Envs {
				if !seen[e] {
					seen[e] = true
					out = append(out, envVar{e, "--" + f.Name, f.Help})
				}
			}
		}
		for _, child := range n.Children {
			if !child.Hidden {
				visit(child)
			}
		}
	}
	visit(root)
	slices.SortFunc(out, func(a, b envVar) int { return strings.Compare(a.name, b.name) })
	return out
}

// summary is the first sentence of a help text.
func summary(help string) string {
	help = strings.Join(strings.Fields(help), " ")
	if i := strings.Index(help, ". "); i >= 0 {
		return help[:i+1]
	}
	return help
}

func rootOf(node *kong.Node) *kong.Node {
	for node.Parent != nil {
		node = node.Parent
	}
	return node
}

// roff writes man(7) source.
type roff struct{ w *bufio.Writer }

// macro writes a macro or request line; an argument is quoted only when
// it holds a space or is empty (requests such as .ad take no quotes).
func (r *roff) macro(name string, args ...string) {
	r.w.WriteString("." + name)
	for _, a := range args {
		a = strings.ReplaceAll(esc(a), `"`, `\(dq`)
		if a == "" || strings.Contains(a, " ") {
			a = `"` + a + `"`
		}
		r.w.WriteString(" " + a)
	}
	r.w.WriteByte('\n')
}

// raw writes a line of roff already escaped.
func (r *roff) raw(line string) {
	if strings.HasPrefix(line, ".") || strings.HasPrefix(line, "'") {
		line = `\&` + line
	}
	r.w.WriteString(line + "\n")
}

// text writes plain text as one filled line.
func (r *roff) text(s string) {
	if s = strings.Join(strings.Fields(s), " "); s != "" {
		r.raw(esc(s))
	}
}

// doc writes a help text: paragraphs filled, lists as indented items,
// indented blocks (examples) as they are.
func (r *roff) doc(text string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	for i, block := range new(comment.Parser).Parse(text).Content {
		if i > 0 {
			r.macro("PP")
		}
		switch b := block.(type) {
		case *comment.Paragraph:
			r.text(plain(b.Text))
		case *comment.Heading:
			r.raw(`\fB` + esc(plain(b.Text)) + `\fR`)
		case *comment.Code:
			r.macro("RS", "4")
			r.macro("nf")
			for _, line := range strings.Split(strings.TrimRight(b.Text, "\n"), "\n") {
				r.raw(esc(line))
			}
			r.macro("fi")
			r.macro("RE")
		case *comment.List:
			for _, item := range b.Items {
				r.w.WriteString(".IP \\(bu 2\n") // macro would escape the bullet's backslash
				for _, content := range item.Content {
					if p, ok := content.(*comment.Paragraph); ok {
						r.text(plain(p.Text))
					}
				}
			}
		}
	}
}

func plain(texts []comment.Text) string {
	var b strings.Builder
	for _, t := range texts {
		switch t := t.(type) {
		case comment.Plain:
			b.WriteString(string(t))
		case comment.Italic:
			b.WriteString(string(t))
		case *comment.Link:
			b.WriteString(plain(t.Text))
		case *comment.DocLink:
			b.WriteString(plain(t.Text))
		}
	}
	return b.String()
}

// esc escapes text for roff: backslashes, and hyphens as minus signs so
// that flags copied from the rendered page work.
func esc(s string) string {
	return strings.NewReplacer(`\`, `\e`, "-", `\-`).Replace(s)
}
