package corpus

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/sqllex"
	"github.com/joinbench/joinbench/internal/usage"
)

// DefaultTableSize is the number of rows per table that id(table)
// placeholders assume when CompileOptions.TableSize is 0.
const DefaultTableSize = 10000

// maxVariants bounds the distinct SQL texts of one statement (one per
// combination of its table parameters' choices).
const maxVariants = 4096

// CompileOptions are the run's settings that shape rendering.
type CompileOptions struct {
	// Tables is how many tables of each family a table(family) parameter
	// chooses from (the first Tables of the family); 0 means all the
	// schema has.
	Tables int
	// TableSize is the rows per table: id(table) draws in 1..TableSize.
	// 0 means DefaultTableSize.
	TableSize int64
	// Distribution is the default distribution for every parameter whose
	// declaration names none (table parameters excepted, which stay
	// uniform); "" means uniform.
	Distribution string
	// TableName is the prefix of the main tables when it is not "main":
	// the family `main` in table(main), enum(main.col) and id(main) then
	// means this family.
	TableName string
}

// Template is a scenario compiled against a schema, ready to render.
type Template struct {
	Scenario *Scenario
	// Write reports whether any statement is not a plain read (see
	// Scenario.Writes): it changes rows or the schema, locks, stores what
	// it reads or changes the session.
	Write bool
	// Hash identifies the statement text: the first 16 hex digits of the
	// SHA-256 of the scenario's body.
	Hash string

	gens  []*gen
	stmts []stmtTmpl
	mix   uint64 // mixes the scenario into renderer seeds
}

// gen is how one parameter's values are drawn.
type gen struct {
	prm     *Param
	draw    drawKind // prm.Kind as the renderer switches on it
	choices []string // table names, enum/set members, list values
	boxed   []any    // choices as bind arguments (nil for tables)
	lo      int64    // numeric kinds: value = lo + draw
	n       uint64   // number of distinct draws
	minLen  int      // string lengths
	maxLen  int
	dist    dist
}

// drawKind is how a renderer draws a parameter's value. Renderers switch
// on it for every parameter of every execution, so it is a small integer
// rather than the Kind string.
type drawKind uint8

const (
	drawTable  drawKind = iota // an index into choices, substituted into the SQL text
	drawChoice                 // an index into choices, bound (enum, set, list)
	drawInt                    // lo + a draw (int, id, year)
	drawString
	drawUUID
)

func drawKindOf(kind string) drawKind {
	switch kind {
	case KindTable:
		return drawTable
	case KindEnum, KindSet, KindList:
		return drawChoice
	case KindInt, KindID, KindYear:
		return drawInt
	case KindString:
		return drawString
	}
	return drawUUID
}

type stmtTmpl struct {
	tables   []int    // table parameters used, in the order that indexes variants
	variants []string // SQL text for each combination of table choices
	args     []int    // the parameter bound to each ?, in order
}

var safeIdent = regexp.MustCompile(`^[A-Za-z0-9_$]+$`)

// Compile checks a scenario's parameters against a schema (tables, ENUM
// and SET columns, lists) and prepares its SQL texts. Errors name the
// declaration's file:line:col and are usage errors.
func Compile(s *Scenario, schema *ddl.Schema, opts CompileOptions) (*Template, error) {
	if opts.TableSize == 0 {
		opts.TableSize = DefaultTableSize
	}
	if opts.TableSize < 0 {
		return nil, usage.Errorf("table size must be at least 1, got %d", opts.TableSize)
	}
	if schema == nil {
		return nil, fmt.Errorf("compile %s: no schema", s.Name)
	}
	if opts.Tables < 0 {
		return nil, usage.Errorf("number of tables must be at least 1, got %d", opts.Tables)
	}
	def, err := parseDist(opts.Distribution, nil)
	if err != nil || opts.Distribution != "" && !contains(Distributions, opts.Distribution) {
		return nil, usage.Errorf("distribution %q: use one of %s", opts.Distribution, strings.Join(Distributions, ", "))
	}
	sum := sha256.Sum256([]byte(s.Body))
	t := &Template{Scenario: s, Hash: hex.EncodeToString(sum[:8]), Write: len(s.Writes()) > 0}
	nameSum := sha256.Sum256([]byte(s.Name))
	t.mix = binary.LittleEndian.Uint64(nameSum[:8])
	for _, prm := range s.Params {
		g, err := compileParam(s, prm, schema, opts, def)
		if err != nil {
			return nil, err
		}
		t.gens = append(t.gens, g)
	}
	for _, sp := range s.stmts {
		st, err := t.compileStmt(sp)
		if err != nil {
			return nil, err
		}
		t.stmts = append(t.stmts, st)
	}
	return t, nil
}

