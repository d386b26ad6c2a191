package corpus

import (
	"math"

	"github.com/joinbench/joinbench/ddl"
)

// KindInt is int(LO,HI): an integer in LO..HI, bound as an integer.
const KindInt = "int"

var _ = registerKind(&kind{
	name:         KindInt,
	distribution: true,
	draw:         drawInt,
	args: func(d decl) error {
		if err := d.want(2); err != nil {
			return err
		}
		lo, err := parseInt(d.prm.Args[0])
		if err != nil {
			return d.argErrorf(0, "int: %q is not a whole number", d.prm.Args[0])
		}
		hi, err := parseInt(d.prm.Args[1])
		if err != nil {
			return d.argErrorf(1, "int: %q is not a whole number", d.prm.Args[1])
		}
		if lo > hi {
			return d.argErrorf(0, "int(%d,%d): the low bound is above the high bound", lo, hi)
		}
		if lo < 0 && hi > lo+math.MaxInt64 {
			return d.argErrorf(0, "int(%d,%d): the range is too wide", lo, hi)
		}
		return nil
	},
	compile: func(c compiling, g *gen) error {
		lo, hi, _ := bounds(c.prm)
		g.lo, g.n = lo, uint64(hi-lo)+1
		if g.n == 0 { // the whole int64 range cannot be declared; keep it safe
			g.n = 1<<64 - 1
		}
		return nil
	},
	fits: func(c checking, col *ddl.Column) string {
		if msg := numberFitsString("an integer", col.Type); msg != "" {
			return msg
		}
		if lo, hi, ok := bounds(c.prm); ok {
			return rangeFits(lo, hi, col.Type)
		}
		return ""
	},
})
