package clidoc

import (
	"bufio"
	"fmt"
	"io"
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

// WriteManPage writes the manual page of app. The output depends on the
// model and p only (no date, no version), so that it can be checked in
// and compared with a fresh rendering.
func WriteManPage(w io.Writer, app *kong.Application, p Page) error {
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
	r.raw(bold(app.Name) + " " + esc(strings.TrimSpace(app.Summary())))
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
			r.raw(bold(e.name))
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
	r.raw(bold(rootOf(node).Name + " " + node.Summary()))
	r.macro("PP")
	r.doc(node.Help)
	if node.Detail != "" {
		r.macro("PP")
		r.doc(node.Detail)
	}
	if len(node.Positional) > 0 {
		r.macro("PP")
		r.raw(italic("Arguments"))
		for _, arg := range node.Positional {
			r.macro("TP")
			r.raw(italic(arg.Summary()))
			r.text(manValueHelp(arg))
		}
	}
	for _, g := range groupFlags(commandFlags(node)) {
		if isShared(shared, g) {
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
		r.raw(italic(title))
	}
	for _, f := range g.flags {
		r.macro("TP")
		r.raw(flagSyntax(f, bold, italic))
		r.text(manValueHelp(f.Value))
	}
}

// manValueHelp is a flag's or argument's help on one line, followed by
// its notes: the page has no columns for defaults and environment.
func manValueHelp(v *kong.Value) string {
	return withNotes(oneLine(v.Help), valueNotes(v, commaList, true))
}

func commaList(values []string) string { return strings.Join(values, ", ") }

// summary is the first sentence of a help text.
func summary(help string) string {
	help = oneLine(help)
	if i := strings.Index(help, ". "); i >= 0 {
		return help[:i+1]
	}
	return help
}
