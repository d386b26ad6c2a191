package shellcomplete

import (
	"bufio"
	"io"
	"strings"
)

// Write writes a result as the scripts read it: one candidate a line, its
// value and description separated by a tab, then the directive on a line
// of its own after a colon (":files").
func Write(w io.Writer, r Result) error {
	b := bufio.NewWriter(w)
	for _, c := range r.Candidates {
		b.WriteString(oneLine(c.Value))
		b.WriteByte('\t')
		b.WriteString(oneLine(c.Description))
		b.WriteByte('\n')
	}
	directive := r.Directive
	if directive == "" {
		directive = None
	}
	b.WriteString(":" + string(directive) + "\n")
	return b.Flush()
}

func oneLine(s string) string {
	return strings.NewReplacer("\n", " ", "\t", " ").Replace(s)
}
