package results

import (
	"fmt"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/parquet-go/parquet-go"
)

// ExecutionWriter streams Execution rows to executions-<host>-<n>.parquet
// files. Use one per writing goroutine: it is not meant for concurrent use
// (it is still safe against a concurrent RunDir.Close).
type ExecutionWriter struct {
	d  *RunDir
	mu sync.Mutex
	r  rollingWriter[Execution]
	// With Options.Journal, rows go to journal j (opened on the first
	// Write, a new one every journalRows) and journals lists those
	// finished, turned into Parquet by Roll and Close.
	j        *journalWriter[Execution]
	journals []string
	pending  int64 // rows in journals not yet converted
	closed   bool
}

// Write appends rows. They are buffered up to a row group, then streamed;
// files are finished and a new one started per the RunDir's Options. An
// empty RunID or ClientHost is set, in place, to the run's.
func (w *ExecutionWriter) Write(rows []Execution) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return errClosed
	}
	for i := range rows {
		if rows[i].RunID == "" {
			rows[i].RunID = w.d.runID
		}
		if rows[i].ClientHost == "" {
			rows[i].ClientHost = w.d.clientHost
		}
		rows[i].Segment = int32(w.d.segment)
	}
	if w.d.opts.Journal {
		return w.journal(rows)
	}
	return w.r.write(rows)
}

// journalFileRows is how many rows a journal, and so the executions file
// made of it, holds at most (FileRows when smaller): four row groups.
// Readers decode files in parallel, so a run's rows must be in more
// files than a machine has cores for report to use them all; a file per
// second (--live-results) is many more than needed, one per FileRows
// (4M) too few for any run under an hour at 1,000 statements a second.
const journalFileRows = 1 << 18

// journalRows is how many rows a journal of w holds at most.
func (w *ExecutionWriter) journalRows() int64 { return min(w.d.opts.FileRows, journalFileRows) }

// journal appends rows to the journal, starting a new one every
// journalRows, so that each becomes one executions file.
func (w *ExecutionWriter) journal(rows []Execution) error {
	for len(rows) > 0 {
		if w.j == nil {
			path := filepath.Join(w.d.path, fileName(w.r.prefix, w.r.nextN(), journalSuffix))
			j, err := createJournal(w.d, path, executionJournal)
			if err != nil {
				return err
			}
			w.j = j
		}
		n := min(int64(len(rows)), w.journalRows()-w.j.rows)
		if err := w.j.write(rows[:n]); err != nil {
			return err
		}
		w.pending += n
		rows = rows[n:]
		if w.j.rows >= w.journalRows() {
			if err := w.endJournal(); err != nil {
				return err
			}
		}
	}
	return nil
}

// endJournal closes the open journal and queues it for conversion.
func (w *ExecutionWriter) endJournal() error {
	if w.j == nil {
		return nil
	}
	j := w.j
	w.j = nil
	w.journals = append(w.journals, j.path)
	return j.close()
}

// convert turns the finished journals into executions files.
func (w *ExecutionWriter) convert() error {
	if err := w.endJournal(); err != nil {
		return err
	}
	if len(w.journals) == 0 {
		return nil
	}
	// A journal of this writer ends torn only after a write that failed,
	// which Write returned: nothing more to warn of.
	unlock := lockRunDir(w.d.path)
	defer unlock()
	cs, err := convertJournals(w.d, executionJournal, w.journals, nil)
	w.r.files = append(w.r.files, convertedFiles(cs)...) // in the journals' order
	w.journals, w.pending = nil, 0
	return err
}

// PendingRows is how many rows are in journals, to become Parquet at
// Close (0 without Options.Journal): a caller about to close can say that
// it may take a while.
func (w *ExecutionWriter) PendingRows() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.pending
}

// Flush writes the buffered rows out as a row group of the open file,
// freeing their memory. It does not make them readable: only a finished
// file is (see Roll). Calling it often makes small row groups. A journal
// holds no rows in memory: Flush does nothing then.
func (w *ExecutionWriter) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return errClosed
	}
	return w.r.flush()
}

// RollIfOld finishes the open file if it is older than Options.FileAge:
// call it from time to time when rows may stop coming (a server that
// stops answering), so that the last rows written become readable. A
// journal's rows are written as they come: RollIfOld does nothing then.
func (w *ExecutionWriter) RollIfOld() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return errClosed
	}
	return w.r.rollIfOld()
}

// Roll finishes the open file now, making every row written so far
// readable; the next Write starts a new file. With a journal, it turns
// the journal into Parquet now.
func (w *ExecutionWriter) Roll() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return errClosed
	}
	if w.d.opts.Journal {
		return w.convert()
	}
	return w.r.finish()
}