func argAt(prm *Param, i int) int {
	if i < len(prm.argOff) {
		return prm.argOff[i]
	}
	return prm.off
}

// family maps the family `main` to the configured prefix.
func (o CompileOptions) family(name string) string {
	if o.TableName != "" && strings.EqualFold(name, ddl.DefaultTableName) {
		return o.TableName
	}
	return name
}

// tables resolves a table or family name to its tables.
func tables(schema *ddl.Schema, name string, opts CompileOptions) []*ddl.Table {
	fam := schema.Family(opts.family(name))
	if len(fam) == 0 {
		if tb := schema.Table(name); tb != nil {
			fam = []*ddl.Table{tb}
		}
	}
	if opts.Tables > 0 && len(fam) > opts.Tables {
		fam = fam[:opts.Tables]
	}
	return fam
}

func compileParam(s *Scenario, prm *Param, schema *ddl.Schema, opts CompileOptions, def dist) (*gen, error) {
	g := &gen{prm: prm, draw: drawKindOf(prm.Kind), dist: def}
	if prm.Distribution != "" {
		d, err := parseDist(prm.Distribution, prm.DistArgs)
		if err != nil {
			return nil, s.errorf(prm.off, "%v", err)
		}
		g.dist = d
	} else if prm.Kind == KindTable {
		g.dist = dist{name: DistUniform}
	}
	switch prm.Kind {
	case KindTable:
		tabs := tables(schema, prm.Args[0], opts)
		if len(tabs) == 0 {
			return nil, s.errorf(argAt(prm, 0), "table(%s): no table or table family %q in the schema", prm.Args[0], prm.Args[0])
		}
		if fam := opts.family(prm.Args[0]); opts.Tables > len(tabs) && strings.EqualFold(fam, opts.family(ddl.DefaultTableName)) {
			return nil, usage.Errorf("%s: table(%s): %d tables asked for, the schema has %d (%s1..%s%d)",
				s.Path, prm.Args[0], opts.Tables, len(tabs), fam, fam, len(tabs))
		}
		for _, tb := range tabs {
			if !safeIdent.MatchString(tb.Name) {
				return nil, s.errorf(argAt(prm, 0), "table(%s): table name %q is not a plain identifier", prm.Args[0], tb.Name)
			}
			g.choices = append(g.choices, tb.Name)
		}
		g.n = uint64(len(g.choices))
	case KindEnum, KindSet:
		tname, cname, _ := strings.Cut(prm.Args[0], ".")
		tabs := tables(schema, tname, opts)
		if len(tabs) == 0 {
			return nil, s.errorf(argAt(prm, 0), "%s(%s): no table or table family %q in the schema", prm.Kind, prm.Args[0], tname)
		}
		col := tabs[0].Column(cname)
		if col == nil {
			return nil, s.errorf(argAt(prm, 0), "%s(%s): table %s has no column %q", prm.Kind, prm.Args[0], tabs[0].Name, cname)
		}
		if col.Type.Base != prm.Kind || len(col.Type.Members) == 0 {
			return nil, s.errorf(argAt(prm, 0), "%s(%s): column %s.%s is %s, not %s", prm.Kind, prm.Args[0], tabs[0].Name, col.Name, col.Type.Base, strings.ToUpper(prm.Kind))
		}
		g.setChoices(col.Type.Members)
	case KindList:
		vals, ok := s.List(prm.Args[0])
		if !ok {
			return nil, s.errorf(argAt(prm, 0), "list(%s): no such list (built-in lists: %s; a corpus folder may add NAME.list files)", prm.Args[0], strings.Join(ddl.DomainNames(), ", "))
		}
		if len(vals) == 0 {
			return nil, s.errorf(argAt(prm, 0), "list(%s) is empty", prm.Args[0])
		}
		g.setChoices(vals)
	case KindID:
		if len(tables(schema, prm.Args[0], opts)) == 0 {
			return nil, s.errorf(argAt(prm, 0), "id(%s): no table or table family %q in the schema", prm.Args[0], prm.Args[0])
		}
		g.lo, g.n = 1, uint64(opts.TableSize)
	case KindInt:
		lo, _ := parseInt(prm.Args[0])
		hi, _ := parseInt(prm.Args[1])
		g.lo, g.n = lo, uint64(hi-lo)+1
		if g.n == 0 { // the whole int64 range cannot be declared; keep it safe
			g.n = 1<<64 - 1
		}
	case KindYear:
		lo, hi := int64(ddl.MinYear), int64(ddl.MaxYear)
		if len(prm.Args) == 2 {
			lo, _ = parseInt(prm.Args[0])
			hi, _ = parseInt(prm.Args[1])
		}
		g.lo, g.n = lo, uint64(hi-lo)+1
	case KindString:
		a, _ := parseInt(prm.Args[0])
		b := a
		if len(prm.Args) == 2 {
			b, _ = parseInt(prm.Args[1])
		}
		g.minLen, g.maxLen = int(a), int(b)
	case KindUUID:
	default:
		return nil, s.errorf(prm.off, "unknown parameter type %q", prm.Kind)
	}
	return g, nil
}

