package analyzer

// A small parser for the FROM clause of every query block, over the token
// stream of the original file. The SQL parser's AST carries no positions
// for tables and joins; this gives them, and gives the spans the RIGHT JOIN
// rewrite needs.

// tableRef is one table factor: a named table (or table parameter), a
// derived table, or a parenthesized join.
type TableRef struct {
	Block      int    // token index of the keyword opening the query block
	NameTok    *Token // the table name (nil for a derived table)
	Name       string // table name as the parser sees it (placeholder substituted)
	AliasTok   *Token
	Alias      string
	Derived    bool
	Start, End int // source span, alias and index hints included
	IndexHints []IndexHint
	claimed    bool
}

// visible is the name a query block sees the table by.
func (r *TableRef) Visible() string {
	if r.Alias != "" {
		return r.Alias
	}
	return r.Name
}

type IndexHint struct {
	Kind  string // USE, FORCE, IGNORE
	Start int
	Names []Token
}

// joinNode is a node of the join tree of one FROM clause.
type JoinNode struct {
	Ref         *TableRef // leaf
	Left, Right *JoinNode
	Kind        string // JOIN, LEFT, RIGHT, STRAIGHT_JOIN, CROSS, NATURAL, ","
	KwStart     int    // span of the join keywords (RIGHT [OUTER] JOIN)
	KwEnd       int
	Start, End  int // source span; includes the ON/USING clause and any parentheses
	Paren       bool
	Inner       *JoinNode // for paren: the node inside

	IsNaturalRight bool
}

// joinSpan is the whole FROM clause of one query block.
type JoinSpan struct {
	Block int
	Root  *JoinNode
}

var clauseEnd = map[string]bool{
	"WHERE": true, "GROUP": true, "HAVING": true, "ORDER": true, "LIMIT": true, "SET": true,
	"UNION": true, "EXCEPT": true, "INTERSECT": true, "WINDOW": true, "FOR": true, "LOCK": true,
	"INTO": true, "RETURNING": true, "ON": true, "USING": true, "JOIN": true, "INNER": true,
	"CROSS": true, "LEFT": true, "RIGHT": true, "STRAIGHT_JOIN": true, "NATURAL": true, "FULL": true,
	"USE": true, "FORCE": true, "IGNORE": true, "PARTITION": true, "VALUES": true, "SELECT": true,
	"OUTER": true, "AS": true,
}

var OnStop = map[string]bool{
	"WHERE": true, "GROUP": true, "HAVING": true, "ORDER": true, "LIMIT": true, "SET": true,
	"UNION": true, "EXCEPT": true, "INTERSECT": true, "WINDOW": true, "FOR": true, "LOCK": true,
	"INTO": true, "RETURNING": true, "JOIN": true, "INNER": true, "CROSS": true, "LEFT": true,
	"RIGHT": true, "STRAIGHT_JOIN": true, "NATURAL": true,
}

var joinStart = map[string]bool{"JOIN": true, "INNER": true, "CROSS": true, "LEFT": true, "RIGHT": true, "STRAIGHT_JOIN": true, "NATURAL": true}

type fromParser struct {
	u     *unit
	toks  []Token
	depth []int
	block int
	refs  []*TableRef
	ok    bool
}

// tokenDepths returns each token's parenthesis depth, in buf[:0] (a
// caller's buffer of a file done with, or nil).
func tokenDepths(toks []Token, buf []int) []int {
	if cap(buf) < len(toks) {
		buf = make([]int, 0, len(toks))
	}
	depth := buf[:len(toks)]
	d := 0
	for i, t := range toks {
		if t.Punct(")") {
			d--
		}
		depth[i] = d
		if t.Punct("(") {
			d++
		}
	}
	return depth
}

