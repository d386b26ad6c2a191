package results

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/parquet-go/parquet-go"
)

// tmpSuffix marks a Parquet file still being written: it has no footer yet
// and readers must skip it.
const tmpSuffix = ".tmp"

// rollingWriter streams rows of type T into a sequence of Parquet files
// named <prefix>-<n>.parquet, finishing a file every opts.FileRows rows or
// opts.FileAge. It is not safe for concurrent use.
type rollingWriter[T any] struct {
	d      *RunDir
	prefix string     // e.g. executions-<host>
	nextN  func() int // allocates the file number
	now    func() time.Time

	f      *os.File
	w      *parquet.GenericWriter[T]
	tmp    string
	rows   int64
	opened time.Time
	files  []string // finished files, for tests and logs
}

func (r *rollingWriter[T]) open() error {
	n := r.nextN()
	name := filepath.Join(r.d.path, r.prefix+"-"+strconv.Itoa(n)+".parquet")
	f, err := os.OpenFile(name+tmpSuffix, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("create %s: %w", name, err)
	}
	r.f, r.tmp, r.rows, r.opened = f, name+tmpSuffix, 0, r.now()
	opts := r.d.writerOptions()
	if r.w == nil {
		r.w = parquet.NewGenericWriter[T](f, opts...)
	} else {
		r.w.Reset(f)
	}
	return nil
}

// write appends rows, opening and rolling files as needed.
func (r *rollingWriter[T]) write(rows []T) error {
	for len(rows) > 0 {
		if r.f == nil {
			if err := r.open(); err != nil {
				return err
			}
		}
		n := int64(len(rows))
		if room := r.d.opts.FileRows - r.rows; n > room {
			n = room
		}
		if _, err := r.w.Write(rows[:n]); err != nil {
			return fmt.Errorf("write %s: %w", r.tmp, err)
		}
		r.rows += n
		rows = rows[n:]
		if r.rows >= r.d.opts.FileRows || r.now().Sub(r.opened) >= r.d.opts.FileAge {
			if err := r.finish(); err != nil {
				return err
			}
		}
	}
	return nil
}

// flush writes the buffered rows out as a row group of the open file.
func (r *rollingWriter[T]) flush() error {
	if r.f == nil {
		return nil
	}
	if err := r.w.Flush(); err != nil {
		return fmt.Errorf("flush %s: %w", r.tmp, err)
	}
	return nil
}

// finish writes the footer of the open file, syncs it and renames it to
// its final name. A writer with no open file does nothing.
func (r *rollingWriter[T]) finish() error {
	if r.f == nil {
		return nil
	}
	f, tmp := r.f, r.tmp
	r.f = nil
	err := r.w.Close()
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("finish %s: %w", tmp, err)
	}
	final := tmp[:len(tmp)-len(tmpSuffix)]
	if err := os.Rename(tmp, final); err != nil {
		return fmt.Errorf("finish %s: %w", tmp, err)
	}
	r.files = append(r.files, final)
	return nil
}

// close finishes the open file. After an error the temporary file is
// removed so that no half-written file is left behind.
func (r *rollingWriter[T]) close() error {
	tmp := r.tmp
	err := r.finish()
	if err != nil {
		_ = os.Remove(tmp)
	}
	return err
}

var errClosed = errors.New("results: writer is closed")
