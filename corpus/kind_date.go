package corpus

import (
	"fmt"
	"strings"
	"time"

	"github.com/joinbench/joinbench/ddl"
)

// KindDate is date(LO,HI): a day in LO..HI (YYYY-MM-DD), bound as the
// text 'YYYY-MM-DD', which a DATE, DATETIME or TIMESTAMP column compares
// as that day at midnight.
const KindDate = "date"

// maxDays bounds the days of a date range: each is a choice in memory.
const maxDays = 100000

const dateLayout = "2006-01-02"

var _ = registerKind(&kind{
	name: KindDate,
	draw: drawChoice,
	args: func(d decl) error {
		if err := d.want(2); err != nil {
			return err
		}
		var days [2]time.Time
		for i, a := range d.prm.Args {
			t, err := time.Parse(dateLayout, a)
			if err != nil {
				return d.argErrorf(i, "date: %q is not a day written YYYY-MM-DD", a)
			}
			days[i] = t
		}
		switch n := days[1].Sub(days[0]).Hours() / 24; {
		case n < 0:
			return d.argErrorf(0, "date(%s,%s): the low bound is above the high bound", d.prm.Args[0], d.prm.Args[1])
		case n >= maxDays:
			return d.argErrorf(0, "date(%s,%s): more than %d days", d.prm.Args[0], d.prm.Args[1], maxDays)
		}
		return nil
	},
	compile: func(c compiling, g *gen) error {
		lo, _ := time.Parse(dateLayout, c.prm.Args[0])
		hi, _ := time.Parse(dateLayout, c.prm.Args[1])
		var days []string
		for d := lo; !d.After(hi); d = d.AddDate(0, 0, 1) {
			days = append(days, d.Format(dateLayout))
		}
		g.setChoices(days)
		return nil
	},
	fits: func(_ checking, col *ddl.Column) string {
		switch col.Type.Base {
		case "date", "datetime", "timestamp", "char", "varchar":
			return ""
		}
		return fmt.Sprintf("a date compared with a %s column", strings.ToUpper(col.Type.Base))
	},
})
