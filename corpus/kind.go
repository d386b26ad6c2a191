package corpus

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/joinbench/joinbench/ddl"
)

// kind is one type of placeholder (table, enum, int ...): everything the
// loader, Compile and lint need to know of it. Each kind is one
// kind_*.go file registering one kind, as each lint rule is one file of
// the analyzer: adding a kind is adding such a file, its test and its
// row in README.md.
type kind struct {
	name string
	// draw is how a renderer draws the values, and so whether a
	// distribution applies (drawKind.indexed).
	draw drawKind
	// args checks the declaration's arguments without a schema (how
	// many, numbers, names); the loader refuses a file on its error.
	args func(d decl) error
	// compile resolves the declaration against the schema and sets up
	// what g draws from (choices, lo and n, lengths).
	compile func(c compiling, g *gen) error
	// check says what lint finds wrong with the declaration against the
	// schema (the checks.schema may be nil: nothing known), or "".
	check func(c checking) string
	// fits explains why the values cannot match a column they are
	// compared with, or "".
	fits func(c checking, col *ddl.Column) string
}

// kinds are the registered kinds by name.
var kinds = map[string]*kind{}

// Kinds lists every placeholder kind, sorted by name.
var Kinds []string

// registerKind adds a kind. Two kinds of one name, or a kind missing a
// part, is a bug that stops the program at start-up.
func registerKind(k *kind) *kind {
	if k.name == "" || k.args == nil || k.compile == nil {
		panic(fmt.Sprintf("corpus: placeholder kind %q needs a name, args and compile", k.name))
	}
	if kinds[k.name] != nil {
		panic("corpus: two placeholder kinds are named " + k.name)
	}
	kinds[k.name] = k
	Kinds = append(Kinds, k.name)
	sort.Strings(Kinds)
	return k
}

// decl is a declaration whose arguments a kind checks.
type decl struct {
	s       *Scenario
	prm     *Param
	kindOff int // where the kind's name is in Source
}

// errorf is a mistake at the kind's name.
func (d decl) errorf(format string, args ...any) error {
	return d.s.errorf(d.kindOff, format, args...)
}

// argErrorf is a mistake at argument i.
func (d decl) argErrorf(i int, format string, args ...any) error {
	return d.s.errorf(d.prm.argOff[i], format, args...)
}

// want checks that the kind has n arguments.
func (d decl) want(n int) error {
	if len(d.prm.Args) != n {
		return d.errorf("%s takes %s, got %d", d.prm.Kind, plural(n, "argument"), len(d.prm.Args))
	}
	return nil
}

// numbers parses the declaration's arguments, at most two, as whole
// numbers in lo..hi, and checks that a first is not above a second.
// badArg is the message for an argument that is not such a number (%q
// the argument); above, the end of the message for a first above the
// second.
func (d decl) numbers(lo, hi int64, badArg, above string) ([2]int64, error) {
	var v [2]int64
	for i, a := range d.prm.Args {
		n, err := parseInt(a)
		if err != nil || n < lo || n > hi {
			return v, d.argErrorf(i, badArg, a)
		}
		v[i] = n
	}
	if len(d.prm.Args) == 2 && v[0] > v[1] {
		return v, d.argErrorf(0, "%s(%d,%d): %s", d.prm.Kind, v[0], v[1], above)
	}
	return v, nil
}

// compiling is a declaration being compiled against a schema.
type compiling struct {
	s      *Scenario
	prm    *Param
	schema *ddl.Schema
	opts   CompileOptions
}

// errorf is a mistake at argument i, or at the name without arguments.
func (c compiling) errorf(i int, format string, args ...any) error {
	return c.s.errorf(argAt(c.prm, i), format, args...)
}

// checking is a declaration lint checks against a schema.
type checking struct {
	s      *Scenario
	prm    *Param
	schema *ddl.Schema // nil: nothing is known of the tables
}

// tables resolves a table or family name as the run does without options.
func (c checking) tables(name string) []*ddl.Table {
	if c.schema == nil {
		return nil
	}
	return tables(c.schema, name, CompileOptions{})
}

