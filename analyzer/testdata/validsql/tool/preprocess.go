package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"

	"github.com/joinbench/joinbench/internal/sqllex"
)

// The preprocess command tries the offline fix the README weighs first:
// rewriting MariaDB syntax the TiDB parser lacks into text it reads, before
// parsing. Each rewrite is a list of edits on the statement; most keep the
// length of what they replace (blanks), so that an error after them keeps
// its column. It is an experiment, not the analyzer's code: it says how much
// each rewrite rescues and whether it hides real mistakes.

// edit replaces text[start:end] with repl.
type edit struct {
	start, end int
	repl       string
}

// tok is a significant token (no space, no comment) with its lower-case text.
type tok struct {
	sqllex.Token
	low string
}

// rewrite finds the edits of one construct; toks are the statement's
// significant tokens.
type rewrite struct {
	name       string
	sameLength bool // every edit keeps the length of the text it replaces
	edits      func(src string, toks []tok) []edit
}

var rewrites = []rewrite{
	{"quote MySQL 8 reserved words used as names", false, quoteNames},
	{"bracket MATCH ... AGAINST", false, bracketMatch},
	{"quote dual before HAVING", false, quoteDual},
	{"ESCAPE expression -> ESCAPE '|'", false, escapeLiteral},
	{"VALUE( -> VALUES(", false, valueFunc},
	{"blank DELETE ... RETURNING list", true, blankReturning},
	{"blank multi-table UPDATE ORDER BY/LIMIT", true, blankMultiUpdateTail},
	{"blank INTO @var / INTO OUTFILE before FROM", true, blankInto},
	{"NATURAL INNER/STRAIGHT_JOIN -> NATURAL JOIN", true, naturalJoin},
	{"blank window frame EXCLUDE", true, blankExclude},
	{"blank ROWS EXAMINED", true, blankRowsExamined},
	{"blank CTE CYCLE ... RESTRICT", true, blankCycle},
	{"VALUES (...) -> VALUES ROW(...)", false, valuesRow},
	{"CAST AS VARCHAR -> CAST AS CHAR", true, castVarchar},
	{"LEAD/LAG/NTH_VALUE/NTILE argument -> ?", true, offsetArg},
	{"bracket a LIKE pattern with operators", false, bracketLikePattern},
	{"blank WITHIN GROUP and OVER of PERCENTILE_*/MEDIAN", true, blankPercentile},
}

func preprocessCmd(args []string) error {
	fs := newFlagSet("preprocess", "preprocess -in FILE|DIR [-only RESULTS] [-all]",
		"Applies the candidate rewrites to the statements lint rejects (or, with -all, to every statement) and parses the result with lint's parser: how many each rewrite rescues, by construct, and how many statements the parser read before and no longer does.")
	in := fs.String("in", "", "the statements (extract's output, or a folder of .sql files)")
	only := fs.String("only", "", "the lint -o output, for each statement's construct")
	all := fs.Bool("all", false, "rewrite every statement, not only those the parser rejects")
	show := fs.Int("show", 0, "print up to N statements still rejected after the rewrites")
	if err := fs.Parse(args); err != nil {
		return err
	}
	stmts, err := readStatements(*in)
	if err != nil {
		return err
	}
	constructOf := map[string]string{}
	if *only != "" {
		res, err := readResults(*only)
		if err != nil {
			return err
		}
		for _, r := range res {
			constructOf[r.ID] = r.Construct
		}
	}
	p := parser.New()
	type tally struct{ failed, rescued int }
	byConstruct := map[string]*tally{}
	used := map[string]int{}
	broken, changed, shown := 0, 0, 0
	for _, s := range stmts {
		_, _, err := p.Parse(s.SQL, "", "")
		if err == nil && !*all {
			continue
		}
		text, names := preprocess(s.SQL)
		if text != s.SQL {
			changed++
		}
		_, _, err2 := p.Parse(text, "", "")
		if err == nil {
			if err2 != nil {
				broken++
				fmt.Printf("  broken by %v: %s\n    %s\n", names, s.ID, oneLine(text, 200))
			}
			continue
		}
		c := constructOf[s.ID]
		if c == "" {
			c = "?"
		}
		t := byConstruct[c]
		if t == nil {
			t = &tally{}
			byConstruct[c] = t
		}
		t.failed++
		if err2 == nil {
			t.rescued++
			for _, n := range names {
				used[n]++
			}
		} else if shown < *show {
			shown++
			fmt.Printf("  still rejected (%s) %s: %v\n    %s\n", c, s.ID, err2, oneLine(text, 200))
		}
	}
	var cs []string
	total, rescued := 0, 0
	for c, t := range byConstruct {
		cs = append(cs, c)
		total += t.failed
		rescued += t.rescued
	}
	sort.Slice(cs, func(i, j int) bool { return byConstruct[cs[i]].failed > byConstruct[cs[j]].failed })
	fmt.Printf("%d statements, %d rejected by lint's parser, %d of them read after the rewrites; %d rewritten, %d read before and not after\n",
		len(stmts), total, rescued, changed, broken)
	for _, c := range cs {
		fmt.Printf("  %4d/%-4d %s\n", byConstruct[c].rescued, byConstruct[c].failed, c)
	}
	fmt.Println("rewrites that took part in a rescue:")
	for _, r := range rewrites {
		if used[r.name] > 0 {
			fmt.Printf("  %4d  %s (same length: %v)\n", used[r.name], r.name, r.sameLength)
		}
	}
	return nil
}

