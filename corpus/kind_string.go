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
		if n := len(d.prm.Args); n != 1 && n != 2 {
			return d.errorf("string takes (length) or (min,max), got %d arguments", n)
		}
		_, err := d.numbers(0, maxStringLen, fmt.Sprintf("string: length %%q must be a whole number in 0..%d", maxStringLen), "the minimum length is above the maximum")
		return err
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
