package corpus

import (
	"strings"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/usage"
)

// KindTable is table(FAMILY): one table of the family per execution,
// substituted into the SQL text as a quoted identifier (the only kind that
// is not a bound value, and the only one allowed in an optimizer hint).
const KindTable = "table"

var _ = registerKind(&kind{
	name: KindTable,
	draw: drawTable,
	args: tableNameArg,
	compile: func(c compiling, g *gen) error {
		prm, opts := c.prm, c.opts
		tabs := tables(c.schema, prm.Args[0], opts)
		if len(tabs) == 0 {
			return c.errorf(0, "table(%s): no table or table family %q in the schema", prm.Args[0], prm.Args[0])
		}
		if fam := opts.family(prm.Args[0]); opts.Tables > len(tabs) && strings.EqualFold(fam, opts.family(ddl.DefaultTableName)) {
			return usage.Errorf("%s: table(%s): %d tables asked for, the schema has %d (%s1..%s%d)",
				c.s.Path, prm.Args[0], opts.Tables, len(tabs), fam, fam, len(tabs))
		}
		for _, tb := range tabs {
			if !safeIdent.MatchString(tb.Name) {
				return c.errorf(0, "table(%s): table name %q is not a plain identifier", prm.Args[0], tb.Name)
			}
			g.choices = append(g.choices, tb.Name)
		}
		g.n = uint64(len(g.choices))
		return nil
	},
	check: func(c checking) string {
		if c.schema != nil && len(c.tables(c.prm.Args[0])) == 0 {
			return "no table of family " + c.prm.Args[0] + " in the schema"
		}
		return ""
	},
})

// tableNameArg checks the one argument of table(NAME) and id(NAME): a
// table or family name.
func tableNameArg(d decl) error {
	if err := d.want(1); err != nil {
		return err
	}
	if !isIdent(d.prm.Args[0]) {
		return d.argErrorf(0, "%s(%s): expected a table or table family name", d.prm.Kind, d.prm.Args[0])
	}
	return nil
}
