// Package sqlcompat lets the TiDB parser read MySQL and MariaDB syntax it
// lacks. Rewrite finds the known constructs in a statement's text (by
// their tokens, so strings, comments and quoted names are never touched)
// and rewrites each into text the parser reads: a clause blanked with
// spaces, brackets, backquotes or ROW inserted, a word replaced by one of
// the same length. Result.Origin maps every offset of the rewritten text
// back to the text given, so a finding on the rewritten statement points
// at the file as written. Unreadable names the constructs it has no
// rewrite for, so that a caller can say why a statement was not checked.
//
// Each Construct says whether MySQL accepts it too or only MariaDB does;
// callers choose by the server they target. Callers rewrite only a
// statement the parser has rejected, and keep the rewrite only when the
// parser reads the result: a real mistake (a misspelt keyword, a missing
// comma) matches no construct and still fails.
//
// It must not parse: it knows tokens, not grammar, and leaves parsing,
// and the judgement of what a parse means, to its callers (the analyzer,
// and the statement classification of package corpus).
package sqlcompat