// Files lists the finished files of this writer, in order.
func (w *ExecutionWriter) Files() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.r.files...)
}

// Close finishes the open file, or turns the journals into Parquet files
// (Options.Journal). Closing twice is a no-op.
func (w *ExecutionWriter) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil
	}
	w.closed = true
	w.d.mu.Lock()
	delete(w.d.writers, w)
	w.d.mu.Unlock()
	if w.d.opts.Journal {
		return w.convert()
	}
	return w.r.close()
}

// StatusWriter streams Status rows to status-<host>-<n>.parquet files,
// through journals (seriesWriter): a killed client keeps every sample it
// took. An empty RunID is set, in place, to the run's. It is safe for
// concurrent use.
type StatusWriter struct {
	seriesWriter[Status]
}

func newStatusWriter(d *RunDir, prefix string) *StatusWriter {
	return &StatusWriter{seriesWriter[Status]{d: d, prefix: prefix, n: &d.statusN, kind: statusJournal,
		stamp: func(r *Status) {
			if r.RunID == "" {
				r.RunID = d.runID
			}
		}}}
}

type planKey struct{ scenario, endpoint, hash, format string }

// PlanWriter collects the distinct plans of a run into plans.parquet. It
// is safe for concurrent use. A plan is kept once per (scenario, endpoint,
// plan_hash, format); later copies are dropped. plans.parquet is rewritten
// atomically shortly after new plans arrive (Options.PlanDelay) and on
// Close, so it always holds a complete, readable set. The plans of a run
// are few (distinct shapes), so they are kept in memory.
type PlanWriter struct {
	d      *RunDir
	mu     sync.Mutex
	seen   map[planKey]struct{}
	rows   []Plan
	dirty  bool
	timer  *time.Timer
	err    error // of a background rewrite, returned by the next call
	closed bool
}

// Write adds pl unless a plan with the same key was written before. A
// zero FirstSeen is set to now; an empty RunID to the run's.
func (p *PlanWriter) Write(pl Plan) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return errClosed
	}
	if err := p.err; err != nil {
		p.err = nil
		return err
	}
	k := planKey{pl.Scenario, pl.Endpoint, pl.PlanHash, pl.Format}
	if _, ok := p.seen[k]; ok {
		return nil
	}
	p.seen[k] = struct{}{}
	if pl.RunID == "" {
		pl.RunID = p.d.runID
	}
	if pl.FirstSeen.IsZero() {
		pl.FirstSeen = p.d.now()
	}
	p.rows = append(p.rows, pl)
	p.dirty = true
	if p.timer == nil {
		p.timer = time.AfterFunc(p.d.opts.PlanDelay, p.background)
	}
	return nil
}

// Seen reports whether a plan with this key was written.
func (p *PlanWriter) Seen(scenario, endpoint, planHash, format string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.seen[planKey{scenario, endpoint, planHash, format}]
	return ok
}

func (p *PlanWriter) background() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.timer = nil
	if p.closed {
		return
	}
	if err := p.rewrite(); err != nil && p.err == nil {
		p.err = err
	}
}

// Flush rewrites plans.parquet now if plans were added since the last
// rewrite.
func (p *PlanWriter) Flush() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.err; err != nil {
		p.err = nil
		return err
	}
	return p.rewrite()
}

// rewrite writes all plans to plans.parquet atomically. p.mu is held.
func (p *PlanWriter) rewrite() error {
	if !p.dirty {
		return nil
	}
	rows := append([]Plan(nil), p.rows...)
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.Scenario != b.Scenario {
			return a.Scenario < b.Scenario
		}
		if a.Endpoint != b.Endpoint {
			return a.Endpoint < b.Endpoint
		}
		return a.FirstSeen.Before(b.FirstSeen)
	})
	var buf bytesBuffer
	w := parquet.NewGenericWriter[Plan](&buf, p.d.writerOptions()...)
	if _, err := w.Write(rows); err != nil {
		return fmt.Errorf("plans.parquet: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("plans.parquet: %w", err)
	}
	if err := writeAtomic(filepath.Join(p.d.path, "plans"+p.d.tag+".parquet"), buf.b); err != nil {
		return err
	}
	p.dirty = false
	return nil
}

func (p *PlanWriter) close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil
	}
	p.closed = true
	if p.timer != nil {
		p.timer.Stop()
		p.timer = nil
	}
	p.dirty = true // always leave a plans.parquet, even an empty one
	err := p.rewrite()
	if p.err != nil && err == nil {
		err = p.err
	}
	return err
}

type bytesBuffer struct{ b []byte }

func (b *bytesBuffer) Write(p []byte) (int, error) {
	b.b = append(b.b, p...)
	return len(p), nil
}