// preprocess applies every rewrite once and returns the text and the
// names of the rewrites that changed it.
func preprocess(src string) (string, []string) {
	toks := significant(src)
	var all []edit
	var names []string
	for _, r := range rewrites {
		if es := r.edits(src, toks); len(es) > 0 {
			all = append(all, es...)
			names = append(names, r.name)
		}
	}
	return apply(src, all), names
}

func significant(src string) []tok {
	var out []tok
	sc := sqllex.NewScanner(src, 0)
	for t := sc.NextNonSpace(); t.Kind != sqllex.EOF; t = sc.NextNonSpace() {
		if t.Kind.IsSpaceOrComment() {
			continue
		}
		out = append(out, tok{t, strings.ToLower(t.Text(src))})
	}
	return out
}

// apply makes the edits, skipping one that overlaps an earlier one.
func apply(src string, es []edit) string {
	sort.SliceStable(es, func(i, j int) bool { return es[i].start < es[j].start })
	var b strings.Builder
	last := 0
	for _, e := range es {
		if e.start < last {
			continue
		}
		b.WriteString(src[last:e.start])
		b.WriteString(e.repl)
		last = e.end
	}
	b.WriteString(src[last:])
	return b.String()
}

func blank(src string, start, end int) edit {
	return edit{start, end, strings.Repeat(" ", end-start)}
}

func at(toks []tok, i int) string {
	if i < 0 || i >= len(toks) {
		return ""
	}
	return toks[i].low
}

