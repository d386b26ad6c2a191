// Package suggest finds the known name nearest to a mistyped one, for the
// "did you mean ...?" of an error message: a rule name on lint's command
// line, a header key of a scenario file, a table or column of a query.
//
// It must not know what the names are: callers pass the candidates.
package suggest
