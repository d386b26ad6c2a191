package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/parquet-go/parquet-go"

	"github.com/joinbench/joinbench/internal/parallel"
	"github.com/joinbench/joinbench/internal/usage"
)

// File names inside a run folder.
const (
	ExecutionsGlob = "executions-*.parquet"
	PlansFile      = "plans.parquet"
	StatusGlob     = "status-*.parquet" // one series of files per client host
	RunFile        = "run.json"
	RunDirPrefix   = "run="
)

// readBatch is how many rows a reader decodes at a time: memory stays
// bounded by one batch whatever the size of the file.
const readBatch = 1024

// Warner receives problems that do not stop a read: an unreadable or
// truncated file is skipped and reported through it. Nil discards them.
type Warner func(error)

func (w Warner) warn(err error) {
	if w != nil {
		w(err)
	}
}

// FindRuns expands RUN arguments into run folders. An argument is a run
// folder (run=<id>, or any folder holding executions-*.parquet or
// run.json), a parent folder whose run=* sub-folders are runs, or a glob of
// either. Folders are returned once each, in argument order, the runs of a
// parent sorted by name. A missing path, a glob matching nothing or a
// folder holding no run is a usage error.
func FindRuns(args []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(d string) {
		d = filepath.Clean(d)
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	for _, arg := range args {
		paths := []string{arg}
		if strings.ContainsAny(arg, "*?[") {
			m, err := filepath.Glob(arg)
			if err != nil {
				return nil, usage.Errorf("%s: bad pattern: %v", arg, err)
			}
			if len(m) == 0 {
				return nil, usage.Errorf("%s: matches no file or folder", arg)
			}
			sort.Strings(m)
			paths = m
		}
		found := 0
		for _, p := range paths {
			st, err := os.Stat(p)
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil, usage.Errorf("%s: no such run folder", p)
				}
				return nil, usage.Errorf("%s: %v", p, err)
			}
			if !st.IsDir() {
				if len(paths) > 1 {
					continue // a glob may match stray files next to runs
				}
				return nil, usage.Errorf("%s: not a folder (give the run folder, e.g. results/run=<id>)", p)
			}
			if IsRunDir(p) {
				add(p)
				found++
				continue
			}
			subs, err := filepath.Glob(filepath.Join(globEscape(p), RunDirPrefix+"*"))
			if err != nil {
				return nil, fmt.Errorf("list %s: %w", p, err)
			}
			sort.Strings(subs)
			for _, s := range subs {
				if st, err := os.Stat(s); err == nil && st.IsDir() {
					add(s)
					found++
				}
			}
		}
		if found == 0 {
			return nil, usage.Errorf("%s: no run folder here (expected run=<id> folders or executions-*.parquet files)", arg)
		}
	}
	return out, nil
}

// IsRunDir reports whether dir looks like one run's folder.
func IsRunDir(dir string) bool {
	if strings.HasPrefix(filepath.Base(dir), RunDirPrefix) {
		return true
	}
	if _, err := os.Stat(filepath.Join(dir, RunFile)); err == nil {
		return true
	}
	m, _ := filepath.Glob(filepath.Join(globEscape(dir), ExecutionsGlob))
	return len(m) > 0
}

// RunIDFromDir returns the id in a run=<id> folder name, else the base name.
func RunIDFromDir(dir string) string {
	return strings.TrimPrefix(filepath.Base(dir), RunDirPrefix)
}

func globEscape(p string) string {
	r := strings.NewReplacer(`*`, `\*`, `?`, `\?`, `[`, `\[`)
	return r.Replace(p)
}

// ExecutionFiles lists a run's executions files (one per client host and
// part), sorted by name.
func ExecutionFiles(dir string) ([]string, error) {
	m, err := filepath.Glob(filepath.Join(globEscape(dir), ExecutionsGlob))
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	sort.Strings(m)
	return m, nil
}

// readRunFile reads run.json. A missing file gives nil and no error; an
// unreadable one is warned about and also gives nil.
func readRunFile(dir string, warn Warner) *Run {
	path := filepath.Join(dir, RunFile)
	b, err := os.ReadFile(path)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			warn.warn(fmt.Errorf("%s: %w (skipped)", path, err))
		}
		return nil
	}
	var r Run
	if err := json.Unmarshal(b, &r); err != nil {
		warn.warn(fmt.Errorf("%s: %w (skipped)", path, err))
		return nil
	}
	if err := checkRunFormat(path, &r); err != nil {
		warn.warn(fmt.Errorf("%w (skipped)", err))
		return nil
	}
	return &r
}

