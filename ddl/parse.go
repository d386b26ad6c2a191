package ddl

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/types"

	// The parser needs a value-expression driver; the test driver is the
	// light one meant for users of the parser alone.
	_ "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/joinbench/joinbench/internal/sqllex"
)

// ParseError is a DDL syntax error at a 1-based line and column of the source.
type ParseError struct {
	Line, Col int
	Msg       string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// statement is one SQL statement of a source with where it starts.
type statement struct {
	text      string
	line, col int // 1-based position of text[0] in the source
}

// splitStatements splits src at top-level semicolons; sqllex tells which
// are inside quoted strings, identifiers and comments. White space and
// comments before each statement are dropped so that the position is that
// of its first keyword; so is a hint there, a plain comment to the server.
// MySQL's executable comments (/*!...*/) are kept: their content is SQL.
func splitStatements(src string) []statement {
	var out []statement
	lines := sqllex.NewLines(src)
	start := -1
	flush := func(end int) {
		if start >= 0 {
			if txt := strings.TrimSpace(src[start:end]); txt != "" {
				line, col := lines.Position(start)
				out = append(out, statement{text: txt, line: line, col: col})
			}
		}
		start = -1
	}
	sc := sqllex.NewScanner(src, 0)
	for t := sc.Next(); t.Kind != sqllex.EOF; t = sc.Next() {
		switch {
		case t.Kind == sqllex.Punct && src[t.Start] == ';':
			flush(t.Start)
		case start >= 0:
		case t.Kind.IsSpaceOrComment(), t.Kind == sqllex.Hint && t.Misplaced:
		default:
			start = t.Start
		}
	}
	flush(len(src))
	return out
}

var createTableRe = regexp.MustCompile(`(?is)^CREATE\s+(?:OR\s+REPLACE\s+)?(?:TEMPORARY\s+)?TABLE\b`)

var tidbPosRe = regexp.MustCompile(`line (\d+) column (\d+)`)

// ParseSchema builds a model from DDL: every CREATE TABLE statement of src
// becomes a table; other statements are ignored. Errors carry the 1-based
// line and column in src ("3:14: ...").
func ParseSchema(src string) (*Schema, error) {
	p := parser.New()
	p.SetSQLMode(mysql.ModeNone)
	s := NewSchema()
	for _, st := range splitStatements(src) {
		if !createTableRe.MatchString(st.text) {
			continue
		}
		nodes, _, err := p.Parse(st.text, "", "")
		if err != nil {
			return nil, st.parseError(err)
		}
		for _, n := range nodes {
			ct, ok := n.(*ast.CreateTableStmt)
			if !ok {
				continue
			}
			t, err := tableFromAST(ct)
			if err != nil {
				return nil, &ParseError{Line: st.line, Col: st.col, Msg: err.Error()}
			}
			s.Add(t)
		}
	}
	return s, nil
}

// parseError maps a parser error to the position in the whole source.
func (st statement) parseError(err error) error {
	msg := err.Error()
	line, col := st.line, st.col
	if m := tidbPosRe.FindStringSubmatchIndex(msg); m != nil {
		l, _ := strconv.Atoi(msg[m[2]:m[3]])
		c, _ := strconv.Atoi(msg[m[4]:m[5]])
		if l <= 1 {
			col = st.col + c
		} else {
			col = c + 1
		}
		line = st.line + l - 1
		msg = strings.TrimSpace(msg[m[1]:])
		msg = "syntax error " + msg
	}
	msg = strings.ReplaceAll(msg, "\n", " ")
	if len(msg) > 200 {
		msg = msg[:200] + "..."
	}
	return &ParseError{Line: line, Col: col, Msg: msg}
}

func restore(n ast.Node) string {
	var b strings.Builder
	ctx := format.NewRestoreCtx(format.RestoreStringSingleQuotes|format.RestoreStringWithoutCharset|format.RestoreKeyWordUppercase|format.RestoreNameBackQuotes, &b)
	if err := n.Restore(ctx); err != nil {
		return ""
	}
	return b.String()
}

func tableFromAST(ct *ast.CreateTableStmt) (*Table, error) {
	if ct.ReferTable != nil || ct.Select != nil {
		return nil, fmt.Errorf("CREATE TABLE %s: LIKE and AS SELECT are not supported in a schema file", ct.Table.Name.O)
	}
	t := &Table{Name: ct.Table.Name.O, Family: ct.Table.Name.O}
	for _, cd := range ct.Cols {
		c := &Column{Name: cd.Name.Name.O, Type: typeFromField(cd.Tp)}
		for _, o := range cd.Options {
			switch o.Tp {
			case ast.ColumnOptionNotNull:
				c.NotNull = true
			case ast.ColumnOptionNull:
				c.NotNull = false
			case ast.ColumnOptionAutoIncrement:
				c.AutoIncrement = true
			case ast.ColumnOptionDefaultValue:
				c.HasDefault = true
				c.Default = restore(o.Expr)
			case ast.ColumnOptionPrimaryKey:
				c.NotNull = true
				t.addIndex(&Index{Name: "PRIMARY", Columns: []string{c.Name}, Unique: true, Primary: true})
			case ast.ColumnOptionUniqKey:
				t.addIndex(&Index{Name: c.Name, Columns: []string{c.Name}, Unique: true})
			case ast.ColumnOptionCollate:
				c.Type.Collation = strings.ToLower(o.StrValue)
			}
		}
		t.Columns = append(t.Columns, c)
	}
	for _, k := range ct.Constraints {
		ix := &Index{Name: k.Name}
		switch k.Tp {
		case ast.ConstraintPrimaryKey:
			ix.Name, ix.Primary, ix.Unique = "PRIMARY", true, true
		case ast.ConstraintKey, ast.ConstraintIndex:
		case ast.ConstraintUniq, ast.ConstraintUniqKey, ast.ConstraintUniqIndex:
			ix.Unique = true
		case ast.ConstraintFulltext:
		default:
			continue // foreign keys and checks are not indexes of the model
		}
		for _, part := range k.Keys {
			if part.Column == nil {
				return nil, fmt.Errorf("table %s: index %s: expression key parts are not supported", t.Name, k.Name)
			}
			ix.Columns = append(ix.Columns, part.Column.Name.O)
		}
		if ix.Name == "" {
			ix.Name = ix.Columns[0] // MySQL names an unnamed index after its first column
		}
		for _, col := range ix.Columns {
			if t.Column(col) == nil {
				return nil, fmt.Errorf("table %s: index %s names unknown column %s", t.Name, ix.Name, col)
			}
			if ix.Primary {
				t.Column(col).NotNull = true
			}
		}
		t.addIndex(ix)
	}
	var opts []string
	for _, o := range ct.Options {
		switch o.Tp {
		case ast.TableOptionEngine:
			t.Engine = o.StrValue
			continue
		case ast.TableOptionCharset:
			t.Charset = strings.ToLower(o.StrValue)
		case ast.TableOptionCollate:
			t.Collation = strings.ToLower(o.StrValue)
		}
		if s := restore(o); s != "" {
			opts = append(opts, s)
		}
	}
	t.Options = strings.Join(opts, " ")
	return t, nil
}

func (t *Table) addIndex(ix *Index) {
	t.Indexes = append(t.Indexes, ix)
	if ix.Primary {
		t.PrimaryKey = ix
	}
}

// typeFromField converts a parser field type to the model's Type.
func typeFromField(ft *types.FieldType) Type {
	tp := ft.GetType()
	cs := ft.GetCharset()
	base := types.TypeToStr(tp, cs)
	t := Type{Base: base}
	if ft.GetFlen() > 0 {
		t.Length = ft.GetFlen()
	}
	if d := ft.GetDecimal(); d > 0 {
		t.Decimals = d
	}
	switch {
	case t.IsInteger():
		// Display widths mean nothing for the value; keep only the
		// TINYINT(1) that marks a boolean.
		if !(base == "tinyint" && t.Length == 1) {
			t.Length = 0
		}
		t.Decimals = 0
	case base == "float" || base == "double":
		if ft.GetFlen() <= 0 {
			t.Length, t.Decimals = 0, 0
		}
	case base == "date" || base == "datetime" || base == "timestamp" || base == "time":
		t.Length = 0 // the parser reports the display width; fractional digits are in Decimals
	case base == "enum" || base == "set":
		t.Members = append([]string(nil), ft.GetElems()...)
		t.Length = 0
	case base == "text" || base == "blob" || base == "tinytext" || base == "tinyblob" ||
		base == "mediumtext" || base == "mediumblob" || base == "longtext" || base == "longblob" || base == "json":
		t.Length = 0
	}
	if mysql.HasUnsignedFlag(ft.GetFlag()) {
		t.Unsigned = true
	}
	if cs != "" && cs != "binary" {
		t.Charset = strings.ToLower(cs)
	}
	return t
}
