package corpus

import (
	"fmt"

	"github.com/joinbench/joinbench/ddl"
)

// KindYear is year or year(LO,HI): a year, by default the workload's
// (ddl.MinYear..ddl.MaxYear), bound as an integer. The bounds must be
// years a YEAR column holds.
const KindYear = "year"

var _ = registerKind(&kind{
	name: KindYear,
	draw: drawInt,
	args: func(d decl) error {
		if n := len(d.prm.Args); n != 0 && n != 2 {
			return d.errorf("year takes no arguments or (lo,hi), got %d", n)
		}
		lo, hi, _ := ddl.Type{Base: "year"}.IntRange()
		_, err := d.numbers(lo, hi, fmt.Sprintf("year: %%q must be a year in %d..%d", lo, hi), "the low bound is above the high bound")
		return err
	},
	compile: func(c compiling, g *gen) error {
		lo, hi := int64(ddl.MinYear), int64(ddl.MaxYear)
		if l, h, ok := bounds(c.prm); ok {
			lo, hi = l, h
		}
		g.setRange(lo, hi)
		return nil
	},
	// Without bounds the workload's years fit any numeric column; only a
	// declared range is checked against one.
	fits: integerFits("a year"),
})
