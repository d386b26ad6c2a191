package analyzer

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/suggest"
)

// Name resolution: every column reference of every query block is bound to
// the table (or derived table) it reads, through aliases, derived tables
// and correlated subqueries. Problems are recorded as issues that the
// unknown-table, unknown-column and ambiguous-column rules report.

type Resolution struct {
	Cols    map[*ast.ColumnNameExpr]*ColRef
	sources []*Source
	Issues  []issue
	Blocks  []*selectBlock
	Outer   []*OuterJoin
	Conds   []*joinCond
	dml     []ast.StmtNode
}

type IssueKind int

const (
	IssueUnknownTable IssueKind = iota
	IssueUnknownColumn
	IssueAmbiguous
)

type issue struct {
	Kind   IssueKind
	Offset int
	Msg    string
}

// source is one table visible in a query block.
type Source struct {
	Name    string     // the name the block sees it by (alias or table name)
	table   *ddl.Table // base table, nil for derived tables and unknown tables
	derived []outCol   // columns of a derived table
	// opaque marks a source whose columns are not all known: an unknown
	// table, or a derived table or CTE reading * from one. A column it
	// may have is never reported unknown: the unknown table is the one
	// error, and what is read through it would be noise behind it.
	opaque    bool
	Ref       *TableRef // position, when found
	aliased   bool
	tname     string // the table name as written (placeholder substituted)
	isDerived bool
}

// outCol is one output column of a query block.
type outCol struct {
	name string
	base *ColRef // the column it reads, when it is a plain column reference
	// unknown stands for the columns of * over an opaque source: the
	// block has columns nobody can name.
	unknown bool
}

// anyUnknown reports whether cols hold columns nobody can name.
func anyUnknown(cols []outCol) bool {
	for _, c := range cols {
		if c.unknown {
			return true
		}
	}
	return false
}

type ColRef struct {
	Source *Source
	Col    *ddl.Column // base column (nil for derived columns not traceable)
	Tab    *ddl.Table  // base table of col
}

type scope struct {
	parent  *scope
	sources []*Source
	aliases []string // select list names (ORDER BY, GROUP BY, HAVING)
	using   map[string]bool
	ctes    map[string][]outCol
	// recursing is the recursive CTE whose query is being resolved:
	// nothing is known of its columns there.
	recursing string
}

// selectBlock is one SELECT with its sources and fields, for rules.
type selectBlock struct {
	Stmt  *ast.SelectStmt
	scope *scope
}

// outerJoin is one LEFT or RIGHT join and the sources on its optional side.
type OuterJoin struct {
	Join      *ast.Join
	Optional  []*Source
	Preserved []*Source
	Block     *ast.SelectStmt
	where     ast.ExprNode
}

// joinCond is an ON condition with the scope it was resolved in.
type joinCond struct {
	Expr ast.ExprNode
	join *ast.Join
}

type resolver struct {
	u *unit
	r *Resolution
	// vis is the visitor expr hands to Accept, reused rather than one
	// allocated per expression (expr saves and restores it around the
	// expressions of a subquery, which it visits while in use).
	vis exprVisitor
	// refs is the block newColRef allocates from.
	refs []ColRef
}

// resolve binds the unit's column references into cols (empty).
func resolve(u *unit, cols map[*ast.ColumnNameExpr]*ColRef) *Resolution {
	rv := &resolver{u: u, r: &Resolution{Cols: cols}}
	for _, st := range u.stmts {
		rv.stmt(st)
	}
	return rv.r
}

func (rv *resolver) issue(k IssueKind, off int, msg string) {
	rv.r.Issues = append(rv.r.Issues, issue{k, off, msg})
}

