package corpus

import "github.com/joinbench/joinbench/ddl"

// KindYear is year or year(LO,HI): a year, by default the workload's
// (ddl.MinYear..ddl.MaxYear), bound as an integer. The bounds must be
// years a YEAR column holds.
const KindYear = "year"

var _ = registerKind(&kind{
	name:         KindYear,
	distribution: true,
	draw:         drawInt,
	args: func(d decl) error {
		prm := d.prm
		if len(prm.Args) != 0 && len(prm.Args) != 2 {
			return d.errorf("year takes no arguments or (lo,hi), got %d", len(prm.Args))
		}
		lo, hi, _ := ddl.Type{Base: "year"}.IntRange()
		var y [2]int64
		for i, a := range prm.Args {
			v, err := parseInt(a)
			if err != nil || v < lo || v > hi {
				return d.argErrorf(i, "year: %q must be a year in %d..%d", a, lo, hi)
			}
			y[i] = v
		}
		if len(prm.Args) == 2 && y[0] > y[1] {
			return d.argErrorf(0, "year(%d,%d): the low bound is above the high bound", y[0], y[1])
		}
		return nil
	},
	compile: func(c compiling, g *gen) error {
		lo, hi := int64(ddl.MinYear), int64(ddl.MaxYear)
		if l, h, ok := bounds(c.prm); ok {
			lo, hi = l, h
		}
		g.lo, g.n = lo, uint64(hi-lo)+1
		return nil
	},
	// Years are bound as integers: a string column converts instead of
	// comparing. Without bounds the workload's years fit any numeric
	// column; only a declared range is checked against one.
	fits: func(c checking, col *ddl.Column) string {
		if msg := numberFitsString("a year", col.Type); msg != "" {
			return msg
		}
		if lo, hi, ok := bounds(c.prm); ok {
			return rangeFits(lo, hi, col.Type)
		}
		return ""
	},
})
