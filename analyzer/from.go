package analyzer

// A small parser for the FROM clause of every query block, over the token
// stream of the original file. The SQL parser's AST carries no positions
// for tables and joins; this gives them, and gives the spans the RIGHT JOIN
// rewrite needs.

// tableRef is one table factor: a named table (or table parameter), a
// derived table, or a parenthesized join.
type tableRef struct {
	block      int    // token index of the keyword opening the query block
	nameTok    *token // the table name (nil for a derived table)
	name       string // table name as the parser sees it (placeholder substituted)
	aliasTok   *token
	alias      string
	derived    bool
	start, end int // source span, alias and index hints included
	indexHints []indexHint
	claimed    bool
}

// visible is the name a query block sees the table by.
func (r *tableRef) visible() string {
	if r.alias != "" {
		return r.alias
	}
	return r.name
}

type indexHint struct {
	kind  string // USE, FORCE, IGNORE
	start int
	names []token
}

// joinNode is a node of the join tree of one FROM clause.
type joinNode struct {
	ref         *tableRef // leaf
	left, right *joinNode
	kind        string // JOIN, LEFT, RIGHT, STRAIGHT_JOIN, CROSS, NATURAL, ","
	kwStart     int    // span of the join keywords (RIGHT [OUTER] JOIN)
	kwEnd       int
	start, end  int // source span; includes the ON/USING clause and any parentheses
	paren       bool
	inner       *joinNode // for paren: the node inside

	isNaturalRight bool
}

// joinSpan is the whole FROM clause of one query block.
type joinSpan struct {
	block int
	root  *joinNode
}

var clauseEnd = map[string]bool{
	"WHERE": true, "GROUP": true, "HAVING": true, "ORDER": true, "LIMIT": true, "SET": true,
	"UNION": true, "EXCEPT": true, "INTERSECT": true, "WINDOW": true, "FOR": true, "LOCK": true,
	"INTO": true, "RETURNING": true, "ON": true, "USING": true, "JOIN": true, "INNER": true,
	"CROSS": true, "LEFT": true, "RIGHT": true, "STRAIGHT_JOIN": true, "NATURAL": true, "FULL": true,
	"USE": true, "FORCE": true, "IGNORE": true, "PARTITION": true, "VALUES": true, "SELECT": true,
	"OUTER": true, "AS": true,
}

var onStop = map[string]bool{
	"WHERE": true, "GROUP": true, "HAVING": true, "ORDER": true, "LIMIT": true, "SET": true,
	"UNION": true, "EXCEPT": true, "INTERSECT": true, "WINDOW": true, "FOR": true, "LOCK": true,
	"INTO": true, "RETURNING": true, "JOIN": true, "INNER": true, "CROSS": true, "LEFT": true,
	"RIGHT": true, "STRAIGHT_JOIN": true, "NATURAL": true,
}

var joinStart = map[string]bool{"JOIN": true, "INNER": true, "CROSS": true, "LEFT": true, "RIGHT": true, "STRAIGHT_JOIN": true, "NATURAL": true}

type fromParser struct {
	u     *unit
	toks  []token
	depth []int
	block int
	refs  []*tableRef
	ok    bool
}

