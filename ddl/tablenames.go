package ddl

import "strings"

// NameCase is how a server compares table names: its
// lower_case_table_names. With NamesExact (0, the default on Linux) main2
// and Main2 are two tables; with NamesLower (1, stored lower-case) and
// NamesFolded (2, stored as given, compared lower-case: macOS) they are
// one. prepare, cleanup and warmup all match the schema's tables through
// it, so that they agree on what is there.
type NameCase int

// The values of lower_case_table_names.
const (
	NamesExact  NameCase = 0
	NamesLower  NameCase = 1
	NamesFolded NameCase = 2
)

// Folds reports whether names differing in case only are one table.
func (c NameCase) Folds() bool { return c != NamesExact }

// Key is the form of a table name that two names share when the server
// takes them for one table.
func (c NameCase) Key(name string) string {
	if c.Folds() {
		return strings.ToLower(name)
	}
	return name
}
