package experiment

import (
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Page is what a lesson found: its table and its verdict in words.
type Page struct {
	Lesson  string `json:"lesson"`
	Title   string `json:"title"`
	Verdict string `json:"verdict"`
	// Tally is how many of the lesson's windows (or runs, restores) were
	// judged of how many it planned; the verdict is settled by it.
	Tally Tally `json:"tally"`
	// What says what was run, in a sentence or two.
	What  string `json:"what"`
	Table Table  `json:"table"`
	// Figures are pictures of the table, drawn on the HTML page.
	Figures []Figure `json:"figures,omitempty"`
	// Sections are further tables after the lesson's, each with its
	// title, a paragraph and its notes (the restore's projection).
	Sections []Section `json:"sections,omitempty"`
	// Notes are how to read the table, and what the lesson could not do.
	Notes []string `json:"notes,omitempty"`
	// Runs are the run folders the figures come from.
	Runs []string `json:"runs"`
}

// Figure is an SVG picture of a page's figures with its caption: the
// HTML page draws it, the markdown names it.
type Figure struct {
	Caption string        `json:"caption"`
	SVG     template.HTML `json:"-"`
}

// Section is a table of its own on a page, after the lesson's.
type Section struct {
	Title string   `json:"title"`
	Text  string   `json:"text,omitempty"`
	Table Table    `json:"table"`
	Notes []string `json:"notes,omitempty"`
}

// Table is a header and rows of cells, already formatted.
type Table struct {
	Header []string   `json:"header"`
	Rows   [][]string `json:"rows"`
}

// WriteText writes the table aligned, then the verdict.
func (p *Page) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", p.Title)
	writeTextTable(&b, p.Table)
	for _, s := range p.Sections {
		fmt.Fprintf(&b, "\n%s\n\n", s.Title)
		if s.Text != "" {
			fmt.Fprintf(&b, "%s\n\n", s.Text)
		}
		writeTextTable(&b, s.Table)
		for _, n := range s.Notes {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	fmt.Fprintf(&b, "\n%s\nverdict: %s\n", p.Tally, p.Verdict)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeTextTable writes t aligned, the first column to the left.
func writeTextTable(b *strings.Builder, t Table) {
	if len(t.Header) == 0 {
		return
	}
	widths := make([]int, len(t.Header))
	for _, row := range append([][]string{t.Header}, t.Rows...) {
		for i, c := range row[:min(len(row), len(widths))] {
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	for _, row := range append([][]string{t.Header}, t.Rows...) {
		for i, c := range row[:min(len(row), len(widths))] {
			if i > 0 {
				b.WriteString("  ")
			}
			pad := widths[i] - len([]rune(c))
			if i == 0 {
				b.WriteString(c + strings.Repeat(" ", pad))
			} else {
				b.WriteString(strings.Repeat(" ", pad) + c)
			}
		}
		b.WriteString("\n")
	}
}

// WriteMarkdown writes the page as markdown.
func (p *Page) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%s\n\n**Verdict:** %s\n\n%s.\n\n", p.Title, p.What, p.Verdict, p.Tally)
	writeMarkdownTable(&b, p.Table)
	for _, sec := range p.Sections {
		fmt.Fprintf(&b, "\n## %s\n\n", sec.Title)
		if sec.Text != "" {
			fmt.Fprintf(&b, "%s\n\n", sec.Text)
		}
		writeMarkdownTable(&b, sec.Table)
		if len(sec.Notes) > 0 {
			b.WriteString("\n")
			for _, n := range sec.Notes {
				fmt.Fprintf(&b, "- %s\n", n)
			}
		}
	}
	for _, f := range p.Figures {
		fmt.Fprintf(&b, "\nA plot is on the HTML page: %s\n", f.Caption)
	}
	if len(p.Notes) > 0 {
		b.WriteString("\n")
		for _, n := range p.Notes {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	if len(p.Runs) > 0 {
		b.WriteString("\nRuns (open each with `joinbench report`):\n\n")
		for _, r := range p.Runs {
			fmt.Fprintf(&b, "- `%s`\n", r)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeMarkdownTable writes t, the first column to the left.
func writeMarkdownTable(b *strings.Builder, t Table) {
	if len(t.Header) == 0 {
		return
	}
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	b.WriteString("|")
	for _, h := range t.Header {
		b.WriteString(" " + cell(h) + " |")
	}
	b.WriteString("\n|")
	for i := range t.Header {
		if i == 0 {
			b.WriteString("---|")
		} else {
			b.WriteString("--:|")
		}
	}
	b.WriteString("\n")
	for _, row := range t.Rows {
		b.WriteString("|")
		for _, c := range row {
			b.WriteString(" " + cell(c) + " |")
		}
		b.WriteString("\n")
	}
}

// Write writes the page into dir as LESSON.md and LESSON.html, and
// returns their paths.
func (p *Page) Write(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("experiment page: %w", err)
	}
	var paths []string
	for ext, write := range map[string]func(io.Writer) error{".md": p.WriteMarkdown, ".html": p.WriteHTML} {
		path := filepath.Join(dir, p.Lesson+ext)
		f, err := os.Create(path)
		if err != nil {
			return nil, fmt.Errorf("experiment page: %w", err)
		}
		err = write(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, fmt.Errorf("write %s: %w", path, err)
		}
		paths = append(paths, path)
	}
	return paths, nil
}