// closing returns the index of the bracket closing the one at toks[i].
func closing(toks []tok, i int) int {
	depth := 0
	for j := i; j < len(toks); j++ {
		switch toks[j].low {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return len(toks) - 1
}

var nameWords = map[string]bool{"rank": true, "dense_rank": true, "lead": true, "lag": true, "ntile": true,
	"first_value": true, "last_value": true, "nth_value": true, "cume_dist": true, "percent_rank": true}

func quoteNames(src string, toks []tok) []edit {
	var es []edit
	for i, t := range toks {
		if t.Kind != sqllex.Word {
			continue
		}
		q := false
		switch {
		case nameWords[t.low]:
			q = at(toks, i+1) != "("
		case t.low == "window":
			q = at(toks, i+2) != "as"
		case t.low == "row":
			q = at(toks, i+1) != "(" && at(toks, i-1) != "current"
		case t.low == "groups":
			q = at(toks, i+1) != "between" && at(toks, i+1) != "unbounded" && at(toks, i+1) != "current"
		}
		if q {
			es = append(es, edit{t.Start, t.End, "`" + src[t.Start:t.End] + "`"})
		}
	}
	return es
}

func bracketMatch(src string, toks []tok) []edit {
	var es []edit
	for i, t := range toks {
		if t.low != "match" {
			continue
		}
		j := i + 1
		if at(toks, j) == "(" {
			j = closing(toks, j) + 1
		} else {
			k := j
			for k < len(toks) && toks[k].low != "against" {
				k++
			}
			if k == len(toks) || k == j {
				continue
			}
			es = append(es, edit{toks[j].Start, toks[j].Start, "("}, edit{toks[k].Start, toks[k].Start, ") "})
			j = k
		}
		if at(toks, j) != "against" || at(toks, j+1) != "(" {
			continue
		}
		end := closing(toks, j+1)
		es = append(es, edit{t.Start, t.Start, "("}, edit{toks[end].End, toks[end].End, ")"})
	}
	return es
}

func quoteDual(src string, toks []tok) []edit {
	having := false
	for _, t := range toks {
		having = having || t.low == "having"
	}
	if !having {
		return nil
	}
	var es []edit
	for i, t := range toks {
		if t.low == "dual" && at(toks, i-1) == "from" {
			es = append(es, edit{t.Start, t.End, "`dual`"})
		}
	}
	return es
}

func escapeLiteral(src string, toks []tok) []edit {
	var es []edit
	for i, t := range toks {
		if t.low != "escape" || i+1 >= len(toks) || toks[i+1].Kind == sqllex.String {
			continue
		}
		end := i + 1
		if toks[end].low == "(" {
			end = closing(toks, end)
		}
		es = append(es, edit{toks[i+1].Start, toks[end].End, "'|'"})
	}
	return es
}

func valueFunc(src string, toks []tok) []edit {
	var es []edit
	for i, t := range toks {
		if t.low != "value" || at(toks, i+1) != "(" {
			continue
		}
		prev := at(toks, i-1)
		if i > 0 && (toks[i-1].Kind == sqllex.Word && !exprKeyword[prev] || prev == ")" || toks[i-1].Kind == sqllex.QuotedIdent) {
			continue // INSERT ... VALUE (row)
		}
		es = append(es, edit{t.Start, t.End, "VALUES"})
	}
	return es
}

var exprKeyword = map[string]bool{"by": true, "where": true, "and": true, "or": true, "not": true, "select": true,
	"having": true, "on": true, "when": true, "then": true, "else": true, "set": true}

func blankReturning(src string, toks []tok) []edit {
	if at(toks, 0) != "delete" {
		return nil
	}
	for _, t := range toks {
		if t.low == "returning" {
			return []edit{blank(src, t.Start, len(strings.TrimRight(src, " \t\r\n;")))}
		}
	}
	return nil
}

func blankMultiUpdateTail(src string, toks []tok) []edit {
	if at(toks, 0) != "update" {
		return nil
	}
	depth, multi, set := 0, false, false
	for _, t := range toks {
		switch {
		case t.low == "(":
			depth++
		case t.low == ")":
			depth--
		case depth > 0:
		case t.low == "," && !set:
			multi = true
		case t.low == "set":
			set = true
		case multi && set && (t.low == "order" || t.low == "limit"):
			return []edit{blank(src, t.Start, len(strings.TrimRight(src, " \t\r\n;")))}
		}
	}
	return nil
}

func blankInto(src string, toks []tok) []edit {
	var es []edit
	for i, t := range toks {
		if t.low != "into" || at(toks, 0) == "insert" || at(toks, 0) == "replace" {
			continue
		}
		j := i + 1
		switch at(toks, j) {
		case "outfile", "dumpfile":
			if j+1 < len(toks) && (toks[j].low == "dumpfile" || at(toks, j+2) == "from") {
				es = append(es, blank(src, t.Start, toks[j+1].End))
			}
		case "@":
			for j < len(toks) && (toks[j].low == "@" || toks[j].low == "," || toks[j-1].low == "@") {
				j++
			}
			es = append(es, blank(src, t.Start, toks[j-1].End))
		}
	}
	return es
}

func naturalJoin(src string, toks []tok) []edit {
	var es []edit
	for i, t := range toks {
		if t.low != "natural" {
			continue
		}
		switch at(toks, i+1) {
		case "inner":
			es = append(es, blank(src, toks[i+1].Start, toks[i+1].End))
		case "straight_join":
			es = append(es, edit{toks[i+1].Start, toks[i+1].End, "JOIN         "})
		}
	}
	return es
}

func blankExclude(src string, toks []tok) []edit {
	for i, t := range toks {
		if t.low != "exclude" {
			continue
		}
		end := i + 1
		if at(toks, end) == "no" || at(toks, end) == "current" {
			end++
		}
		if end < len(toks) {
			return []edit{blank(src, t.Start, toks[end].End)}
		}
	}
	return nil
}

func blankRowsExamined(src string, toks []tok) []edit {
	var es []edit
	for i, t := range toks {
		if t.low == "rows" && at(toks, i+1) == "examined" && i+2 < len(toks) {
			start := t.Start
			if at(toks, i-1) == "limit" {
				start = toks[i-1].Start
			}
			es = append(es, blank(src, start, toks[i+2].End))
		}
	}
	return es
}

func blankCycle(src string, toks []tok) []edit {
	for i, t := range toks {
		if t.low == "cycle" && at(toks, i-1) == ")" {
			for j := i + 1; j < len(toks); j++ {
				if toks[j].low == "restrict" {
					return []edit{blank(src, t.Start, toks[j].End)}
				}
			}
		}
	}
	return nil
}

func valuesRow(src string, toks []tok) []edit {
	var es []edit
	for i, t := range toks {
		if t.low != "values" || at(toks, i+1) != "(" {
			continue
		}
		switch at(toks, i-1) {
		case "", "(", "union", "all", "distinct", "intersect", "except":
		default:
			continue // INSERT ... VALUES
		}
		for j := i + 1; j < len(toks) && toks[j].low == "("; {
			es = append(es, edit{toks[j].Start, toks[j].Start, "ROW"})
			j = closing(toks, j) + 1
			if at(toks, j) != "," {
				break
			}
			j++
		}
	}
	return es
}

func castVarchar(src string, toks []tok) []edit {
	var es []edit
	for i, t := range toks {
		if t.low == "varchar" && at(toks, i-1) == "as" {
			es = append(es, edit{t.Start, t.End, "CHAR   "})
		}
	}
	return es
}

func offsetArg(src string, toks []tok) []edit {
	var es []edit
	for i, t := range toks {
		arg := 0
		switch t.low {
		case "lead", "lag", "nth_value":
			arg = 1
		case "ntile":
		default:
			continue
		}
		if at(toks, i+1) != "(" {
			continue
		}
		end := closing(toks, i+1)
		// the argument's tokens: after the arg-th top-level comma
		n, depth, from := 0, 0, i+2
		to := end
		for j := i + 2; j < end; j++ {
			switch toks[j].low {
			case "(":
				depth++
			case ")":
				depth--
			case ",":
				if depth == 0 {
					if n == arg {
						to = j
					}
					n++
					if n == arg {
						from = j + 1
					}
				}
			}
		}
		if n < arg || from >= to || to-from == 1 && toks[from].Kind == sqllex.Number {
			continue
		}
		w := toks[to-1].End - toks[from].Start
		es = append(es, edit{toks[from].Start, toks[to-1].End, "?" + strings.Repeat(" ", w-1)})
	}
	return es
}

var bitOperators = map[string]bool{"|": true, "&": true, "<<": true, ">>": true, "+": true, "-": true,
	"*": true, "/": true, "%": true, "^": true, "div": true, "mod": true}

func bracketLikePattern(src string, toks []tok) []edit {
	var es []edit
	for i, t := range toks {
		if t.low != "like" || i+1 >= len(toks) {
			continue
		}
		j, ops := i+1, 0
		for j < len(toks) {
			if toks[j].low == "(" {
				j = closing(toks, j) + 1
			} else {
				j++
			}
			for at(toks, j) == "." {
				j += 2
			}
			if !bitOperators[at(toks, j)] {
				break
			}
			ops++
			j++
		}
		if ops > 0 {
			es = append(es, edit{toks[i+1].Start, toks[i+1].Start, "("}, edit{toks[j-1].End, toks[j-1].End, ")"})
		}
	}
	return es
}

func blankPercentile(src string, toks []tok) []edit {
	var es []edit
	for i, t := range toks {
		if (t.low != "percentile_cont" && t.low != "percentile_disc" && t.low != "median") || at(toks, i+1) != "(" {
			continue
		}
		j := closing(toks, i+1) + 1
		if at(toks, j) == "within" && at(toks, j+1) == "group" && at(toks, j+2) == "(" {
			end := closing(toks, j+2)
			es = append(es, blank(src, toks[j].Start, toks[end].End))
			j = end + 1
		}
		if at(toks, j) == "over" && at(toks, j+1) == "(" {
			es = append(es, blank(src, toks[j].Start, toks[closing(toks, j+1)].End))
		}
	}
	return es
}