// scanFrom finds every query block's table references.
func scanFrom(u *unit) (refs []*TableRef, joins []*JoinSpan) {
	toks, depth := u.toks, u.depth
	for i, t := range toks {
		var from int = -1
		switch {
		case t.Is("SELECT"), t.Is("DELETE"):
			for j := i + 1; j < len(toks) && depth[j] >= depth[i]; j++ {
				if depth[j] != depth[i] {
					continue
				}
				w := toks[j]
				if w.Is("FROM") {
					from = j + 1
					break
				}
				if w.Is("SELECT") || w.Is("UNION") || w.Is("WHERE") || w.Punct(";") || w.Is("EXCEPT") || w.Is("INTERSECT") {
					break
				}
			}
		case t.Is("UPDATE") && !(i > 0 && (toks[i-1].Is("KEY") || toks[i-1].Is("FOR"))):
			from = i + 1
			for from < len(toks) && (toks[from].Is("LOW_PRIORITY") || toks[from].Is("IGNORE") || toks[from].Kind == TokHint) {
				from++
			}
		}
		if (t.Is("INSERT") || t.Is("REPLACE")) && (i == 0 || !toks[i-1].Punct("(")) {
			j := i + 1
			for j < len(toks) && (toks[j].Kind == TokHint || toks[j].Is("IGNORE") || toks[j].Is("LOW_PRIORITY") || toks[j].Is("DELAYED") || toks[j].Is("HIGH_PRIORITY")) {
				j++
			}
			if j < len(toks) && toks[j].Is("INTO") {
				j++
			}
			p := &fromParser{u: u, toks: toks, depth: depth, block: i, ok: true}
			if p.tok(j).Kind == TokIdent || p.tok(j).Kind == TokPlaceholder {
				nt := p.toks[j]
				r := &TableRef{Block: i, NameTok: &nt, Name: nt.Name(), Start: nt.Start, End: nt.End}
				if nt.Kind == TokPlaceholder {
					r.Name = nt.Word
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
			joins = append(joins, &JoinSpan{Block: i, Root: root})
		}
	}
	sortRefs(refs)
	return refs, joins
}

func sortRefs(refs []*TableRef) {
	for i := 1; i < len(refs); i++ {
		for j := i; j > 0 && refs[j].Start < refs[j-1].Start; j-- {
			refs[j], refs[j-1] = refs[j-1], refs[j]
		}
	}
}

func (p *fromParser) tok(i int) Token {
	if i < len(p.toks) {
		return p.toks[i]
	}
	return Token{Kind: TokPunct, Start: len(p.u.src), End: len(p.u.src), Text: ""}
}

func (p *fromParser) fail() (*JoinNode, int) { p.ok = false; return nil, len(p.toks) }

func (p *fromParser) refsList(i int) (*JoinNode, int) {
	n, i := p.ref(i)
	for p.ok && p.tok(i).Punct(",") {
		kw := p.tok(i)
		var r *JoinNode
		r, i = p.ref(i + 1)
		if !p.ok {
			return nil, i
		}
		n = &JoinNode{Left: n, Right: r, Kind: ",", KwStart: kw.Start, KwEnd: kw.End, Start: n.Start, End: r.End}
	}
	return n, i
}

func (p *fromParser) ref(i int) (*JoinNode, int) {
	n, i := p.factor(i)
	for p.ok {
		t := p.tok(i)
		if t.Kind != TokIdent || !joinStart[t.Word] {
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
			if p.tok(j).Is("OUTER") {
				j++
			}
		case "NATURAL":
			for p.tok(j).Is("LEFT") || p.tok(j).Is("RIGHT") || p.tok(j).Is("OUTER") || p.tok(j).Is("INNER") {
				natRight = natRight || p.tok(j).Is("RIGHT")
				j++
			}
		}
		if kind != "STRAIGHT_JOIN" && t.Word != "JOIN" {
			if !p.tok(j).Is("JOIN") {
				return p.fail()
			}
			j++
		}
		kwEnd := p.tok(j - 1).End
		var r *JoinNode
		r, j = p.factor(j)
		if !p.ok {
			return nil, j
		}
		end := r.End
		if p.tok(j).Is("ON") {
			j = p.skipExpr(j + 1)
			end = p.tok(j - 1).End
		} else if p.tok(j).Is("USING") {
			if !p.tok(j + 1).Punct("(") {
				return p.fail()
			}
			j = p.matching(j+1) + 1
			end = p.tok(j - 1).End
		}
		n = &JoinNode{Left: n, Right: r, Kind: kind, KwStart: kw.Start, KwEnd: kwEnd, Start: n.Start, End: end, IsNaturalRight: natRight}
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
		if p.depth[i] < d || t.Punct(")") && p.depth[i] == d {
			break
		}
		if p.depth[i] == d && (t.Punct(",") || t.Punct(";") || t.Kind == TokIdent && !t.Quoted && OnStop[t.Word] && !p.tok(i+1).Punct("(")) {
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
		if p.toks[j].Punct(")") && p.depth[j] == d {
			return j
		}
	}
	p.ok = false
	return len(p.toks)
}

func (p *fromParser) factor(i int) (*JoinNode, int) {
	t := p.tok(i)
	if t.Punct("(") {
		close := p.matching(i)
		if !p.ok {
			return nil, close
		}
		nx := p.tok(i + 1)
		if nx.Is("SELECT") || nx.Is("WITH") || nx.Is("VALUES") || nx.Is("TABLE") || nx.Punct("(") && p.tok(i+2).Is("SELECT") {
			r := &TableRef{Block: p.block, Derived: true, Start: t.Start}
			j := p.alias(r, close+1)
			if p.tok(j).Punct("(") { // column list
				j = p.matching(j) + 1
			}
			r.End = p.tok(j - 1).End
			p.refs = append(p.refs, r)
			return &JoinNode{Ref: r, Start: r.Start, End: r.End}, j
		}
		inner, j := p.refsList(i + 1)
		if !p.ok || j != close {
			return p.fail()
		}
		return &JoinNode{Paren: true, Inner: inner, Start: t.Start, End: p.tok(close).End}, close + 1
	}
	if t.Is("LATERAL") || t.Is("JSON_TABLE") || t.Is("DUAL") {
		return p.fail()
	}
	if t.Kind != TokIdent && t.Kind != TokPlaceholder {
		return p.fail()
	}
	if t.Kind == TokIdent && !t.Quoted && clauseEnd[t.Word] {
		return p.fail()
	}
	r := &TableRef{Block: p.block, Start: t.Start}
	nameIdx := i
	j := i + 1
	if p.tok(j).Punct(".") && (p.tok(j+1).Kind == TokIdent || p.tok(j+1).Kind == TokPlaceholder) {
		nameIdx = j + 1
		j += 2
	}
	nt := p.toks[nameIdx]
	r.NameTok = &nt
	if nt.Kind == TokPlaceholder {
		r.Name = nt.Word
	} else {
		r.Name = nt.Name()
	}
	if p.tok(j).Is("PARTITION") && p.tok(j+1).Punct("(") {
		j = p.matching(j+1) + 1
	}
	j = p.alias(r, j)
	for p.ok {
		h := p.tok(j)
		if !(h.Is("USE") || h.Is("FORCE") || h.Is("IGNORE")) || !(p.tok(j+1).Is("INDEX") || p.tok(j+1).Is("KEY")) {
			break
		}
		ih := IndexHint{Kind: h.Word, Start: h.Start}
		k := j + 2
		if p.tok(k).Is("FOR") {
			k++
			if p.tok(k).Is("JOIN") {
				k++
			} else {
				k += 2 // ORDER BY, GROUP BY
			}
		}
		if !p.tok(k).Punct("(") {
			return p.fail()
		}
		close := p.matching(k)
		for m := k + 1; m < close; m++ {
			if p.toks[m].Kind == TokIdent {
				ih.Names = append(ih.Names, p.toks[m])
			}
		}
		r.IndexHints = append(r.IndexHints, ih)
		j = close + 1
	}
	r.End = p.tok(j - 1).End
	p.refs = append(p.refs, r)
	return &JoinNode{Ref: r, Start: r.Start, End: r.End}, j
}

func (p *fromParser) alias(r *TableRef, j int) int {
	if p.tok(j).Is("AS") {
		j++
	}
	a := p.tok(j)
	if a.Kind == TokIdent && (a.Quoted || !clauseEnd[a.Word]) || a.Kind == TokString {
		at := a
		r.AliasTok = &at
		r.Alias = a.Name()
		if a.Kind == TokString {
			r.Alias = a.Text[1 : len(a.Text)-1]
		}
		j++
	}
	return j
}
