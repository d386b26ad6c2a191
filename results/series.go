package results

import (
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// seriesWriter streams rows of a small series (server status, work
// samples) to <prefix>-<n>.parquet files through journals: rows are
// appended to <prefix>-<n>.rows as they come, a frame per Write, so that a
// killed client keeps every row it took, and the journal is made the
// Parquet file of the same number every Options.StatusFileAge (or
// FileRows rows), at Roll and at Close. It is safe for concurrent use.
type seriesWriter[T any] struct {
	mu     sync.Mutex
	d      *RunDir
	prefix string        // status-<host>, work-<host>
	n      *atomic.Int64 // the run folder's count of this series' files
	kind   *journalKind[T]
	stamp  func(*T) // fills what the run folder knows (run ID, host)
	j      *journalWriter[T]
	opened time.Time
	rows   int64 // written, over the run
	closed bool
}

// Write appends rows, stamped in place.
func (s *seriesWriter[T]) Write(rows []T) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	for i := range rows {
		s.stamp(&rows[i])
	}
	for len(rows) > 0 {
		if s.j == nil {
			path := filepath.Join(s.d.path, fileName(s.prefix, int(s.n.Add(1)-1), journalSuffix))
			j, err := createJournal(s.d, path, s.kind)
			if err != nil {
				return err
			}
			s.j, s.opened = j, s.d.now()
		}
		n := min(int64(len(rows)), s.d.opts.FileRows-s.j.rows)
		if err := s.j.write(rows[:n]); err != nil {
			return err
		}
		s.rows += n
		rows = rows[n:]
		if s.j.rows >= s.d.opts.FileRows || s.d.now().Sub(s.opened) >= s.d.opts.StatusFileAge {
			if err := s.finish(); err != nil {
				return err
			}
		}
	}
	return nil
}

// Rows is how many rows were written.
func (s *seriesWriter[T]) Rows() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rows
}

// Roll finishes the open file now, making every row written so far
// readable.
func (s *seriesWriter[T]) Roll() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	return s.finish()
}

// finish makes the open journal a Parquet file. The run folder's lock is
// taken before the journal's is given up, so that no Recover converts it
// at the same time.
func (s *seriesWriter[T]) finish() error {
	if s.j == nil {
		return nil
	}
	j := s.j
	s.j = nil
	unlock := lockRunDir(s.d.path)
	defer unlock()
	if err := j.close(); err != nil {
		return err
	}
	_, err := convertJournals(s.d, s.kind, []string{j.path}, nil)
	return err
}

func (s *seriesWriter[T]) close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	return s.finish()
}
