package corpus

import (
	"strings"

	"github.com/joinbench/joinbench/ddl"
)

// KindID is id(TABLE): a row id in 1..the table size, bound as an integer.
const KindID = "id"

var _ = registerKind(&kind{
	name: KindID,
	draw: drawInt,
	args: tableNameArg,
	compile: func(c compiling, g *gen) error {
		if len(tables(c.schema, c.prm.Args[0], c.opts)) == 0 {
			return c.errorf(0, "id(%s): no table or table family %q in the schema", c.prm.Args[0], c.prm.Args[0])
		}
		g.lo, g.n = 1, uint64(c.opts.TableSize)
		return nil
	},
	check: func(c checking) string {
		if c.schema != nil && len(c.tables(c.prm.Args[0])) == 0 {
			return "no table " + c.prm.Args[0] + " in the schema"
		}
		return ""
	},
	fits: func(_ checking, col *ddl.Column) string {
		if !col.Type.IsInteger() {
			return "an id compared with a " + strings.ToUpper(col.Type.Base) + " column"
		}
		return ""
	},
})