// ReadRunInfo reads run.json; for a run split over several clients it
// is the run-level run.json completed from the clients' segment-<i>.json
// (see mergeSegments), with warnings about segments missing. For a run of
// one client it warns when the run did not finish, or failed, and when its
// executions files hold fewer rows than run.json counts (see
// CountExecutions): results lost to a killed client or a full disk are
// never silent. A missing file gives nil and no error; an unreadable one
// is warned about and also gives nil.
func ReadRunInfo(dir string, warn Warner) *Run {
	r := readRunFile(dir, warn)
	if segs := ReadSegments(dir, warn); len(segs) > 0 {
		return mergeSegments(dir, r, segs, warn)
	}
	if r != nil {
		checkRun(dir, r, warn)
	}
	return r
}

// checkRun warns about what run.json says went wrong, and about executions
// it counts that the files do not hold.
func checkRun(dir string, r *Run, warn Warner) {
	if warn == nil {
		return
	}
	if !r.Start.IsZero() && r.End.IsZero() { // written at the start, never completed
		n, _ := CountExecutions(dir, r.ClientHost)
		warn.warn(fmt.Errorf("%s: run.json has no end: the run is still going, its client was killed, or run.json could not be completed; "+
			"its finished files hold %d executions", dir, n))
		return
	}
	if r.Error != "" {
		warn.warn(fmt.Errorf("%s: the run failed: %s", dir, r.Error))
	}
	// The files also hold the statements cut at the end, which run.json
	// counts apart.
	if want := r.Executions + r.CutAtEnd; want > 0 {
		if n, _ := CountExecutions(dir, r.ClientHost); n < want {
			warn.warn(fmt.Errorf("%s: run.json counts %d executions but the files hold %d: %d (%.1f%%) are missing",
				dir, want, n, want-n, 100*float64(want-n)/float64(want)))
		}
	}
}

// CountExecutions counts the rows of the finished executions files that
// clientHost wrote in dir, from the files' footers (no row is read). Files
// that cannot be opened count 0; scanning them warns.
func CountExecutions(dir, clientHost string) (int64, error) {
	paths, err := filepath.Glob(filepath.Join(globEscape(dir), "executions-"+globEscape(safeHost(clientHost))+"-*.parquet"))
	if err != nil {
		return 0, fmt.Errorf("list %s: %w", dir, err)
	}
	// Footers are read on every core: a report checks its runs' counts
	// before it scans them, and a run of 10M executions has 600 files.
	var n atomic.Int64
	parallel.Each(len(paths), func(i int) { n.Add(fileRows(paths[i])) })
	return n.Load(), nil
}

// fileRows is the number of rows a Parquet file's footer records, 0 when it
// cannot be read.
func fileRows(path string) (n int64) {
	defer func() {
		if recover() != nil { // parquet-go may panic on corrupt input
			n = 0
		}
	}()
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return 0
	}
	pf, err := parquet.OpenFile(f, st.Size(), parquet.SkipBloomFilters(true), parquet.SkipPageIndex(true))
	if err != nil {
		return 0
	}
	return pf.NumRows()
}

// ScanExecutions streams every row of every executions file of a run to
// fn, one row group and one batch at a time. The row passed to fn is only
// valid during the call. A file that cannot be opened (truncated while
// being written, not Parquet, wrong schema) is skipped with a warning; a
// file that fails part way through is warned about and its remaining rows
// skipped. Only an error returned by fn stops the scan.
func ScanExecutions(dir string, warn Warner, fn func(*Execution) error) (files int, err error) {
	return scanExecutions(dir, warn, allColumns[Execution](), fn)
}

// ScanExecutionFields is ScanExecutions reading only the columns of
// fields: the other fields of the rows passed to fn are zero, and their
// columns are not decoded, which makes a scan several times faster.
func ScanExecutionFields(dir string, warn Warner, fields ExecutionFields, fn func(*Execution) error) (files int, err error) {
	return scanExecutions(dir, warn, fields.cols, fn)
}

// ScanExecutionsAs is ScanExecutions into a row type of the caller's,
// whose parquet tags name some of the executions columns: a reader
// independent of this package's, for tests to check it against. Code
// that reads runs uses ScanExecutionFields, which takes its columns from
// Execution.
func ScanExecutionsAs[T any](dir string, warn Warner, fn func(*T) error) (files int, err error) {
	return scanExecutions(dir, warn, allColumns[T](), fn)
}

