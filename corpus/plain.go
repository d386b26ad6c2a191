package corpus

import (
	"path/filepath"
	"strings"

	"github.com/joinbench/joinbench/internal/sqllex"
)

// ParsePlain reads a file without a scenario header (a DDL file, say) as
// plain SQL, for the analyzer's use on such files: its body starts after
// the leading comment lines, and its placeholders are found as in a
// scenario (outside quotes and comments, in hints too). None is declared,
// so their Param is nil. It never fails: whatever the text, the analyzer
// reports it.
func ParsePlain(path, src string) *Scenario {
	sc := &Scenario{Name: strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), Path: path, Source: src, Plain: true}
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
			sc.Uses = append(sc.Uses, Use{Start: t.Start, End: t.End})
		case sqllex.Hint:
			hs := sqllex.NewHintScanner(src, t)
			for h := hs.Next(); h.Kind != sqllex.EOF; h = hs.Next() {
				if h.Kind == sqllex.Placeholder {
					sc.Uses = append(sc.Uses, Use{Start: h.Start, End: h.End})
				}
			}
		}
	}
	return sc
}