func (rv *resolver) stmt(st ast.StmtNode) {
	switch s := st.(type) {
	case *ast.SelectStmt, *ast.SetOprStmt:
		rv.query(s.(ast.ResultSetNode), nil)
	case *ast.UpdateStmt:
		rv.r.dml = append(rv.r.dml, s)
		sc := &scope{}
		if s.TableRefs != nil {
			rv.join(sc, s.TableRefs.TableRefs, nil, nil)
		}
		for _, a := range s.List {
			rv.assignTarget(sc, a)
			rv.expr(sc, a.Expr, false)
		}
		rv.expr(sc, s.Where, false)
		rv.orderBy(sc, s.Order)
	case *ast.DeleteStmt:
		rv.r.dml = append(rv.r.dml, s)
		sc := &scope{}
		if s.TableRefs != nil {
			rv.join(sc, s.TableRefs.TableRefs, nil, nil)
		}
		rv.expr(sc, s.Where, false)
		rv.orderBy(sc, s.Order)
	case *ast.InsertStmt:
		sc := &scope{}
		if s.Table != nil {
			rv.join(sc, s.Table.TableRefs, nil, nil)
		}
		for _, c := range s.Columns {
			rv.columnName(sc, c, rv.findIdent(c.Name.O, 0), false)
		}
		vsc := &scope{parent: sc}
		for _, row := range s.Lists {
			for _, e := range row {
				rv.expr(vsc, e, false)
			}
		}
		if s.Select != nil {
			rv.query(s.Select, nil)
		}
		for _, a := range s.OnDuplicate {
			rv.assignTarget(sc, a)
			rv.expr(sc, a.Expr, false)
		}
	}
}

func (rv *resolver) assignTarget(sc *scope, a *ast.Assignment) {
	off := 0
	if a.Expr != nil {
		off = rv.u.srcOffset(a.Expr.OriginTextPosition())
	}
	rv.columnName(sc, a.Column, rv.findIdentBefore(a.Column.Name.O, off), false)
}

// findIdent returns the offset of the first identifier token named name at
// or after from, or the start of the body.
func (rv *resolver) findIdent(name string, from int) int {
	for _, t := range rv.u.toks {
		if t.Start >= from && t.Kind == TokIdent && strings.EqualFold(t.Name(), name) {
			return t.Start
		}
	}
	return rv.u.body
}

func (rv *resolver) findIdentBefore(name string, before int) int {
	best := -1
	for _, t := range rv.u.toks {
		if t.Start >= before {
			break
		}
		if t.Kind == TokIdent && strings.EqualFold(t.Name(), name) {
			best = t.Start
		}
	}
	if best < 0 {
		return rv.findIdent(name, 0)
	}
	return best
}

// query resolves a SELECT or set operation and returns its output columns.
func (rv *resolver) query(n ast.ResultSetNode, parent *scope) []outCol {
	switch s := n.(type) {
	case *ast.SelectStmt:
		return rv.selectStmt(s, parent)
	case *ast.SetOprStmt:
		var out []outCol
		if s.SelectList != nil {
			for i, sel := range s.SelectList.Selects {
				var cols []outCol
				switch x := sel.(type) {
				case *ast.SelectStmt:
					cols = rv.selectStmt(x, parent)
				case *ast.SetOprSelectList:
					cols = rv.query(&ast.SetOprStmt{SelectList: x}, parent)
				}
				if i == 0 {
					out = cols
				}
			}
		}
		return out
	}
	return nil
}

func (rv *resolver) ctes(sc *scope, w *ast.WithClause) {
	if w == nil {
		return
	}
	sc.ctes = map[string][]outCol{}
	for _, c := range w.CTEs {
		name := strings.ToLower(c.Name.O)
		var named []outCol
		for _, n := range c.ColNameList {
			named = append(named, outCol{name: n.O})
		}
		if w.IsRecursive && named == nil {
			// its own query reads it before its columns are known
			sc.ctes[name] = nil
			sc.recursing = name
		}
		var cols []outCol
		if c.Query != nil {
			cols = rv.query(c.Query.Query, sc)
		}
		sc.recursing = ""
		if named != nil {
			cols = named
		}
		sc.ctes[name] = cols
	}
}

