package analyzer

import (
	"path/filepath"
	"strings"

	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/internal/sqllex"
)

// plainFile reads a file without a scenario header (a DDL file, say) as
// plain SQL: its body starts after the leading comment lines. The
// placeholders it may hold are found as the corpus finds them in a
// scenario (outside quotes and comments, in hints too); none is declared,
// so their Param is nil.
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
	lx := sqllex.NewScanner(src, off)
	for t := lx.Next(); t.Kind != sqllex.EOF; t = lx.Next() {
		switch t.Kind {
		case sqllex.Placeholder:
			sc.Uses = append(sc.Uses, corpus.Use{Start: t.Start, End: t.End})
		case sqllex.Hint:
			hs := sqllex.NewHintScanner(src, t)
			for h := hs.Next(); h.Kind != sqllex.EOF; h = hs.Next() {
				if h.Kind == sqllex.Placeholder {
					sc.Uses = append(sc.Uses, corpus.Use{Start: h.Start, End: h.End})
				}
			}
		}
	}
	return sc
}

// useName is the parameter name a placeholder use spells.
func useName(src string, use corpus.Use) string {
	return strings.TrimSpace(src[use.Start+2 : use.End-2])
}
