package rules

import (
	"strings"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/flavor"
)

// columnCollation returns the collation a string column of t compares
// with on the targeted server, lower case: its own COLLATE, else the
// default collation of its own CHARACTER SET, else the table's COLLATE,
// else the default collation of the table's charset, else (a table that
// names no charset follows its database's, which follows the server's)
// the server's default, serverDefault true then.
func ColumnCollation(t *ddl.Table, c *ddl.Column, fl flavor.Flavor) (coll string, serverDefault bool) {
	switch {
	case c.Type.Collation != "":
		return c.Type.Collation, false
	case c.Type.Charset != "":
		// A column's CHARACTER SET without COLLATE takes that charset's
		// default, not the table's collation.
		return defaultCollation(c.Type.Charset, fl), false
	case t != nil && t.Collation != "":
		return t.Collation, false
	case t != nil && t.Charset != "":
		return defaultCollation(t.Charset, fl), false
	}
	return serverCollation(fl), true
}

// serverCollation is the collation of a database created without one on
// the flavour, as servers are run for benchmarks (character_set_server
// utf8mb4, as the sandbox starts them and current MySQL defaults to):
// utf8mb4's default collation there. MySQL before 8.0 defaulted to
// latin1.
func serverCollation(fl flavor.Flavor) string {
	if fl.Is(flavor.MySQL, flavor.Percona) && fl.Version != "" && !fl.AtLeast(8, 0, 0) {
		return "latin1_swedish_ci"
	}
	return defaultCollation("utf8mb4", fl)
}

// collationCharset is the character set a collation belongs to.
func CollationCharset(coll string) string {
	cs, _, _ := strings.Cut(coll, "_")
	if cs == "utf8" {
		return "utf8mb3"
	}
	return cs
}

// defaultCollation is a character set's default collation on the flavour
// (SHOW CHARACTER SET): MySQL 8 made utf8mb4's default
// utf8mb4_0900_ai_ci (5.7 had utf8mb4_general_ci), MariaDB 10.x keeps
// utf8mb4_general_ci, TiDB defaults to binary collations. "" for a
// charset not listed here.
func defaultCollation(charset string, fl flavor.Flavor) string {
	cs := strings.ToLower(charset)
	if cs == "utf8" {
		cs = "utf8mb3"
	}
	switch {
	case fl.Is(flavor.TiDB):
		switch cs {
		case "utf8mb4", "utf8mb3", "latin1", "ascii":
			return cs + "_bin"
		}
	case fl.Is(flavor.MariaDB):
		if cs == "utf8mb4" {
			return "utf8mb4_general_ci"
		}
	default: // MySQL and Percona Server
		if cs == "utf8mb4" {
			if fl.Version != "" && !fl.AtLeast(8, 0, 0) {
				return "utf8mb4_general_ci"
			}
			return "utf8mb4_0900_ai_ci"
		}
	}
	return ddl.CommonDefaultCollation(cs)
}

// unicodeCharset reports whether a charset holds every character: when
// one side of a comparison is Unicode and the other is not, the other is
// converted to it.
func UnicodeCharset(cs string) bool {
	switch cs {
	case "utf8mb4", "utf8mb3", "ucs2", "utf16", "utf16le", "utf32":
		return true
	}
	return false
}

// binaryCollation reports a _bin collation (or binary): compared with a
// case- or accent-insensitive collation of the same charset, it wins.
func BinaryCollation(coll string) bool {
	return coll == "binary" || strings.HasSuffix(coll, "_bin")
}