func (rv *resolver) selectStmt(s *ast.SelectStmt, parent *scope) []outCol {
	sc := &scope{parent: parent}
	if s.Kind == ast.SelectStmtKindValues {
		// VALUES ROW(...), ...: its columns' names are the server's to
		// choose (column_0 on MySQL, the first row's text on MariaDB)
		for _, row := range s.Lists {
			rv.expr(sc, row, false)
		}
		return nil
	}
	rv.ctes(sc, s.With)
	rv.r.Blocks = append(rv.r.Blocks, &selectBlock{Stmt: s, scope: sc})
	if s.From != nil {
		rv.join(sc, s.From.TableRefs, s, nil)
	}
	var out []outCol
	if s.Fields != nil {
		// a column and a name per field (more for a *): made once
		out = make([]outCol, 0, len(s.Fields.Fields))
		sc.aliases = make([]string, 0, len(s.Fields.Fields))
		for _, f := range s.Fields.Fields {
			if f.WildCard != nil {
				out = append(out, rv.wildcard(sc, f)...)
				continue
			}
			rv.expr(sc, f.Expr, false)
			name := f.AsName.O
			var base *ColRef
			if cn, ok := f.Expr.(*ast.ColumnNameExpr); ok {
				if name == "" {
					name = cn.Name.Name.O
				}
				base = rv.r.Cols[cn]
			}
			if name == "" {
				name = f.Text()
			}
			out = append(out, outCol{name: name, base: base})
			sc.aliases = append(sc.aliases, name)
		}
	}
	rv.expr(sc, s.Where, false)
	if s.GroupBy != nil {
		for _, it := range s.GroupBy.Items {
			rv.expr(sc, it.Expr, true)
		}
	}
	if s.Having != nil {
		rv.expr(sc, s.Having.Expr, true)
	}
	rv.orderBy(sc, s.OrderBy)
	if s.Limit != nil {
		rv.expr(sc, s.Limit.Count, false)
		rv.expr(sc, s.Limit.Offset, false)
	}
	return out
}

func (rv *resolver) orderBy(sc *scope, o *ast.OrderByClause) {
	if o == nil {
		return
	}
	for _, it := range o.Items {
		rv.expr(sc, it.Expr, true)
	}
}

func (rv *resolver) wildcard(sc *scope, f *ast.SelectField) []outCol {
	var out []outCol
	for _, src := range sc.sources {
		if q := f.WildCard.Table.O; q != "" && !strings.EqualFold(q, src.Name) {
			continue
		}
		out = append(out, src.columns()...)
	}
	if q := f.WildCard.Table.O; q != "" && len(out) == 0 && sc.lookup(q) == nil {
		rv.issue(IssueUnknownTable, rv.u.srcOffset(f.Offset), "unknown table or alias "+q+" in "+q+".*")
	}
	return out
}

func (s *Source) columns() []outCol {
	if s.table == nil && s.derived == nil && s.opaque {
		return []outCol{{unknown: true}}
	}
	if s.table != nil {
		out := make([]outCol, len(s.table.Columns))
		for i, c := range s.table.Columns {
			out[i] = outCol{name: c.Name, base: &ColRef{Source: s, Col: c, Tab: s.table}}
		}
		return out
	}
	return s.derived
}

func (sc *scope) lookup(name string) *Source {
	for _, s := range sc.sources {
		if strings.EqualFold(s.Name, name) {
			return s
		}
	}
	return nil
}

func (sc *scope) cte(name string) (cols []outCol, recursing, ok bool) {
	for s := sc; s != nil; s = s.parent {
		if c, ok := s.ctes[strings.ToLower(name)]; ok {
			return c, s.recursing == strings.ToLower(name), true
		}
	}
	return nil, false, false
}

// join adds the sources of a FROM clause to sc and appends them to out:
// one slice for the clause, each join's sides slices of it (capped at
// their ends, so that appends never reach into them).
func (rv *resolver) join(sc *scope, n ast.ResultSetNode, block *ast.SelectStmt, out []*Source) []*Source {
	switch x := n.(type) {
	case *ast.Join:
		start := len(out)
		out = rv.join(sc, x.Left, block, out)
		mid := len(out)
		if x.Right != nil {
			out = rv.join(sc, x.Right, block, out)
		}
		left, right := out[start:mid:mid], out[mid:len(out):len(out)]
		if x.Using != nil || x.NaturalJoin {
			if sc.using == nil {
				sc.using = map[string]bool{}
			}
			for _, c := range x.Using {
				sc.using[strings.ToLower(c.Name.O)] = true
			}
		}
		if x.On != nil {
			rv.expr(sc, x.On.Expr, false)
			rv.r.Conds = append(rv.r.Conds, &joinCond{Expr: x.On.Expr, join: x})
		}
		switch x.Tp {
		case ast.LeftJoin:
			rv.r.Outer = append(rv.r.Outer, &OuterJoin{Join: x, Optional: right, Preserved: left, Block: block})
		case ast.RightJoin:
			rv.r.Outer = append(rv.r.Outer, &OuterJoin{Join: x, Optional: left, Preserved: right, Block: block})
		}
		return out
	case *ast.TableSource:
		src := rv.tableSource(sc, x)
		sc.sources = append(sc.sources, src)
		rv.r.sources = append(rv.r.sources, src)
		return append(out, src)
	case *ast.SelectStmt, *ast.SetOprStmt:
		cols := rv.query(x, nil)
		src := &Source{derived: cols, isDerived: true, opaque: anyUnknown(cols)}
		sc.sources = append(sc.sources, src)
		return append(out, src)
	}
	return out
}

