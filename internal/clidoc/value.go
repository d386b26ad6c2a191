package clidoc

import (
	"strings"

	"github.com/alecthomas/kong"
)

// kongNegatableDefault is the Negatable of a flag tagged negatable:""
// (its negation is --no-NAME); kong does not export it.
const kongNegatableDefault = "_"

// flagSyntax is the flag as the left column of --help shows it, each
// flag name written by name and the placeholder by placeholder. A flag
// with a negation of its own shows it as the flag it is (--NAME/--NEG).
func flagSyntax(f *kong.Flag, name, placeholder func(string) string) string {
	s := name("--" + f.Name)
	switch neg := f.Tag.Negatable; {
	case f.IsBool() && neg == kongNegatableDefault:
		s = name("--[no-]" + f.Name)
	case f.IsBool() && neg != "":
		s += "/" + name("--"+neg)
	}
	if f.Short != 0 {
		s = name("-"+string(f.Short)) + ", " + s
	}
	if !f.IsBool() && !f.IsCounter() {
		s += "=" + placeholder(f.FormatPlaceHolder())
	}
	return s
}

func plain(s string) string { return s }

// valueNotes are what --help shows of a flag or argument only in its
// placeholder or not at all: that it is required, the values it takes,
// and, with defaults set, its default and environment variables. list
// writes a list of values.
func valueNotes(v *kong.Value, list func([]string) string, defaults bool) []string {
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
		notes = append(notes, "One of: "+list(values)+".")
	}
	if !defaults {
		return notes
	}
	if d := defaultOf(v); d != nil {
		notes = append(notes, "Default: "+list(d)+".")
	}
	if v.Tag != nil && len(v.Tag.Envs) > 0 {
		notes = append(notes, "Environment: "+list(v.Tag.Envs)+".")
	}
	return notes
}

// defaultOf is the default --help shows, none for an empty one.
func defaultOf(v *kong.Value) []string {
	if !v.HasDefault || v.Default == "" {
		return nil
	}
	return []string{v.Default}
}

// withNotes is a help text already on one line followed by its notes, a
// full stop between them.
func withNotes(text string, notes []string) string {
	if len(notes) > 0 && text != "" && !strings.HasSuffix(text, ".") {
		text += "."
	}
	return strings.TrimSpace(text + " " + strings.Join(notes, " "))
}

// oneLine is a text with its runs of white space (line breaks too) as
// one space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
