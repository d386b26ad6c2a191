package clidoc

import (
	"strings"
	"testing"
)

func TestEscapeInline(t *testing.T) {
	for in, want := range map[string]string{
		"innodb_buffer_pool_size":       "innodb_buffer_pool_size",
		"'_' and _x_":                   `'\_' and \_x\_`,
		"*.sql and run=* folders":       `\*.sql and run=\* folders`,
		"run=<id>/ and `x`":             "run=\\<id>/ and \\`x\\`",
		"[client] and [joinbench]":      "[client] and [joinbench]",
		"[text](url) and [a][b]":        `[text\](url) and [a\][b]`,
		"~/.my.cnf and a~b~":            `~/.my.cnf and a\~b\~`,
		`C:\path`:                       `C:\\path`,
		"l1_id..l5_id, $XDG_STATE_HOME": "l1_id..l5_id, $XDG_STATE_HOME",
	} {
		if got := escapeInline(in); got != want {
			t.Errorf("escapeInline(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"- not a list":    `\- not a list`,
		"1. not a list":   `1\. not a list`,
		"# not a heading": `\# not a heading`,
		"2025 was a year": "2025 was a year",
	} {
		if got := escapeLineStart(in); got != want {
			t.Errorf("escapeLineStart(%q) = %q, want %q", in, got, want)
		}
	}
}

// Detail texts follow go/doc rules, as kong's --help does: indented lines
// are code, indented dashes a list, and wrapped lines one paragraph.
func TestDocText(t *testing.T) {
	var b strings.Builder
	md := &markdownWriter{w: &b, level: 3}
	md.docText(`Reads the files
and prints them.

Formats:
  - text, for people
  - json, for *scripts*

Example:

    joinbench x --flag
    joinbench y`)
	want := "Reads the files and prints them.\n\n" +
		"Formats:\n\n" +
		"- text, for people\n- json, for \\*scripts\\*\n\n" +
		"Example:\n\n" +
		"```\njoinbench x --flag\njoinbench y\n```\n\n"
	if got := b.String(); got != want {
		t.Errorf("docText:\n%s\nwant:\n%s", got, want)
	}
}