func (rv *resolver) tableSource(sc *scope, ts *ast.TableSource) *Source {
	alias := ts.AsName.O
	switch s := ts.Source.(type) {
	case *ast.TableName:
		name := s.Name.O
		src := &Source{Name: name, tname: name, aliased: alias != ""}
		if alias != "" {
			src.Name = alias
		}
		src.Ref = rv.claim(name, alias, false)
		if cols, recursing, ok := sc.cte(name); ok && s.Schema.O == "" {
			src.derived, src.isDerived, src.opaque = cols, true, recursing || anyUnknown(cols)
			return src
		}
		src.table = rv.u.schema.Table(name)
		if src.table == nil && rv.u.rewroteDual(s) {
			src.isDerived = true // no table: a SELECT with HAVING and nothing to read
			return src
		}
		if src.table == nil {
			src.opaque = true
			off := rv.u.body
			if src.Ref != nil && src.Ref.NameTok != nil {
				off = src.Ref.NameTok.Start
			}
			rv.issue(IssueUnknownTable, off, "unknown table "+name+rv.didYouMeanTable(name))
		}
		return src
	case *ast.SelectStmt, *ast.SetOprStmt:
		cols := rv.query(s.(ast.ResultSetNode), nil)
		return &Source{Name: alias, derived: cols, isDerived: true, aliased: true, opaque: anyUnknown(cols) || isValues(s), Ref: rv.claim("", alias, true)}
	case *ast.Join:
		// a parenthesized join used as one source
		inner := &scope{parent: sc.parent}
		srcs := rv.join(inner, s, nil, nil)
		sc.sources = append(sc.sources, srcs[:max(0, len(srcs)-1)]...)
		if len(srcs) > 0 {
			return srcs[len(srcs)-1]
		}
	}
	return &Source{Name: alias, opaque: true}
}

// isValues reports whether n is a table value constructor (VALUES ROW(...)).
func isValues(n ast.Node) bool {
	s, ok := n.(*ast.SelectStmt)
	return ok && s.Kind == ast.SelectStmtKindValues
}

func (rv *resolver) didYouMeanTable(name string) string {
	if rv.u.schema == nil {
		return " (no schema loaded)"
	}
	var cands []string
	for _, t := range rv.u.schema.Tables() {
		cands = append(cands, t.Name)
	}
	return suggest.DidYouMean(name, cands)
}

// claim finds the token-level reference of a table source.
func (rv *resolver) claim(name, alias string, derived bool) *TableRef {
	for _, r := range rv.u.refs {
		if r.claimed || r.Derived != derived || !strings.EqualFold(r.Alias, alias) {
			continue
		}
		if !derived && !strings.EqualFold(r.Name, name) {
			continue
		}
		r.claimed = true
		return r
	}
	return nil
}

// expr resolves every column reference in e; subqueries get a scope whose
// parent is sc (correlation).
func (rv *resolver) expr(sc *scope, e ast.ExprNode, allowAlias bool) {
	if e == nil {
		return
	}
	saved := rv.vis
	rv.vis = exprVisitor{rv: rv, sc: sc, alias: allowAlias}
	e.Accept(&rv.vis)
	rv.vis = saved
}

type exprVisitor struct {
	rv    *resolver
	sc    *scope
	alias bool
}

func (v *exprVisitor) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.SubqueryExpr:
		v.rv.query(x.Query, v.sc)
		return n, true
	case *ast.ColumnNameExpr:
		if ref := v.rv.columnName(v.sc, x.Name, v.rv.u.srcOffset(x.OriginTextPosition()), v.alias); ref != nil {
			v.rv.r.Cols[x] = ref
		}
		return n, true
	}
	return n, false
}

