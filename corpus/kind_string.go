package corpus

import (
	"fmt"
	"strings"

	"github.com/joinbench/joinbench/ddl"
)

// KindString is string(N) or string(MIN,MAX): random letters of that
// length, bound as a string.
const KindString = "string"

// maxStringLen is the longest string a string parameter draws.
const maxStringLen = 65535

var _ = registerKind(&kind{
	name: KindString,
	draw: drawString,
	args: func(d decl) error {
		prm := d.prm
		if len(prm.Args) != 1 && len(prm.Args) != 2 {
			return d.errorf("string takes (length) or (min,max), got %d arguments", len(prm.Args))
		}
		var n [2]int64
		for i, a := range prm.Args {
			v, err := parseInt(a)
			if err != nil || v < 0 || v > maxStringLen {
				return d.argErrorf(i, "string: length %q must be a whole number in 0..%d", a, maxStringLen)
			}
			n[i] = v
		}
		if len(prm.Args) == 2 && n[0] > n[1] {
			return d.argErrorf(0, "string(%d,%d): the minimum length is above the maximum", n[0], n[1])
		}
		return nil
	},
	compile: func(c compiling, g *gen) error {
		a, _ := parseInt(c.prm.Args[0])
		b := a
		if len(c.prm.Args) == 2 {
			b, _ = parseInt(c.prm.Args[1])
		}
		g.minLen, g.maxLen = int(a), int(b)
		return nil
	},
	fits: func(c checking, col *ddl.Column) string {
		t := col.Type
		if !t.IsString() {
			return "a string compared with a " + strings.ToUpper(t.Base) + " column"
		}
		if _, hi, ok := bounds(c.prm); ok && t.Length > 0 && hi > int64(t.Length) {
			return fmt.Sprintf("strings of up to %d characters do not fit the column's %d", hi, t.Length)
		}
		return ""
	},
})
