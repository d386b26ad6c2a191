package sqllex

import "strings"

// QuoteIdent quotes an identifier with backticks, doubling any backtick in
// it, as the server reads it back.
func QuoteIdent(name string) string {
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}
