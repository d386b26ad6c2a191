package ab

import (
	"io"
	"strings"
)

// prefixWriter writes each line given to w with a prefix: the two sides'
// notices in lockstep, printed as they come, say whose they are.
type prefixWriter struct {
	w      io.Writer
	prefix string
}

func (p prefixWriter) Write(b []byte) (int, error) {
	text := strings.TrimSuffix(string(b), "\n")
	text = p.prefix + strings.ReplaceAll(text, "\n", "\n"+p.prefix) + "\n"
	if _, err := io.WriteString(p.w, text); err != nil {
		return 0, err
	}
	return len(b), nil
}
