package load

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/joinbench/joinbench/ddl"
)

// tally collects the TableStats of the plan's tables, in plan order.
type tally struct {
	mu     sync.Mutex
	tables []TableStats
}

func newTally(p *loadPlan) *tally {
	t := &tally{tables: make([]TableStats, len(p.tables))}
	for i, tp := range p.tables {
		t.tables[i].Name = tp.Name
	}
	return t
}

// loaded counts time spent loading table (an index in the plan) and the
// rows of a range that is complete.
func (t *tally) loaded(table int, took time.Duration, rows int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.tables[table].Load += took
	t.tables[table].Rows += rows
}

// indexed records how long adding the secondary indexes of the named
// table took, if the plan loads it.
func (t *tally) indexed(name string, took time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i := range t.tables {
		if t.tables[i].Name == name {
			t.tables[i].Indexing = took
		}
	}
}

// loadRows is the load stage. Up to Threads sessions take the plan's row
// ranges in turn and load each chunk by chunk, every chunk committed on
// its own. The session that commits a table's last row then adds the
// table's deferred secondary indexes, while the others keep loading, so
// that no thread idles between the loading and the indexing of the tables.
//
// When ctx ends or a session fails, the sessions finish the chunk in
// flight and stop, and the error names the resume point (see stopError).
// An interruption while indexing leaves the table without its indexes;
// the resumed load adds them (plan's indexAfter).
func loadRows(ctx context.Context, db *sql.DB, opts PrepareOptions, p *loadPlan, maxPacket int64, st *tally) error {
	gen, err := ddl.NewGenerator(opts.Gen)
	if err != nil {
		return err
	}
	next := make([]atomic.Int64, len(p.ranges))      // first row not committed, per range
	remaining := make([]atomic.Int64, len(p.tables)) // ranges not complete, per table
	for i, r := range p.ranges {
		next[i].Store(r.from)
		remaining[r.table].Add(1)
	}
	if opts.Progress != nil {
		for _, t := range p.tables {
			opts.Progress.Start(t.Name, t.to-t.first+1, t.from-t.first)
		}
	}

	work := make(chan int) // index in p.ranges
	// The sessions stop between chunks when ctx ends, but never inside
	// one: a chunk in flight is finished so that the resume point is exact.
	g, gctx := errgroup.WithContext(context.WithoutCancel(ctx))
	g.Go(func() error {
		defer close(work)
		for i := range p.ranges {
			select {
			case work <- i:
			case <-ctx.Done():
				return nil
			case <-gctx.Done():
				return nil
			}
		}
		return nil
	})
	for w := 0; w < min(opts.Threads, len(p.ranges)); w++ {
		g.Go(func() error {
			conn, err := loadSession(gctx, db, opts)
			if err != nil {
				return err
			}
			defer conn.Close()
			l := &loader{conn: conn, gen: gen, method: p.method, maxPacket: maxPacket}
			for ri := range work {
				r, t := p.ranges[ri], &p.tables[p.ranges[ri].table]
				start := time.Now()
				for from := r.from; from <= r.to; from += p.chunkSize {
					if ctx.Err() != nil || gctx.Err() != nil {
						break // the chunk in flight is finished; stop here
					}
					to := min(from+p.chunkSize-1, r.to)
					if err := l.chunk(gctx, t.BuiltinTable, t.n, from, to); err != nil {
						return fmt.Errorf("load %s rows %d..%d: %w", t.Name, from, to, err)
					}
					next[ri].Store(to + 1)
					if opts.Progress != nil {
						opts.Progress.Add(t.Name, to-from+1)
					}
				}
				complete := next[ri].Load() > r.to
				rows := int64(0)
				if complete {
					rows = r.to - r.from + 1
				}
				st.loaded(r.table, time.Since(start), rows)
				if !complete || remaining[r.table].Add(-1) != 0 {
					continue
				}
				if opts.Progress != nil {
					opts.Progress.Done(t.Name)
				}
				if t.bare && t.AddIndexes != "" {
					if opts.Progress == nil {
						opts.logf("adding the secondary indexes of %s", t.Name)
					}
					took, err := addIndexes(ctx, gctx, db, conn, t.BuiltinTable)
					if err != nil {
						return err
					}
					st.indexed(t.Name, took)
				}
			}
			return nil
		})
	}
	err = g.Wait()
	if ctx.Err() == nil && err == nil {
		return nil
	}
	rows := make([]int64, len(next))
	for i := range next {
		rows[i] = next[i].Load()
	}
	return p.stopError(err, ctx.Err(), rows)
}