func (g *gen) setChoices(vals []string) {
	g.choices = vals
	g.boxed = make([]any, len(vals))
	for i, v := range vals {
		g.boxed[i] = v
	}
	g.n = uint64(len(vals))
}

func (t *Template) compileStmt(sp stmtParts) (stmtTmpl, error) {
	st := stmtTmpl{}
	seen := map[int]bool{}
	combos := 1
	for _, pt := range sp.parts {
		if pt.param < 0 {
			continue
		}
		if t.gens[pt.param].prm.Kind != KindTable {
			st.args = append(st.args, pt.param)
			continue
		}
		if !seen[pt.param] {
			seen[pt.param] = true
			st.tables = append(st.tables, pt.param)
			combos *= len(t.gens[pt.param].choices)
			if combos > maxVariants {
				prm := t.gens[pt.param].prm
				return st, t.Scenario.errorf(prm.off, "the table parameters of one statement allow more than %d combinations; use fewer tables", maxVariants)
			}
		}
	}
	choice := make(map[int]int, len(st.tables))
	var b strings.Builder
	for c := 0; c < combos; c++ {
		rest := c
		for k := len(st.tables) - 1; k >= 0; k-- {
			p := st.tables[k]
			n := len(t.gens[p].choices)
			choice[p] = rest % n
			rest /= n
		}
		b.Reset()
		for _, pt := range sp.parts {
			switch {
			case pt.param < 0:
				b.WriteString(pt.text)
			case t.gens[pt.param].prm.Kind == KindTable:
				b.WriteString(sqllex.QuoteIdent(t.gens[pt.param].choices[choice[pt.param]]))
			default:
				b.WriteByte('?')
			}
		}
		st.variants = append(st.variants, b.String())
	}
	return st, nil
}

// Queries returns every distinct SQL text that Render can return, in a
// stable order (statement by statement, then table choice), so a worker
// can prepare each once per connection.
func (t *Template) Queries() []string {
	var out []string
	seen := map[string]bool{}
	for _, st := range t.stmts {
		for _, q := range st.variants {
			if !seen[q] {
				seen[q] = true
				out = append(out, q)
			}
		}
	}
	return out
}

// ParamNames returns the declared parameters' names, in the order Values
// reports their values.
func (t *Template) ParamNames() []string {
	out := make([]string, len(t.gens))
	for i, g := range t.gens {
		out[i] = g.prm.Name
	}
	return out
}

// Statements returns how many statements one rendering yields.
func (t *Template) Statements() int { return len(t.stmts) }

// String describes the template for errors and logs.
func (t *Template) String() string { return fmt.Sprintf("%s (%s)", t.Scenario.Name, t.Hash) }
