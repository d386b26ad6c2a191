package work

import (
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/joinbench/joinbench/results"
)

// ParseMySQLAnalyze reads the work of an execution from MySQL's EXPLAIN
// ANALYZE output (the TREE format, 8.0.18+): a Table per iterator that reads
// a table (table scan, index scan, range scan, index lookups, constant
// row), in the tree's order, with the rows it returned over all its loops.
// MySQL prints rows per loop rounded (to an integer before 8.0.33, to three
// significant digits since), so Rows is within that rounding of the true
// count; the same output always gives the same figures. An iterator that
// never ran has no loops. Tables under a hash join's build side, or a
// batched key access join, say so in JoinBuffer.
//
// It takes the output as the server returns it, or as the mysql client
// prints it: with an "EXPLAIN: " label, inside a table's borders, with
// escaped newlines, or with the measurements wrapped onto lines of their
// own.
func ParseMySQLAnalyze(text string) (*results.Work, error) {
	lines := treeLines(text)
	if len(lines) == 0 {
		return nil, errors.New("EXPLAIN ANALYZE output: no iterator (-> ...) lines")
	}
	w := &results.Work{Source: results.SourceMySQLAnalyze}
	type frame struct {
		indent   int
		selectID int32
		buffer   string
	}
	var stack []frame
	for _, l := range lines {
		for len(stack) > 0 && stack[len(stack)-1].indent >= l.indent {
			stack = stack[:len(stack)-1]
		}
		f := frame{indent: l.indent, selectID: 1}
		if len(stack) > 0 {
			top := stack[len(stack)-1]
			f.selectID, f.buffer = top.selectID, top.buffer
		}
		desc := l.desc
		switch {
		case strings.HasPrefix(desc, "Select #"):
			if n, err := strconv.Atoi(leadingDigits(desc[len("Select #"):])); err == nil {
				f.selectID = int32(n)
			}
		case desc == "Hash":
			f.buffer = "hash"
		case strings.HasPrefix(desc, "Batched key access"):
			f.buffer = "BKA"
		}
		if t, ok := mysqlTable(desc); ok {
			t.SelectID = f.selectID
			if t.JoinBuffer == "" {
				t.JoinBuffer = f.buffer
			}
			t.Loops, t.Rows = actual(l.text)
			w.Tables = append(w.Tables, t)
		}
		stack = append(stack, f)
	}
	sumTables(w)
	return w, nil
}

// treeLine is one iterator of the tree: its indentation, its description
// (up to its estimates) and its whole text.
type treeLine struct {
	indent int
	desc   string
	text   string
}

var (
	// estimates start where a description ends: "(cost=", "(rows=" (no
	// cost model), "(actual ", "(never executed)".
	descEnd = regexp.MustCompile(`\s+\((cost=|rows=|actual |never executed)`)
	// the measurements of an iterator; the row and loop counts are plain
	// or engineering numbers (8.0.33+: 0.333, 1.2e+6).
	actualRe = regexp.MustCompile(`\(actual time=[^ ]+ rows=([0-9.eE+-]+) loops=([0-9.eE+-]+)\)`)
)

func treeLines(text string) []treeLine {
	if !strings.Contains(text, "\n") && strings.Contains(text, `\n`) {
		text = strings.ReplaceAll(text, `\n`, "\n")
	}
	var out []treeLine
	for _, raw := range strings.Split(text, "\n") {
		s := strings.TrimRight(raw, " \t\r")
		s = strings.TrimSuffix(strings.TrimPrefix(s, "|"), "|")
		s = strings.TrimPrefix(s, "EXPLAIN:")
		i := strings.Index(s, "->")
		if i < 0 || strings.TrimSpace(s[:i]) != "" {
			// measurements the client wrapped onto a line of their own
			if len(out) > 0 && strings.TrimSpace(s) != "" {
				out[len(out)-1].text += " " + strings.TrimSpace(s)
			}
			continue
		}
		body := strings.TrimSpace(s[i+2:])
		desc := body
		if loc := descEnd.FindStringIndex(body); loc != nil {
			desc = body[:loc[0]]
		}
		out = append(out, treeLine{indent: i, desc: desc, text: body})
	}
	return out
}

// accessWords maps the start of a table iterator's description, lower
// case and without "single-row " and "covering ", to its access type.
var accessWords = []struct{ prefix, access string }{
	{"table scan on ", "ALL"},
	{"index scan on ", "index"},
	{"index range scan on ", "range"},
	{"index skip scan on ", "range"},
	{"multi-range index lookup on ", "ref"},
	{"index lookup on ", "ref"},
	{"constant row from ", "const"},
	{"full-text index search on ", "fulltext"},
}

// mysqlTable reads a table iterator's description: the access, the table
// and the index ("Single-row covering index lookup on c using PRIMARY
// (CompanyId=jp.CompanyId)").
func mysqlTable(desc string) (results.WorkTable, bool) {
	d := strings.ToLower(desc)
	single := strings.HasPrefix(d, "single-row ")
	d = strings.TrimPrefix(d, "single-row ")
	d = strings.TrimPrefix(d, "covering ")
	for _, a := range accessWords {
		if !strings.HasPrefix(d, a.prefix) {
			continue
		}
		// names keep their case: cut the same length off the original
		rest := desc[len(desc)-len(d)+len(a.prefix):]
		t := results.WorkTable{Name: firstWord(rest), Access: a.access}
		if single && a.access == "ref" {
			t.Access = "eq_ref"
		}
		if j := strings.Index(rest, " using "); j >= 0 {
			t.Key = firstWord(rest[j+len(" using "):])
		}
		if strings.HasPrefix(d, "multi-range ") {
			t.JoinBuffer = "BKA"
		}
		return t, true
	}
	return results.WorkTable{}, false
}

func firstWord(s string) string {
	if i := strings.IndexAny(s, " ("); i >= 0 {
		return s[:i]
	}
	return s
}

func leadingDigits(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}

// actual returns an iterator's loops and its rows over all loops; 0, 0 when
// it never ran or has no measurements.
func actual(text string) (loops, rows int64) {
	m := actualRe.FindStringSubmatch(text)
	if m == nil {
		return 0, 0
	}
	r, err1 := strconv.ParseFloat(m[1], 64)
	l, err2 := strconv.ParseFloat(m[2], 64)
	if err1 != nil || err2 != nil {
		return 0, 0
	}
	return int64(math.Round(l)), int64(math.Round(r * l))
}