// CheckParam says what is wrong with a declaration of s against the
// schema, which the loader could not tell without one (a table family,
// an ENUM column, a list that does not exist), or "". Lint reports it;
// a nil schema checks only what needs none.
func (s *Scenario) CheckParam(prm *Param, schema *ddl.Schema) string {
	k := kinds[prm.Kind]
	if k == nil || k.check == nil {
		return ""
	}
	return k.check(checking{s: s, prm: prm, schema: schema})
}

// ParamFits explains why the values of a parameter of s cannot match the
// column col they are compared with (an ENUM member that is not one, a
// range wider than the type, a string longer than the column), or "".
func (s *Scenario) ParamFits(prm *Param, col *ddl.Column, schema *ddl.Schema) string {
	k := kinds[prm.Kind]
	if k == nil || k.fits == nil {
		return ""
	}
	return k.fits(checking{s: s, prm: prm, schema: schema}, col)
}

// choicesFit explains why values drawn from vals cannot match a column of
// type t, or "".
func choicesFit(vals []string, t ddl.Type) string {
	switch {
	case t.Base == "enum" || t.Base == "set":
		for _, v := range vals {
			if !memberOf(v, t.Members) {
				return fmt.Sprintf("%q is not one of its members (%s)", v, strings.Join(t.Members, ", "))
			}
		}
	case t.IsString():
		if t.Length > 0 {
			for _, v := range vals {
				if len([]rune(v)) > t.Length {
					return fmt.Sprintf("%q is longer than the column's %d", v, t.Length)
				}
			}
		}
	case t.IsInteger():
		for _, v := range vals {
			if _, err := strconv.ParseInt(v, 10, 64); err != nil {
				return fmt.Sprintf("%q is not an integer (the column is %s)", v, strings.ToUpper(t.Base))
			}
		}
	}
	return ""
}

func memberOf(v string, members []string) bool {
	for _, m := range members {
		if strings.EqualFold(m, v) {
			return true
		}
	}
	return false
}

// bounds reads the (LO,HI) arguments of a numeric declaration.
func bounds(prm *Param) (lo, hi int64, ok bool) {
	if len(prm.Args) != 2 {
		return 0, 0, false
	}
	lo, e1 := parseInt(prm.Args[0])
	hi, e2 := parseInt(prm.Args[1])
	return lo, hi, e1 == nil && e2 == nil && lo <= hi
}

// numberFitsString explains why numbers (what: "a year", "an integer")
// compared with a string column of type t cannot match it as meant, or
// "": the server converts each row's string to a number, so the
// column's index cannot serve and strings that start with the number
// match it too. ENUM and SET are rangeFits's to judge.
func numberFitsString(what string, t ddl.Type) string {
	if !t.IsString() || t.Base == "enum" || t.Base == "set" {
		return ""
	}
	return fmt.Sprintf("%s compared with a %s column converts every row's string to a number: the column's index cannot serve, and '2005x' matches 2005; declare a string or list parameter, or compare a numeric column",
		what, strings.ToUpper(t.Base))
}

// integerFits is the fits of a kind bound as integers (what: "a year"):
// a string column converts instead of comparing, and a declared range
// must fit the column's type.
func integerFits(what string) func(c checking, col *ddl.Column) string {
	return func(c checking, col *ddl.Column) string {
		if msg := numberFitsString(what, col.Type); msg != "" {
			return msg
		}
		if lo, hi, ok := bounds(c.prm); ok {
			return rangeFits(lo, hi, col.Type)
		}
		return ""
	}
}

// rangeFits explains why integers in lo..hi cannot match a column of type
// t, or "".
func rangeFits(lo, hi int64, t ddl.Type) string {
	if clo, chi, ok := t.IntRange(); ok && (lo < clo || hi > chi) {
		return fmt.Sprintf("range %d..%d does not fit %s (%d..%d)", lo, hi, strings.ToUpper(t.Base), clo, chi)
	}
	if t.Base == "enum" || t.Base == "set" {
		return "a number compared with an ENUM/SET compares member positions, not values"
	}
	return ""
}