// scanFrom finds every query block's table references.
func scanFrom(u *unit) (refs []*tableRef, joins []*joinSpan) {
	toks := u.toks
	depth := make([]int, len(toks))
	d := 0
	for i, t := range toks {
		if t.punct(")") {
			d--
		}
		depth[i] = d
		if t.punct("(") {
			d++
		}
	}
	for i, t := range toks {
		var from int = -1
		switch {
		case t.is("SELECT"), t.is("DELETE"):
			for j := i + 1; j < len(toks) && depth[j] >= depth[i]; j++ {
				if depth[j] != depth[i] {
					continue
				}
				w := toks[j]
				if w.is("FROM") {
					from = j + 1
					break
				}
				if w.is("SELECT") || w.is("UNION") || w.is("WHERE") || w.punct(";") || w.is("EXCEPT") || w.is("INTERSECT") {
					break
				}
			}
		case t.is("UPDATE") && !(i > 0 && (toks[i-1].is("KEY") || toks[i-1].is("FOR"))):
			from = i + 1
			for from < len(toks) && (toks[from].is("LOW_PRIORITY") || toks[from].is("IGNORE") || toks[from].Kind == tokHint) {
				from++
			}
		}
		if (t.is("INSERT") || t.is("REPLACE")) && (i == 0 || !toks[i-1].punct("(")) {
			j := i + 1
			for j < len(toks) && (toks[j].Kind == tokHint || toks[j].is("IGNORE") || toks[j].is("LOW_PRIORITY") || toks[j].is("DELAYED") || toks[j].is("HIGH_PRIORITY")) {
				j++
			}
			if j < len(toks) && toks[j].is("INTO") {
				j++
			}
			p := &fromParser{u: u, toks: toks, depth: depth, block: i, ok: true}
			if p.tok(j).Kind == tokIdent || p.tok(j).Kind == tokPlaceholder {
				nt := p.toks[j]
				r := &tableRef{block: i, nameTok: &nt, name: nt.name(), start: nt.Start, end: nt.End}
				if nt.Kind == tokPlaceholder {
					r.name = nt.Word
				}
				refs = append(refs, r)
			}
			continue
		}
		if from < 0 || from >= len(toks) {
			continue
		}
		p := &fromParser{u: u, toks: toks, depth: depth, block: i, ok: true}
		root, _ := p.refsList(from)
		if p.ok && root != nil {
			refs = append(refs, p.refs...)
			joins = append(joins, &joinSpan{block: i, root: root})
		}
	}
	sortRefs(refs)
	return refs, joins
}

func sortRefs(refs []*tableRef) {
	for i := 1; i < len(refs); i++ {
		for j := i; j > 0 && refs[j].start < refs[j-1].start; j-- {
			refs[j], refs[j-1] = refs[j-1], refs[j]
		}
	}
}

func (p *fromParser) tok(i int) token {
	if i < len(p.toks) {
		return p.toks[i]
	}
	return token{Kind: tokPunct, Start: len(p.u.src), End: len(p.u.src), Text: ""}
}

func (p *fromParser) fail() (*joinNode, int) { p.ok = false; return nil, len(p.toks) }

func (p *fromParser) refsList(i int) (*joinNode, int) {
	n, i := p.ref(i)
	for p.ok && p.tok(i).punct(",") {
		kw := p.tok(i)
		var r *joinNode
		r, i = p.ref(i + 1)
		if !p.ok {
			return nil, i
		}
		n = &joinNode{left: n, right: r, kind: ",", kwStart: kw.Start, kwEnd: kw.End, start: n.start, end: r.end}
	}
	return n, i
}

func (p *fromParser) ref(i int) (*joinNode, int) {
	n, i := p.factor(i)
	for p.ok {
		t := p.tok(i)
		if t.Kind != tokIdent || !joinStart[t.Word] {
			return n, i
		}
		kw := t
		kind := t.Word
		natRight := false
		j := i + 1
		switch kind {
		case "INNER", "CROSS":
			kind = "JOIN"
		case "LEFT", "RIGHT":
			if p.tok(j).is("OUTER") {
				j++
			}
		case "NATURAL":
			for p.tok(j).is("LEFT") || p.tok(j).is("RIGHT") || p.tok(j).is("OUTER") || p.tok(j).is("INNER") {
				natRight = natRight || p.tok(j).is("RIGHT")
				j++
			}
		}
		if kind != "STRAIGHT_JOIN" && t.Word != "JOIN" {
			if !p.tok(j).is("JOIN") {
				return p.fail()
			}
			j++
		}
		kwEnd := p.tok(j - 1).End
		var r *joinNode
		r, j = p.factor(j)
		if !p.ok {
			return nil, j
		}
		end := r.end
		if p.tok(j).is("ON") {
			j = p.skipExpr(j + 1)
			end = p.tok(j - 1).End
		} else if p.tok(j).is("USING") {
			if !p.tok(j + 1).punct("(") {
				return p.fail()
			}
			j = p.matching(j+1) + 1
			end = p.tok(j - 1).End
		}
		n = &joinNode{left: n, right: r, kind: kind, kwStart: kw.Start, kwEnd: kwEnd, start: n.start, end: end, isNaturalRight: natRight}
		i = j
	}
	return n, i
}

