package corpus

import "math"

// KindInt is int(LO,HI): an integer in LO..HI, bound as an integer.
const KindInt = "int"

var _ = registerKind(&kind{
	name: KindInt,
	draw: drawInt,
	args: func(d decl) error {
		if err := d.want(2); err != nil {
			return err
		}
		b, err := d.numbers(math.MinInt64, math.MaxInt64, "int: %q is not a whole number", "the low bound is above the high bound")
		if err != nil {
			return err
		}
		if lo, hi := b[0], b[1]; lo < 0 && hi > lo+math.MaxInt64 {
			return d.argErrorf(0, "int(%d,%d): the range is too wide", lo, hi)
		}
		return nil
	},
	compile: func(c compiling, g *gen) error {
		lo, hi, _ := bounds(c.prm)
		g.setRange(lo, hi)
		return nil
	},
	fits: integerFits("an integer"),
})
