package replay

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/internal/colsample"
	"github.com/joinbench/joinbench/internal/usage"
)

// drawSamples reads, before anything renders, the values of every
// sample(TABLE.COLUMN) parameter of the run from the first endpoint, once
// per column, and gives them to the templates. The sample depends on the
// run's seed and the column's values only, so the two servers of an ab
// loaded with the same data draw the same values.
func (w *workload) drawSamples(ctx context.Context, db *sql.DB, seed uint64, log func(format string, args ...any)) error {
	read := map[string]colsample.Sample{}
	for _, t := range w.templates {
		for _, r := range t.Samples() {
			key := strings.ToLower(r.Table + "." + r.Column + "/" + fmt.Sprint(r.Size))
			s, ok := read[key]
			if !ok {
				var err error
				if s, err = colsample.Read(ctx, db, r.Table, r.Column, r.Size, seed); err != nil {
					return fmt.Errorf("scenario %s: %w", t.Scenario.Name, err)
				}
				read[key] = s
				log("%s: %d values", r, len(s.Text))
			}
			if err := t.SetSample(r, s.Text, s.Bind); err != nil {
				return usage.Wrap(err)
			}
		}
	}
	return nil
}

// samplesOf lists the templates with sample parameters (compile keeps
// only those).
func samplesOf(t *corpus.Template) bool { return len(t.Samples()) > 0 }
