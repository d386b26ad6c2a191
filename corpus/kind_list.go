package corpus

import (
	"strings"

	"github.com/joinbench/joinbench/ddl"
)

// KindList is list(NAME): one value of a named list, a NAME.list file of
// the corpus or a built-in list, bound as a string.
const KindList = "list"

var _ = registerKind(&kind{
	name: KindList,
	draw: drawChoice,
	args: func(d decl) error {
		if err := d.want(1); err != nil {
			return err
		}
		if !isListName(d.prm.Args[0]) {
			return d.argErrorf(0, "list(%s): expected a list name (letters, digits, _, -)", d.prm.Args[0])
		}
		return nil
	},
	compile: func(c compiling, g *gen) error {
		vals, ok := c.s.List(c.prm.Args[0])
		if !ok {
			return noSuchList(c.s, c.prm)
		}
		if len(vals) == 0 {
			return c.errorf(0, "list(%s) is empty", c.prm.Args[0])
		}
		g.setChoices(vals)
		return nil
	},
	check: func(c checking) string {
		if _, ok := c.s.List(c.prm.Args[0]); !ok {
			return "no value list named " + c.prm.Args[0]
		}
		return ""
	},
	fits: func(c checking, col *ddl.Column) string {
		if vals, ok := c.s.List(c.prm.Args[0]); ok {
			return choicesFit(vals, col.Type)
		}
		return ""
	},
})

// noSuchList is the mistake of a list(NAME) whose list the corpus does not
// have.
func noSuchList(s *Scenario, prm *Param) error {
	return s.errorf(argAt(prm, 0), "list(%s): no such list (built-in lists: %s; a corpus folder may add NAME.list files)", prm.Args[0], strings.Join(ddl.DomainNames(), ", "))
}
