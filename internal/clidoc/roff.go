package clidoc

import (
	"bufio"
	"go/doc/comment"
	"strings"
)

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
			r.text(plainText(b.Text))
		case *comment.Heading:
			r.raw(bold(plainText(b.Text)))
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
						r.text(plainText(p.Text))
					}
				}
			}
		}
	}
}

// plainText is the text of a paragraph without its markup.
func plainText(texts []comment.Text) string {
	var b strings.Builder
	for _, t := range texts {
		switch t := t.(type) {
		case comment.Plain:
			b.WriteString(string(t))
		case comment.Italic:
			b.WriteString(string(t))
		case *comment.Link:
			b.WriteString(plainText(t.Text))
		case *comment.DocLink:
			b.WriteString(plainText(t.Text))
		}
	}
	return b.String()
}

// esc escapes text for roff: backslashes, and hyphens as minus signs so
// that flags copied from the rendered page work.
func esc(s string) string {
	return strings.NewReplacer(`\`, `\e`, "-", `\-`).Replace(s)
}

// bold and italic escape s and set it in bold or italics.
func bold(s string) string   { return `\fB` + esc(s) + `\fR` }
func italic(s string) string { return `\fI` + esc(s) + `\fR` }
