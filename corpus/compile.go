package corpus

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
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
	sample  *SampleRequest // sample(...): the column whose values choices become
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

// indexed reports whether values are drawn by index or number, so that a
// distribution applies.
func (d drawKind) indexed() bool { return d == drawTable || d == drawChoice || d == drawInt }

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
	if err != nil || opts.Distribution != "" && !slices.Contains(Distributions, opts.Distribution) {
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
	kd := kinds[prm.Kind]
	if kd == nil {
		return nil, s.errorf(prm.off, "unknown parameter type %q", prm.Kind)
	}
	g := &gen{prm: prm, draw: kd.draw, dist: def}
	if prm.Distribution != "" {
		d, err := parseDist(prm.Distribution, prm.DistArgs)
		if err != nil {
			return nil, s.errorf(prm.off, "%v", err)
		}
		g.dist = d
	} else if prm.Kind == KindTable {
		g.dist = dist{name: DistUniform}
	}
	if err := kd.compile(compiling{s: s, prm: prm, schema: schema, opts: opts}, g); err != nil {
		return nil, err
	}
	return g, nil
}

// setRange draws integers in lo..hi.
func (g *gen) setRange(lo, hi int64) {
	g.lo, g.n = lo, uint64(hi-lo)+1
	if g.n == 0 { // the whole int64 range cannot be declared; keep it safe
		g.n = 1<<64 - 1
	}
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