func (v *exprVisitor) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// columnName resolves one column reference at source offset off.
func (rv *resolver) columnName(sc *scope, cn *ast.ColumnName, off int, allowAlias bool) *ColRef {
	col := cn.Name.O
	if q := cn.Table.O; q != "" {
		for s := sc; s != nil; s = s.parent {
			src := s.lookup(q)
			if src == nil {
				continue
			}
			if ref := rv.column(src, col); ref != nil {
				return ref
			}
			if src.opaque {
				return nil
			}
			rv.issue(IssueUnknownColumn, off, "unknown column "+q+"."+col+src.describe()+suggest.DidYouMean(col, src.columnNames()))
			return nil
		}
		msg := "unknown table or alias " + q + " in " + q + "." + col
		for s := sc; s != nil; s = s.parent {
			for _, src := range s.sources {
				if src.aliased && strings.EqualFold(src.tname, q) {
					msg = "table " + src.tname + " is aliased as " + src.Name + " in this query: write " + src.Name + "." + col
				}
			}
		}
		rv.issue(IssueUnknownTable, off, msg)
		return nil
	}
	if allowAlias {
		for _, a := range sc.aliases {
			if strings.EqualFold(a, col) {
				return nil
			}
		}
	}
	for s := sc; s != nil; s = s.parent {
		var buf [4]*ColRef // room for the usual one, without an allocation
		found := buf[:0]
		opaque := false
		for _, src := range s.sources {
			if ref := rv.column(src, col); ref != nil {
				found = append(found, ref)
			}
			opaque = opaque || src.opaque
		}
		if len(found) > 1 && !s.using[strings.ToLower(col)] {
			var names []string
			for _, f := range found {
				names = append(names, f.Source.Name)
			}
			rv.issue(IssueAmbiguous, off, "column "+col+" is ambiguous: it is in "+strings.Join(names, " and ")+"; qualify it")
			return nil
		}
		if len(found) > 0 {
			return found[0]
		}
		if opaque {
			return nil
		}
	}
	var cands []string
	for s := sc; s != nil; s = s.parent {
		for _, src := range s.sources {
			cands = append(cands, src.columnNames()...)
		}
	}
	rv.issue(IssueUnknownColumn, off, "unknown column "+col+suggest.DidYouMean(col, cands))
	return nil
}

// column returns the reference to s's column name, or nil.
func (rv *resolver) column(s *Source, name string) *ColRef {
	if s.table != nil {
		if c := s.table.Column(name); c != nil {
			return rv.newColRef(ColRef{Source: s, Col: c, Tab: s.table})
		}
		return nil
	}
	for _, c := range s.derived {
		if !c.unknown && strings.EqualFold(c.name, name) {
			ref := ColRef{Source: s}
			if c.base != nil {
				ref.Col, ref.Tab = c.base.Col, c.base.Tab
			}
			return rv.newColRef(ref)
		}
	}
	return nil
}

// newColRef returns a copy of r allocated with others: a file makes a
// ColRef per column reference, and one allocation per 16 of them is
// cheaper than one each. (A full block is left to the references into
// it, never grown in place.)
func (rv *resolver) newColRef(r ColRef) *ColRef {
	if len(rv.refs) == cap(rv.refs) {
		rv.refs = make([]ColRef, 0, 16)
	}
	rv.refs = append(rv.refs, r)
	return &rv.refs[len(rv.refs)-1]
}

func (s *Source) columnNames() []string {
	var out []string
	for _, c := range s.columns() {
		if !c.unknown {
			out = append(out, c.name)
		}
	}
	return out
}

func (s *Source) describe() string {
	if s.table != nil && !strings.EqualFold(s.table.Name, s.Name) {
		return " (" + s.Name + " is table " + s.table.Name + ")"
	}
	if s.isDerived {
		return " (" + s.Name + " is a derived table)"
	}
	return ""
}

// didYouMean suggests the closest candidate by edit distance.
func editDistance(a, b string) int { return suggest.Distance(a, b) }

// isEq reports whether e is an equality comparison.
func IsEq(e ast.ExprNode) (*ast.BinaryOperationExpr, bool) {
	b, ok := e.(*ast.BinaryOperationExpr)
	return b, ok && (b.Op == opcode.EQ || b.Op == opcode.NullEQ)
}

// familyTables returns the tables a table(family) parameter can name.
func familyTables(s *ddl.Schema, fam string) []*ddl.Table {
	if s == nil {
		return nil
	}
	if ts := s.Family(fam); len(ts) > 0 {
		return ts
	}
	if t := s.Table(fam); t != nil {
		return []*ddl.Table{t}
	}
	return nil
}
