package replay

import (
	"errors"
	"fmt"
	"strings"
)

// chunkable is a single-table DELETE or UPDATE taken apart where a chunk
// condition goes: Head is the statement up to its WHERE, Cond the WHERE
// condition ("" without one).
type chunkable struct {
	Verb   string // DELETE or UPDATE
	Schema string // "" when the table is not qualified
	Table  string
	Head   string
	Cond   string
}

// withCond is the statement with extra ANDed to its condition.
func (c chunkable) withCond(extra string) string {
	if c.Cond == "" {
		return c.Head + " WHERE " + extra
	}
	return c.Head + " WHERE (" + c.Cond + ") AND " + extra
}

// token is a word, a quoted identifier or one punctuation character of a
// statement, outside strings and comments.
type token struct {
	text  string // as written
	pos   int    // byte offset
	depth int    // parenthesis depth
	ident bool   // backquoted identifier
}

func (t token) is(word string) bool { return !t.ident && strings.EqualFold(t.text, word) }

// tokens splits a statement into tokens, skipping strings and comments.
func tokens(s string) ([]token, error) {
	var out []token
	depth := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '#' || (c == '-' && strings.HasPrefix(s[i:], "-- ")):
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '/' && strings.HasPrefix(s[i:], "/*"):
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return nil, errors.New("unterminated comment")
			}
			i += j + 4
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for ; j < len(s); j++ {
				if s[j] == '\\' && c != '`' {
					j++
					continue
				}
				if s[j] == c {
					if j+1 < len(s) && s[j+1] == c {
						j++
						continue
					}
					break
				}
			}
			if j >= len(s) {
				return nil, fmt.Errorf("unterminated %c quote", c)
			}
			if c == '`' {
				out = append(out, token{text: s[i : j+1], pos: i, depth: depth, ident: true})
			} else {
				out = append(out, token{text: "'", pos: i, depth: depth})
			}
			i = j + 1
		case isWordByte(c):
			j := i
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			out = append(out, token{text: s[i:j], pos: i, depth: depth})
			i = j
		default:
			if c == '(' {
				depth++
			}
			out = append(out, token{text: string(c), pos: i, depth: depth})
			if c == ')' {
				depth--
			}
			i++
		}
	}
	return out, nil
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func unquoteIdent(t token) string {
	if !t.ident {
		return t.text
	}
	return strings.ReplaceAll(t.text[1:len(t.text)-1], "``", "`")
}

// splitDML takes a single-table DELETE or UPDATE apart (see chunkable).
// Statements that already limit or order themselves, and multi-table
// ones, cannot be chunked.
func splitDML(stmt string) (chunkable, error) {
	s := strings.TrimRight(strings.TrimSpace(stmt), "; \t\n")
	toks, err := tokens(s)
	if err != nil {
		return chunkable{}, err
	}
	if len(toks) == 0 || !(toks[0].is("DELETE") || toks[0].is("UPDATE")) {
		return chunkable{}, errors.New("chunked needs a DELETE or UPDATE statement")
	}
	c := chunkable{Verb: strings.ToUpper(toks[0].text)}
	i := 1
	for i < len(toks) && (toks[i].is("LOW_PRIORITY") || toks[i].is("QUICK") || toks[i].is("IGNORE")) {
		i++
	}
	if c.Verb == "DELETE" {
		if i >= len(toks) || !toks[i].is("FROM") {
			return chunkable{}, errors.New("chunked needs DELETE FROM one table")
		}
		i++
	}
	// [schema.]table
	if i >= len(toks) || toks[i].text == "(" {
		return chunkable{}, errors.New("no table after " + c.Verb)
	}
	c.Table = unquoteIdent(toks[i])
	i++
	if i+1 < len(toks) && toks[i].text == "." {
		c.Schema, c.Table = c.Table, unquoteIdent(toks[i+1])
		i += 2
	}
	where := -1
	for j := i; j < len(toks); j++ {
		t := toks[j]
		if t.depth > 0 {
			continue
		}
		switch {
		case t.text == "," && where < 0 && c.Verb == "UPDATE" && !seenSet(toks[i:j]):
			return chunkable{}, errors.New("chunked needs a single-table statement")
		case t.is("JOIN") || t.is("USING"):
			return chunkable{}, errors.New("chunked needs a single-table statement")
		case t.is("LIMIT") || t.is("ORDER") || t.is("RETURNING"):
			return chunkable{}, fmt.Errorf("chunked adds its own chunks: remove the statement's %s", strings.ToUpper(t.text))
		case t.is("WHERE") && where < 0:
			where = j
		}
	}
	if c.Verb == "DELETE" && i < len(toks) && where != i {
		return chunkable{}, fmt.Errorf("chunked needs DELETE FROM table [WHERE ...], not %q after the table", toks[i].text)
	}
	if c.Verb == "UPDATE" && !seenSet(toks[i:]) {
		return chunkable{}, errors.New("chunked needs UPDATE table SET ...")
	}
	if where < 0 {
		c.Head = s
		return c, nil
	}
	c.Head = strings.TrimSpace(s[:toks[where].pos])
	c.Cond = strings.TrimSpace(s[toks[where].pos+len(toks[where].text):])
	if c.Cond == "" {
		return chunkable{}, errors.New("WHERE without a condition")
	}
	return c, nil
}

func seenSet(toks []token) bool {
	for _, t := range toks {
		if t.depth == 0 && t.is("SET") {
			return true
		}
	}
	return false
}