// skipExpr skips an ON expression: up to the next token at the same depth
// that ends it.
func (p *fromParser) skipExpr(i int) int {
	if i >= len(p.toks) {
		p.ok = false
		return i
	}
	d := p.depth[i]
	start := i
	for i < len(p.toks) {
		t := p.toks[i]
		if p.depth[i] < d || t.punct(")") && p.depth[i] == d {
			break
		}
		if p.depth[i] == d && (t.punct(",") || t.punct(";") || t.Kind == tokIdent && !t.Quoted && onStop[t.Word] && !p.tok(i+1).punct("(")) {
			break
		}
		i++
	}
	if i == start {
		p.ok = false
	}
	return i
}

// matching returns the index of the ) matching the ( at i.
func (p *fromParser) matching(i int) int {
	d := p.depth[i]
	for j := i + 1; j < len(p.toks); j++ {
		if p.toks[j].punct(")") && p.depth[j] == d {
			return j
		}
	}
	p.ok = false
	return len(p.toks)
}

func (p *fromParser) factor(i int) (*joinNode, int) {
	t := p.tok(i)
	if t.punct("(") {
		close := p.matching(i)
		if !p.ok {
			return nil, close
		}
		nx := p.tok(i + 1)
		if nx.is("SELECT") || nx.is("WITH") || nx.is("VALUES") || nx.is("TABLE") || nx.punct("(") && p.tok(i+2).is("SELECT") {
			r := &tableRef{block: p.block, derived: true, start: t.Start}
			j := p.alias(r, close+1)
			if p.tok(j).punct("(") { // column list
				j = p.matching(j) + 1
			}
			r.end = p.tok(j - 1).End
			p.refs = append(p.refs, r)
			return &joinNode{ref: r, start: r.start, end: r.end}, j
		}
		inner, j := p.refsList(i + 1)
		if !p.ok || j != close {
			return p.fail()
		}
		return &joinNode{paren: true, inner: inner, start: t.Start, end: p.tok(close).End}, close + 1
	}
	if t.is("LATERAL") || t.is("JSON_TABLE") || t.is("DUAL") {
		return p.fail()
	}
	if t.Kind != tokIdent && t.Kind != tokPlaceholder {
		return p.fail()
	}
	if t.Kind == tokIdent && !t.Quoted && clauseEnd[t.Word] {
		return p.fail()
	}
	r := &tableRef{block: p.block, start: t.Start}
	nameIdx := i
	j := i + 1
	if p.tok(j).punct(".") && (p.tok(j+1).Kind == tokIdent || p.tok(j+1).Kind == tokPlaceholder) {
		nameIdx = j + 1
		j += 2
	}
	nt := p.toks[nameIdx]
	r.nameTok = &nt
	if nt.Kind == tokPlaceholder {
		r.name = nt.Word
	} else {
		r.name = nt.name()
	}
	if p.tok(j).is("PARTITION") && p.tok(j+1).punct("(") {
		j = p.matching(j+1) + 1
	}
	j = p.alias(r, j)
	for p.ok {
		h := p.tok(j)
		if !(h.is("USE") || h.is("FORCE") || h.is("IGNORE")) || !(p.tok(j+1).is("INDEX") || p.tok(j+1).is("KEY")) {
			break
		}
		ih := indexHint{kind: h.Word, start: h.Start}
		k := j + 2
		if p.tok(k).is("FOR") {
			k++
			if p.tok(k).is("JOIN") {
				k++
			} else {
				k += 2 // ORDER BY, GROUP BY
			}
		}
		if !p.tok(k).punct("(") {
			return p.fail()
		}
		close := p.matching(k)
		for m := k + 1; m < close; m++ {
			if p.toks[m].Kind == tokIdent {
				ih.names = append(ih.names, p.toks[m])
			}
		}
		r.indexHints = append(r.indexHints, ih)
		j = close + 1
	}
	r.end = p.tok(j - 1).End
	p.refs = append(p.refs, r)
	return &joinNode{ref: r, start: r.start, end: r.end}, j
}

func (p *fromParser) alias(r *tableRef, j int) int {
	if p.tok(j).is("AS") {
		j++
	}
	a := p.tok(j)
	if a.Kind == tokIdent && (a.Quoted || !clauseEnd[a.Word]) || a.Kind == tokString {
		at := a
		r.aliasTok = &at
		r.alias = a.name()
		if a.Kind == tokString {
			r.alias = a.Text[1 : len(a.Text)-1]
		}
		j++
	}
	return j
}
