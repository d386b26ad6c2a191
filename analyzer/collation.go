package analyzer

import (
	"strings"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/server/flavor"
)

// columnCollation returns the collation a string column of t compares
// with on the targeted server, lower case: its own COLLATE, else the
// default collation of its own CHARACTER SET, else the table's COLLATE,
// else the default collation of the table's charset. "" when none of
// these is known (the column follows the database's default, which the
// model does not hold).
func columnCollation(t *ddl.Table, c *ddl.Column, fl flavor.Name) string {
	switch {
	case c.Type.Collation != "":
		return c.Type.Collation
	case c.Type.Charset != "":
		// A column's CHARACTER SET without COLLATE takes that charset's
		// default, not the table's collation.
		return defaultCollation(c.Type.Charset, fl)
	case t == nil:
		return ""
	case t.Collation != "":
		return t.Collation
	case t.Charset != "":
		return defaultCollation(t.Charset, fl)
	}
	return ""
}

// collationCharset is the character set a collation belongs to.
func collationCharset(coll string) string {
	cs, _, _ := strings.Cut(coll, "_")
	if cs == "utf8" {
		return "utf8mb3"
	}
	return cs
}

// defaultCollation is a character set's default collation on the flavour
// (SHOW CHARACTER SET): MySQL 8 made utf8mb4's default
// utf8mb4_0900_ai_ci, MariaDB 10.x keeps utf8mb4_general_ci, TiDB
// defaults to binary collations. "" for a charset not listed here.
func defaultCollation(charset string, fl flavor.Name) string {
	cs := strings.ToLower(charset)
	if cs == "utf8" {
		cs = "utf8mb3"
	}
	switch fl {
	case flavor.TiDB:
		switch cs {
		case "utf8mb4", "utf8mb3", "latin1", "ascii":
			return cs + "_bin"
		}
	case flavor.MariaDB:
		if cs == "utf8mb4" {
			return "utf8mb4_general_ci"
		}
	default: // MySQL 8 and Percona Server
		if cs == "utf8mb4" {
			return "utf8mb4_0900_ai_ci"
		}
	}
	return ddl.CommonDefaultCollation(cs)
}

// unicodeCharset reports whether a charset holds every character: when
// one side of a comparison is Unicode and the other is not, the other is
// converted to it.
func unicodeCharset(cs string) bool {
	switch cs {
	case "utf8mb4", "utf8mb3", "ucs2", "utf16", "utf16le", "utf32":
		return true
	}
	return false
}

// binaryCollation reports a _bin collation (or binary): compared with a
// case- or accent-insensitive collation of the same charset, it wins.
func binaryCollation(coll string) bool {
	return coll == "binary" || strings.HasSuffix(coll, "_bin")
}
