package analyzer

import "sort"

// place fills in a finding's line and column and its end. A finding given
// no end spans what starts at its offset: a comment, or a token extended
// over a qualified name (t.col, db.t.col); a finding at no token (in the
// header, say) spans the rest of its line.
func (u *unit) place(d *Diagnostic) {
	d.Offset = min(max(d.Offset, 0), len(u.src))
	if d.EndOffset <= d.Offset {
		d.EndOffset = u.spanEnd(d.Offset)
	}
	d.EndOffset = min(d.EndOffset, len(u.src))
	d.Line, d.Col = u.position(d.Offset)
	d.EndLine, d.EndCol = u.position(d.EndOffset)
}

func (u *unit) spanEnd(off int) int {
	for _, c := range u.comments {
		if c.Start == off {
			return c.End
		}
	}
	i := sort.Search(len(u.toks), func(i int) bool { return u.toks[i].Start >= off })
	if i < len(u.toks) && u.toks[i].Start == off {
		end := u.toks[i].End
		for i+2 < len(u.toks) && u.toks[i+1].Punct(".") && u.toks[i+1].Start == end && u.toks[i+2].Start == u.toks[i+1].End &&
			(u.toks[i+2].Kind == TokIdent || u.toks[i+2].Kind == TokPlaceholder || u.toks[i+2].Punct("*")) {
			end = u.toks[i+2].End
			i += 2
		}
		return end
	}
	end := off
	for end < len(u.src) && u.src[end] != '\n' && u.src[end] != '\r' {
		end++
	}
	if end == off && off < len(u.src) {
		end = off + 1
	}
	return end
}
