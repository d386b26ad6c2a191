package corpus

import (
	"fmt"
	"strings"

	"github.com/joinbench/joinbench/ddl"
)

// KindSample is sample(TABLE.COLUMN) or sample(TABLE.COLUMN, N): one of
// up to N distinct values of the column as the data holds them, read
// from the server when the run starts (Template.Samples,
// Template.SetSample), so that a replayed lookup or join finds rows as
// the captured one did. N defaults to DefaultSampleSize.
const KindSample = "sample"

// DefaultSampleSize and MaxSampleSize bound the values a sample(...)
// parameter draws from: each is held in memory by every run.
const (
	DefaultSampleSize = 1000
	MaxSampleSize     = 100000
)

// SampleRequest is a column a template's sample parameters draw from.
type SampleRequest struct {
	Table, Column string
	Size          int
}

func (r SampleRequest) String() string {
	return fmt.Sprintf("sample(%s.%s, %d)", r.Table, r.Column, r.Size)
}

var _ = registerKind(&kind{
	name: KindSample,
	draw: drawChoice,
	args: func(d decl) error {
		if len(d.prm.Args) != 1 && len(d.prm.Args) != 2 {
			return d.errorf("sample takes table.column and an optional sample size, got %s", plural(len(d.prm.Args), "argument"))
		}
		t, c, ok := strings.Cut(d.prm.Args[0], ".")
		if !ok || !isIdent(t) || !isIdent(c) {
			return d.argErrorf(0, "sample(%s): expected table.column", d.prm.Args[0])
		}
		if len(d.prm.Args) == 2 {
			if n, err := parseInt(d.prm.Args[1]); err != nil || n < 1 || n > MaxSampleSize {
				return d.argErrorf(1, "sample size %q: expected a whole number in 1..%d", d.prm.Args[1], MaxSampleSize)
			}
		}
		return nil
	},
	compile: func(c compiling, g *gen) error {
		// The values are the server's to give: until SetSample, the one
		// choice binds NULL (and says so as text), so that show and an
		// EXPLAIN render the statement without a server's data.
		g.sample = sampleRequest(c.prm)
		g.setChoices([]string{"<" + g.sample.Table + "." + g.sample.Column + " read at run start>"})
		g.boxed[0] = nil
		return nil
	},
	check: func(c checking) string {
		if c.schema == nil {
			return ""
		}
		req := sampleRequest(c.prm)
		tabs := c.tables(req.Table)
		if len(tabs) == 0 {
			return "no table " + req.Table + " in the schema"
		}
		if tabs[0].Column(req.Column) == nil {
			return fmt.Sprintf("table %s has no column %s", tabs[0].Name, req.Column)
		}
		return ""
	},
	fits: func(c checking, col *ddl.Column) string {
		if c.schema == nil {
			return ""
		}
		req := sampleRequest(c.prm)
		tabs := c.tables(req.Table)
		if len(tabs) == 0 {
			return ""
		}
		src := tabs[0].Column(req.Column)
		if src == nil {
			return ""
		}
		if src.Type.IsInteger() && col.Type.IsString() && col.Type.Base != "enum" && col.Type.Base != "set" {
			return numberFitsString("a sample of an integer column", col.Type)
		}
		return ""
	},
})

// sampleRequest reads a sample declaration (its arguments checked).
func sampleRequest(prm *Param) *SampleRequest {
	t, c, _ := strings.Cut(prm.Args[0], ".")
	r := &SampleRequest{Table: t, Column: c, Size: DefaultSampleSize}
	if len(prm.Args) == 2 {
		if n, err := parseInt(prm.Args[1]); err == nil {
			r.Size = int(n)
		}
	}
	return r
}

// Samples returns the columns the template's sample parameters draw
// from, each once, in declaration order. A run reads them from the
// server (SetSample) before it renders.
func (t *Template) Samples() []SampleRequest {
	var out []SampleRequest
	for _, g := range t.gens {
		if g.sample != nil && !containsRequest(out, *g.sample) {
			out = append(out, *g.sample)
		}
	}
	return out
}

func containsRequest(rs []SampleRequest, r SampleRequest) bool {
	for _, x := range rs {
		if strings.EqualFold(x.Table, r.Table) && strings.EqualFold(x.Column, r.Column) && x.Size == r.Size {
			return true
		}
	}
	return false
}

// SetSample gives the parameters drawing from r their values: text as
// results record it, and each value as it is bound (an int64 for an
// integer column, a string else). No values is an error naming the
// column: a lookup of a value the table does not hold would measure
// nothing the capture saw. Call it before NewRenderer.
func (t *Template) SetSample(r SampleRequest, text []string, bind []any) error {
	if len(text) == 0 || len(text) != len(bind) {
		return fmt.Errorf("scenario %s: %s: the column holds no value to draw", t.Scenario.Name, r)
	}
	for _, g := range t.gens {
		if g.sample == nil || !containsRequest([]SampleRequest{*g.sample}, r) {
			continue
		}
		g.setChoices(text)
		copy(g.boxed, bind)
	}
	return nil
}
