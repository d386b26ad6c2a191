package corpus

import (
	"fmt"
	"strings"

	"github.com/joinbench/joinbench/ddl"
)

// KindEnum is enum(TABLE.COLUMN): one member of an ENUM column, read from
// the schema (TABLE may be a family), bound as a string.
const KindEnum = "enum"

var _ = registerKind(membersKind(KindEnum))

// membersKind is the kind of enum(TABLE.COLUMN) and set(TABLE.COLUMN),
// which differ only in the type of column they name.
func membersKind(name string) *kind {
	return &kind{
		name:    name,
		draw:    drawChoice,
		args:    columnArg,
		compile: compileMembers,
		check:   checkMembers,
		fits:    membersFit,
	}
}

// columnArg checks the one argument of enum(TABLE.COLUMN) and
// set(TABLE.COLUMN).
func columnArg(d decl) error {
	if err := d.want(1); err != nil {
		return err
	}
	t, c, ok := strings.Cut(d.prm.Args[0], ".")
	if !ok || !isIdent(t) || !isIdent(c) {
		return d.argErrorf(0, "%s(%s): expected table.column", d.prm.Kind, d.prm.Args[0])
	}
	return nil
}

// compileMembers makes the members of the ENUM or SET column the
// parameter names its choices; the column must be of the parameter's
// kind.
func compileMembers(c compiling, g *gen) error {
	prm := c.prm
	tname, cname, _ := strings.Cut(prm.Args[0], ".")
	tabs := tables(c.schema, tname, c.opts)
	if len(tabs) == 0 {
		return c.errorf(0, "%s(%s): no table or table family %q in the schema", prm.Kind, prm.Args[0], tname)
	}
	col := tabs[0].Column(cname)
	if col == nil {
		return c.errorf(0, "%s(%s): table %s has no column %q", prm.Kind, prm.Args[0], tabs[0].Name, cname)
	}
	if col.Type.Base != prm.Kind || len(col.Type.Members) == 0 {
		return c.errorf(0, "%s(%s): column %s.%s is %s, not %s", prm.Kind, prm.Args[0], tabs[0].Name, col.Name, col.Type.Base, strings.ToUpper(prm.Kind))
	}
	g.setChoices(col.Type.Members)
	return nil
}

// members returns the members of the ENUM or SET column the parameter
// names, or why there are none; nil and "" when the schema is unknown.
func members(c checking) ([]string, string) {
	tn, cn, _ := strings.Cut(c.prm.Args[0], ".")
	if c.schema == nil {
		return nil, ""
	}
	ts := c.tables(tn)
	if len(ts) == 0 {
		return nil, "no table " + tn + " in the schema"
	}
	col := ts[0].Column(cn)
	if col == nil {
		return nil, "table " + ts[0].Name + " has no column " + cn
	}
	if col.Type.Base != "enum" && col.Type.Base != "set" {
		return nil, fmt.Sprintf("%s.%s is %s, not ENUM or SET", tn, cn, strings.ToUpper(col.Type.Base))
	}
	return col.Type.Members, ""
}

func checkMembers(c checking) string {
	_, why := members(c)
	return why
}

// membersFit checks the members against the column they are compared
// with.
func membersFit(c checking, col *ddl.Column) string {
	if m, why := members(c); why == "" && m != nil {
		return choicesFit(m, col.Type)
	}
	return ""
}
