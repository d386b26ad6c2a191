package analyzer

import (
	"path/filepath"
	"strings"

	"github.com/joinbench/joinbench/corpus"
)

// plainFile reads a file without a scenario header (a DDL file, say) as
// plain SQL: its body starts after the leading comment lines. The
// placeholders it may hold are found as the corpus finds them in a
// scenario, outside comments; none is declared, so their Param is nil.
func plainFile(path, src string) *corpus.Scenario {
	sc := &corpus.Scenario{Name: strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), Path: path, Source: src}
	off := 0
	for off < len(src) {
		end := strings.IndexByte(src[off:], '\n')
		next := len(src)
		if end >= 0 {
			next = off + end + 1
		}
		if t := strings.TrimSpace(src[off:next]); t != "" && !strings.HasPrefix(t, "--") {
			break
		}
		off = next
	}
	sc.BodyOffset, sc.Body = off, src[off:]
	_, comments := tokenize(src, off, len(src))
	for _, m := range placeholderRE.FindAllStringIndex(sc.Body, -1) {
		start, end := off+m[0], off+m[1]
		if !inComment(comments, start) {
			sc.Uses = append(sc.Uses, corpus.Use{Start: start, End: end})
		}
	}
	return sc
}

func inComment(comments []comment, off int) bool {
	for _, c := range comments {
		if off >= c.Start && off < c.End {
			return true
		}
	}
	return false
}

// useName is the parameter name a placeholder use spells.
func useName(src string, use corpus.Use) string {
	return strings.TrimSpace(src[use.Start+2 : use.End-2])
}
