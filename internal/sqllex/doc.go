// Package sqllex is the one place that knows the lexical rules of
// MySQL-family SQL that joinbench needs outside the full parser: quoting of
// identifiers and strings, comments, optimizer hints and placeholders.
//
// It parses nothing beyond tokens (the analyzer uses the TiDB parser for
// that) and links no driver.
package sqllex
