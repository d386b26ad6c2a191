package results

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/parquet-go/parquet-go"
)

// tmpSuffix marks a Parquet file still being written: it has no footer yet
// and readers must skip it.
const tmpSuffix = ".tmp"

const parquetSuffix = ".parquet"

// fileName is the name of file n of a series: <prefix>-<n><suffix>, the
// same n for an executions file and the journal it is made of.
func fileName(prefix string, n int, suffix string) string {
	return prefix + "-" + strconv.Itoa(n) + suffix
}

// rollingWriter streams rows of type T into a sequence of Parquet files
// named <prefix>-<n>.parquet, finishing a file every opts.FileRows rows or
// age. It is not safe for concurrent use.
type rollingWriter[T any] struct {
	d      *RunDir
	prefix string     // e.g. executions-<host>
	nextN  func() int // allocates the file number
	now    func() time.Time
	age    time.Duration

	f      *os.File
	w      *parquet.GenericWriter[T]
	tmp    string
	rows   int64
	opened time.Time
	files  []string // finished files, for tests and logs
}

func (r *rollingWriter[T]) open() error {
	n := r.nextN()
	name := filepath.Join(r.d.path, fileName(r.prefix, n, parquetSuffix))
	f, err := r.d.create(name + tmpSuffix)
	if err != nil {
		return &WriteError{Path: name + tmpSuffix, Err: err}
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
			return r.fail(err)
		}
		r.rows += n
		rows = rows[n:]
		if r.rows >= r.d.opts.FileRows || r.now().Sub(r.opened) >= r.age {
			if err := r.finish(); err != nil {
				return err
			}
		}
	}
	return nil
}

// rollIfOld finishes the open file once it is older than age, so that its
// rows become readable also when no more rows come.
func (r *rollingWriter[T]) rollIfOld() error {
	if r.f == nil || r.now().Sub(r.opened) < r.age {
		return nil
	}
	return r.finish()
}

// fail gives up the open file after an error writing it: it is removed
// (its rows are lost, the finished files are kept, and the space it took
// is freed for run.json), and the error is returned as a WriteError.
func (r *rollingWriter[T]) fail(err error) error {
	tmp := r.tmp
	if r.f != nil {
		r.f.Close()
		r.f = nil
	}
	_ = os.Remove(tmp)
	var we *WriteError
	if errors.As(err, &we) {
		return err
	}
	return &WriteError{Path: tmp, Err: err}
}

// flush writes the buffered rows out as a row group of the open file.
func (r *rollingWriter[T]) flush() error {
	if r.f == nil {
		return nil
	}
	if err := r.w.Flush(); err != nil {
		return r.fail(err)
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
	err := r.w.Close()
	if err == nil {
		err = f.Sync()
	}
	if err != nil {
		return r.fail(err)
	}
	r.f = nil
	if err := f.Close(); err != nil {
		_ = os.Remove(tmp)
		return &WriteError{Path: tmp, Err: err}
	}
	final := tmp[:len(tmp)-len(tmpSuffix)]
	if err := os.Rename(tmp, final); err != nil {
		_ = os.Remove(tmp)
		return &WriteError{Path: final, Err: err}
	}
	r.files = append(r.files, final)
	return nil
}

// close finishes the open file; after an error it is removed (see fail),
// so that no half-written file is left behind.
func (r *rollingWriter[T]) close() error {
	return r.finish()
}

var errClosed = errors.New("results: writer is closed")
