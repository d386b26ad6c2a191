package action

import (
	"errors"
	"fmt"
	"strings"

	"github.com/joinbench/joinbench/internal/sqllex"
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

// dmlToken is a token of a statement that the server reads (no white
// space, no comment, no hint), with its parenthesis depth.
type dmlToken struct {
	sqllex.Token
	text  string
	depth int
}

func (t dmlToken) is(word string) bool {
	return t.Kind == sqllex.Word && strings.EqualFold(t.text, word)
}

// name is the identifier the token spells, backquotes removed.
func (t dmlToken) name(src string) string {
	if t.Kind == sqllex.QuotedIdent {
		return t.Unquote(src)
	}
	return t.text
}

// dmlTokens returns the tokens of s that the server reads. The content of
// an executable comment is SQL to the server, so it is read too.
func dmlTokens(s string) ([]dmlToken, error) {
	sc := sqllex.NewScanner(s, 0)
	var out []dmlToken
	depth := 0
	for t := sc.NextNonSpace(); t.Kind != sqllex.EOF; t = sc.NextNonSpace() {
		switch t.Kind {
		case sqllex.LineComment, sqllex.BlockComment, sqllex.Hint, sqllex.ExecStart, sqllex.ExecEnd:
			continue
		}
		text := t.Text(s)
		if text == "(" {
			depth++
		}
		out = append(out, dmlToken{Token: t, text: text, depth: depth})
		if text == ")" {
			depth--
		}
	}
	if err := sc.Err(); err != nil {
		return nil, errors.New(err.Msg)
	}
	return out, nil
}

// splitDML takes a single-table DELETE or UPDATE apart (see chunkable).
// Statements that already limit or order themselves, and multi-table
// ones, cannot be chunked.
func splitDML(stmt string) (chunkable, error) {
	s := strings.TrimRight(strings.TrimSpace(stmt), "; \t\n")
	toks, err := dmlTokens(s)
	if err != nil {
		return chunkable{}, err
	}
	if len(toks) == 0 || !(toks[0].is("DELETE") || toks[0].is("UPDATE")) {
		return chunkable{}, errors.New("chunked needs a DELETE or UPDATE statement")
	}
	c := chunkable{Verb: strings.ToUpper(toks[0].text)}
	i, err := c.readTable(s, toks)
	if err != nil {
		return chunkable{}, err
	}
	where, err := c.findWhere(toks, i)
	if err != nil {
		return chunkable{}, err
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
	c.Head = strings.TrimSpace(s[:toks[where].Start])
	c.Cond = strings.TrimSpace(s[toks[where].End:])
	if c.Cond == "" {
		return chunkable{}, errors.New("WHERE without a condition")
	}
	return c, nil
}

// readTable reads the modifiers, FROM (DELETE) and [schema.]table that
// follow the verb, and returns the index of the token after them.
func (c *chunkable) readTable(s string, toks []dmlToken) (int, error) {
	i := 1
	for i < len(toks) && (toks[i].is("LOW_PRIORITY") || toks[i].is("QUICK") || toks[i].is("IGNORE")) {
		i++
	}
	if c.Verb == "DELETE" {
		if i >= len(toks) || !toks[i].is("FROM") {
			return 0, errors.New("chunked needs DELETE FROM one table")
		}
		i++
	}
	if i >= len(toks) || toks[i].text == "(" {
		return 0, errors.New("no table after " + c.Verb)
	}
	c.Table = toks[i].name(s)
	i++
	if i+1 < len(toks) && toks[i].text == "." {
		c.Schema, c.Table = c.Table, toks[i+1].name(s)
		i += 2
	}
	return i, nil
}

// findWhere returns the index of the statement's own WHERE from toks[i]
// on (-1 without one), refusing what chunks cannot be added to: several
// tables, a LIMIT, ORDER BY or RETURNING of its own.
func (c *chunkable) findWhere(toks []dmlToken, i int) (int, error) {
	where := -1
	for j := i; j < len(toks); j++ {
		t := toks[j]
		if t.depth > 0 {
			continue
		}
		switch {
		case t.text == "," && where < 0 && c.Verb == "UPDATE" && !seenSet(toks[i:j]):
			return 0, errors.New("chunked needs a single-table statement")
		case t.is("JOIN") || t.is("USING"):
			return 0, errors.New("chunked needs a single-table statement")
		case t.is("LIMIT") || t.is("ORDER") || t.is("RETURNING"):
			return 0, fmt.Errorf("chunked adds its own chunks: remove the statement's %s", strings.ToUpper(t.text))
		case t.is("WHERE") && where < 0:
			where = j
		}
	}
	return where, nil
}

func seenSet(toks []dmlToken) bool {
	for _, t := range toks {
		if t.depth == 0 && t.is("SET") {
			return true
		}
	}
	return false
}
