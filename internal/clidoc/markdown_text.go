package clidoc

import (
	"fmt"
	"go/doc/comment"
	"strings"
	"unicode"
)

// cell makes rendered Markdown safe inside a table cell.
func cell(markdown string) string {
	return strings.ReplaceAll(markdown, "|", `\|`)
}

func codeList(values []string) string {
	var out []string
	for _, v := range values {
		out = append(out, "`"+inlineCode(v)+"`")
	}
	return strings.Join(out, ", ")
}

// inlineCode makes s safe inside a single-backtick code span.
func inlineCode(s string) string {
	return strings.ReplaceAll(s, "`", "'")
}

// Anchor is the id GitHub gives a heading: lower case, spaces to hyphens,
// other punctuation dropped.
func Anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || isWordRune(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// docText writes a help text formatted by go/doc rules (as kong's --help
// wraps it): paragraphs, lists, and indented blocks kept as code.
func (md *markdownWriter) docText(text string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	doc := new(comment.Parser).Parse(text)
	for _, block := range doc.Content {
		md.block(block)
		md.line("")
	}
}

func (md *markdownWriter) block(block comment.Block) {
	switch b := block.(type) {
	case *comment.Paragraph:
		md.line("%s", escapeLineStart(inlineText(b.Text)))
	case *comment.Heading:
		md.line("%s %s", strings.Repeat("#", md.level+1), inlineText(b.Text))
	case *comment.Code:
		md.line("```")
		fmt.Fprint(md.w, b.Text)
		md.line("```")
	case *comment.List:
		for i, item := range b.Items {
			marker := "-"
			if item.Number != "" {
				marker = fmt.Sprintf("%d.", i+1)
			}
			for j, content := range item.Content {
				if p, ok := content.(*comment.Paragraph); ok && j == 0 {
					md.line("%s %s", marker, inlineText(p.Text))
					continue
				}
				if p, ok := content.(*comment.Paragraph); ok {
					md.line("  %s", inlineText(p.Text))
				}
			}
		}
	}
}

// inlineText renders the text of a paragraph on one line.
func inlineText(texts []comment.Text) string {
	var b strings.Builder
	for _, t := range texts {
		switch t := t.(type) {
		case comment.Plain:
			b.WriteString(escapeInline(string(t)))
		case comment.Italic:
			b.WriteString(escapeInline(string(t)))
		case *comment.Link:
			b.WriteString(inlineText(t.Text))
		case *comment.DocLink:
			b.WriteString("[" + inlineText(t.Text) + "]")
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// escapeInline escapes what Markdown would otherwise read as emphasis,
// code, HTML or a link in a help text, and nothing more, so that the file
// stays readable as text: an underscore inside a word
// (innodb_buffer_pool_size) cannot start emphasis, a tilde after a space
// cannot end a strikethrough, and brackets make a link only before "(" or
// "[".
func escapeInline(s string) string {
	var b strings.Builder
	runes := []rune(s)
	for i, r := range runes {
		prev, next := ' ', ' '
		if i > 0 {
			prev = runes[i-1]
		}
		if i+1 < len(runes) {
			next = runes[i+1]
		}
		switch {
		case r == '\\' || r == '`' || r == '*' || r == '<':
			b.WriteByte('\\')
		case r == '_' && !(isWordRune(prev) && isWordRune(next)):
			b.WriteByte('\\')
		case r == '~' && !unicode.IsSpace(prev):
			b.WriteByte('\\')
		case r == ']' && (next == '(' || next == '['):
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// escapeLineStart keeps a paragraph that begins like a list item, a quote or
// a heading ("1. ", "- ", "> ", "# ") a paragraph.
func escapeLineStart(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '#', '-', '+', '=', '>':
		return `\` + s
	}
	if i := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsDigit(r) }); i > 0 && (s[i] == '.' || s[i] == ')') {
		return s[:i] + `\` + s[i:]
	}
	return s
}
