package corpus

import (
	"math/rand/v2"
	"strconv"
	"unsafe"
)

// Statement is one rendered statement: SQL with ? for values (table
// parameters already substituted as back-quoted identifiers) and the
// values to bind, in order.
type Statement struct {
	SQL  string
	Args []any
}

// Renderer draws parameter values and renders a template's statements. It
// belongs to one thread: no locks, not safe for concurrent use.
type Renderer struct {
	t        *Template
	r        *rand.Rand
	samplers []sampler
	idx      []uint64 // index kinds: the chosen index
	ints     []int64  // numeric kinds: the value
	strs     []string // string and uuid kinds: the value
	boxed    []any    // each parameter's bind value
	out      []Statement
	buf      []byte
	text     []byte // where Values formats numbers; see appendText
}

// NewRenderer returns the renderer of one thread. For one seed, each
// (scenario, thread) pair yields its own reproducible value stream.
func (t *Template) NewRenderer(seed uint64, thread int) *Renderer {
	r := rand.New(rand.NewPCG(seed^t.mix, uint64(thread)*0x9e3779b97f4a7c15+1))
	rd := &Renderer{
		t:        t,
		r:        r,
		samplers: make([]sampler, len(t.gens)),
		idx:      make([]uint64, len(t.gens)),
		ints:     make([]int64, len(t.gens)),
		strs:     make([]string, len(t.gens)),
		boxed:    make([]any, len(t.gens)),
		out:      make([]Statement, len(t.stmts)),
	}
	maxLen := 36
	for i, g := range t.gens {
		rd.samplers[i] = newSampler(g.dist, g.n, r)
		if g.maxLen > maxLen {
			maxLen = g.maxLen
		}
	}
	rd.buf = make([]byte, maxLen)
	for i, st := range t.stmts {
		rd.out[i].Args = make([]any, 0, len(st.args))
	}
	return rd
}

const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// Next draws fresh values and returns the statements of one execution. A
// parameter used in several statements has the same value in each. The
// result is valid until the next call.
func (rd *Renderer) Next() []Statement {
	r := rd.r
	for i, g := range rd.t.gens {
		switch g.draw {
		case drawTable:
			rd.idx[i] = rd.samplers[i].next(r)
		case drawChoice:
			k := rd.samplers[i].next(r)
			rd.idx[i] = k
			rd.boxed[i] = g.boxed[k]
		case drawInt:
			v := g.lo + int64(rd.samplers[i].next(r))
			rd.ints[i] = v
			rd.boxed[i] = v
		case drawString:
			n := g.minLen
			if g.maxLen > g.minLen {
				n += r.IntN(g.maxLen - g.minLen + 1)
			}
			b := rd.buf[:n]
			for j := 0; j < n; j += 8 {
				u := r.Uint64()
				for k := j; k < j+8 && k < n; k++ {
					b[k] = letters[(u&0xff)%uint64(len(letters))]
					u >>= 8
				}
			}
			rd.strs[i] = string(b)
			rd.boxed[i] = rd.strs[i]
		case drawUUID:
			rd.strs[i] = string(appendUUID(rd.buf[:0], r.Uint64(), r.Uint64()))
			rd.boxed[i] = rd.strs[i]
		}
	}
	for j := range rd.t.stmts {
		st := &rd.t.stmts[j]
		c := uint64(0)
		for _, p := range st.tables {
			c = c*rd.t.gens[p].n + rd.idx[p]
		}
		o := &rd.out[j]
		o.SQL = st.variants[c]
		o.Args = o.Args[:0]
		for _, p := range st.args {
			o.Args = append(o.Args, rd.boxed[p])
		}
	}
	return rd.out
}

// Values appends the values of the last Next to dst as text, one per
// declared parameter in declaration order (Template.ParamNames); a table
// parameter reports the table's name.
func (rd *Renderer) Values(dst []string) []string {
	for i, g := range rd.t.gens {
		switch g.draw {
		case drawTable, drawChoice:
			dst = append(dst, g.choices[rd.idx[i]])
		case drawInt:
			dst = append(dst, rd.intText(rd.ints[i]))
		default:
			dst = append(dst, rd.strs[i])
		}
	}
	return dst
}

// textChunk is the size of the blocks numbers are formatted into.
const textChunk = 4096

// intText formats v as a string without an allocation of its own: the
// text goes into a shared block, handed out in pieces that are never
// written again (a full block is left to the strings that use it and a
// new one started), so the string stays valid however long it is kept.
// Recording every execution's values then costs one allocation per few
// hundred values instead of one per value.
func (rd *Renderer) intText(v int64) string {
	if cap(rd.text)-len(rd.text) < 20 {
		rd.text = make([]byte, 0, textChunk)
	}
	n := len(rd.text)
	rd.text = strconv.AppendInt(rd.text, v, 10)
	return unsafe.String(&rd.text[n], len(rd.text)-n)
}

const hexDigits = "0123456789abcdef"

// appendUUID formats a random version 4 UUID.
func appendUUID(b []byte, hi, lo uint64) []byte {
	var u [16]byte
	for i := 0; i < 8; i++ {
		u[i] = byte(hi >> (8 * i))
		u[8+i] = byte(lo >> (8 * i))
	}
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	for i, c := range u {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			b = append(b, '-')
		}
		b = append(b, hexDigits[c>>4], hexDigits[c&0x0f])
	}
	return b
}
