package action

import (
	"fmt"
	"slices"
	"strings"
)

// kinds are every kind of action, in the order help lists them. A new
// kind is a file of its own and a line here.
var kinds = []*Kind{sqlKind, rsuKind, execKind, chunkedKind, pauseKind, lockKind, restartKind, slowKind, crashKind}

// Kinds returns every kind of action, in the order help lists them.
func Kinds() []*Kind { return slices.Clone(kinds) }

// Lookup returns the kind named name, or nil.
func Lookup(name string) *Kind {
	for _, k := range kinds {
		if k.Name == name {
			return k
		}
	}
	return nil
}

// Names returns the kinds' names.
func Names() []string {
	var out []string
	for _, k := range kinds {
		out = append(out, k.Name)
	}
	return out
}

// namesWhere returns the names of the kinds that have a property.
func namesWhere(has func(*Kind) bool) []string {
	var out []string
	for _, k := range kinds {
		if has(k) {
			out = append(out, k.Name)
		}
	}
	return out
}

// Usage lists the kinds' syntax as the --action help does:
// 'sql: STATEMENT' (TOI on Galera), 'rsu: STATEMENT', ... or 'restart [DURATION]'.
func Usage() string {
	var out []string
	for _, k := range kinds {
		s := "'" + k.Syntax + "'"
		if k.Note != "" {
			s += " (" + k.Note + ")"
		}
		out = append(out, s)
	}
	return orList(out)
}

// orList joins items as "a, b or c".
func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// DocTable is docs/workflow.md's table of kinds, from each kind's Syntax
// and Doc: a new kind's row is written by its own file.
func DocTable() string {
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	var b strings.Builder
	b.WriteString("| kind | what it does |\n|---|---|\n")
	for _, k := range kinds {
		fmt.Fprintf(&b, "| `%s` | %s |\n", cell(k.Syntax), cell(k.Doc))
	}
	return b.String()
}