func scanExecutions[T any](dir string, warn Warner, cols columnSet, fn func(*T) error) (files int, err error) {
	paths, err := ExecutionFiles(dir)
	if err != nil {
		return 0, err
	}
	for _, p := range paths {
		ok, err := scanFile(p, warn, cols, fn)
		if err != nil {
			return files, err
		}
		if ok {
			files++
		}
	}
	return files, nil
}

// ScanStatus streams the run's server counters (every
// status-<host>-<n>.parquet) like ScanExecutions. No file is not an error:
// runs without counter sampling have none.
func ScanStatus(dir string, warn Warner, fn func(*Status) error) error {
	paths, err := filepath.Glob(filepath.Join(globEscape(dir), StatusGlob))
	if err != nil {
		return fmt.Errorf("list %s: %w", dir, err)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if _, err := scanFile(p, warn, allColumns[Status](), fn); err != nil {
			return err
		}
	}
	return nil
}

// ReadPlans reads all of plans.parquet, or of every segment's
// plans-seg<i>.parquet (one row per distinct plan and format: small). A missing file gives no plans; an unreadable one is
// warned about.
func ReadPlans(dir string, warn Warner) ([]Plan, error) {
	var out []Plan
	for _, p := range planFiles(dir) {
		if _, err := scanFile(p, warn, allColumns[Plan](), func(pl *Plan) error {
			out = append(out, *pl)
			return nil
		}); err != nil {
			return out, err
		}
	}
	return out, nil
}

// kindOf names the file kind T is read from, for messages.
func kindOf[T any]() string {
	switch any(new(T)).(type) {
	case *Plan:
		return "a plans file"
	case *Status:
		return "a status file"
	case *Action:
		return "an actions file"
	case *Recovery:
		return "a recovery file"
	case *Work:
		return "a work file"
	}
	return "an executions file"
}

// errStop marks an error from the caller's callback so that it is passed
// up rather than turned into a warning.
type errStop struct{ err error }

func (e errStop) Error() string { return e.err.Error() }

// scanFile reads the columns cols of one Parquet file into rows of type
// T. It reports whether the file was opened; read problems become
// warnings.
func scanFile[T any](path string, warn Warner, cols columnSet, fn func(*T) error) (opened bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		warn.warn(fmt.Errorf("%s: %w (skipped)", path, err))
		return false, nil
	}
	defer f.Close()
	rows := int64(0)
	defer func() {
		// parquet-go may panic on corrupt input; no input may crash a report.
		if r := recover(); r != nil {
			warn.warn(fmt.Errorf("%s: unreadable after %d rows: %v (rest skipped)", path, rows, r))
			err = nil
		}
	}()
	st, err := f.Stat()
	if err != nil {
		warn.warn(fmt.Errorf("%s: %w (skipped)", path, err))
		return false, nil
	}
	if st.Size() == 0 {
		warn.warn(fmt.Errorf("%s: empty file (skipped; run still writing or interrupted?)", path))
		return false, nil
	}
	pf, err := parquet.OpenFile(f, st.Size(), parquet.SkipBloomFilters(true), parquet.SkipPageIndex(true))
	if err != nil {
		warn.warn(fmt.Errorf("%s: not a complete Parquet file: %w (skipped; truncated?)", path, err))
		return false, nil
	}
	if err := checkFileFormat(path, pf); err != nil {
		warn.warn(fmt.Errorf("%w (skipped)", err))
		return false, nil
	}
	if missing := cols.missing(pf.Schema()); len(missing) > 0 {
		warn.warn(fmt.Errorf("%s: not %s: no column %s (skipped)", path, kindOf[T](), strings.Join(missing, ", ")))
		return false, nil
	}
	buf := make([]T, readBatch)
	for gi, rg := range pf.RowGroups() {
		err := func() error {
			r := parquet.NewGenericRowGroupReader[T](rg, cols.schema)
			defer r.Close()
			for {
				n, rerr := r.Read(buf)
				for i := 0; i < n; i++ {
					rows++
					if err := fn(&buf[i]); err != nil {
						return errStop{err}
					}
				}
				if rerr == io.EOF {
					return nil
				}
				if rerr != nil {
					return rerr
				}
			}
		}()
		if err != nil {
			var stop errStop
			if errors.As(err, &stop) {
				return true, stop.err
			}
			warn.warn(fmt.Errorf("%s: row group %d: %w (rest of file skipped after %d rows)", path, gi, err, rows))
			return true, nil
		}
		clear(buf)
	}
	return true, nil
}
