package render

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// table renders rows as aligned text or as a markdown table.
type table struct {
	head []string
	rows [][]string
	// right marks right-aligned (numeric) columns in markdown.
	right map[int]bool
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) write(w io.Writer, markdown bool) {
	if markdown {
		fmt.Fprintln(w, "| "+strings.Join(t.head, " | ")+" |")
		seps := make([]string, len(t.head))
		for i := range seps {
			seps[i] = "---"
			if t.right[i] {
				seps[i] = "---:"
			}
		}
		fmt.Fprintln(w, "|"+strings.Join(seps, "|")+"|")
		for _, r := range t.rows {
			cells := make([]string, len(r))
			for i, c := range r {
				cells[i] = strings.ReplaceAll(c, "|", `\|`)
			}
			fmt.Fprintln(w, "| "+strings.Join(cells, " | ")+" |")
		}
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(t.head, "\t"))
	for _, r := range t.rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	tw.Flush()
}

// formatMs formats milliseconds with the digits that matter at their size.
func formatMs(v float64) string {
	switch {
	case v == 0:
		return "0"
	case v < 1:
		return fmt.Sprintf("%.3f", v)
	case v < 100:
		return fmt.Sprintf("%.2f", v)
	default:
		return fmt.Sprintf("%.0f", v)
	}
}

func fpct(v float64) string { return fmt.Sprintf("%.2f%%", v*100) }

func heading(w io.Writer, md bool, level int, s string) {
	if md {
		fmt.Fprintf(w, "%s %s\n\n", strings.Repeat("#", level), s)
		return
	}
	fmt.Fprintln(w, s)
	fmt.Fprintln(w, strings.Repeat(map[bool]string{true: "=", false: "-"}[level == 1], len(s)))
}

func listItem(md bool) string {
	if md {
		return "- "
	}
	return ""
}

func indent(s, pre string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = pre + l
	}
	return strings.Join(lines, "\n")
}
