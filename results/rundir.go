package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// FormatVersion is stored in every Parquet file's key/value metadata under
// "joinbench.format" and in nothing else; readers may check it.
const FormatVersion = "1"

// Options tune the writers of a RunDir. Zero fields take the defaults.
type Options struct {
	// RowGroupRows is the number of rows buffered in memory per open file
	// before a row group is written out. Default 65536.
	RowGroupRows int64
	// FileRows finishes an executions or status file after that many rows.
	// Default 4,000,000.
	FileRows int64
	// FileAge finishes an executions file that has been open that long,
	// at its next write or RollIfOld. It bounds what a killed process
	// loses. Default 1 second: see doc.go for what it costs.
	FileAge time.Duration
	// StatusFileAge is FileAge for status files, which get a few rows per
	// report interval. Default 1 minute.
	StatusFileAge time.Duration
	// PlanDelay is how long after a new plan plans.parquet is rewritten
	// (new plans in that window are written together). Default 1 second.
	PlanDelay time.Duration
	// Compression of the Parquet columns. Default zstd, fastest level.
	Compression compress.Codec
	// Journal makes ExecutionWriters append rows to a journal during the
	// run (executions-<host>-<n>.rows, one per 262,144 rows, or FileRows
	// when fewer) and turn it into Parquet when they close, instead of
	// writing Parquet files as rows come: far less CPU per row while
	// the run is measured, at the price of files that are readable
	// only once the writer has closed (or Recover has run, after a killed
	// client). FileAge does not apply. See journal.go.
	Journal bool
}

// DefaultOptions are the options Create uses.
func DefaultOptions() Options {
	return Options{
		RowGroupRows:  1 << 16,
		FileRows:      4_000_000,
		FileAge:       time.Second,
		StatusFileAge: time.Minute,
		PlanDelay:     time.Second,
		Compression:   newZstdCodec(zstd.SpeedFastest),
	}
}

func (o Options) withDefaults() Options {
	d := DefaultOptions()
	if o.RowGroupRows <= 0 {
		o.RowGroupRows = d.RowGroupRows
	}
	if o.FileRows <= 0 {
		o.FileRows = d.FileRows
	}
	if o.FileAge <= 0 {
		o.FileAge = d.FileAge
	}
	if o.StatusFileAge <= 0 {
		o.StatusFileAge = d.StatusFileAge
	}
	if o.PlanDelay <= 0 {
		o.PlanDelay = d.PlanDelay
	}
	if o.Compression == nil {
		o.Compression = d.Compression
	}
	return o
}

// RunDir is the folder of one run, <dir>/run=<id>/, and the writers of its
// files. Its methods are safe for concurrent use.
type RunDir struct {
	path       string
	runID      string
	clientHost string
	// segment is the part of a split run this client writes (0: not
	// split); tag names its files apart from the other segments'.
	segment int
	tag     string
	opts    Options
	now     func() time.Time
	create  func(name string) (*os.File, error) // a new file to write; tests inject failures

	execN   atomic.Int64
	statusN atomic.Int64
	workN   atomic.Int64

	mu      sync.Mutex
	closed  bool
	writers map[*ExecutionWriter]struct{}
	plans   *PlanWriter
	status  *StatusWriter
	work    *WorkWriter
}

// Create makes <dir>/run=<runID>/ (and dir if needed) with the default
// options. It fails if the run folder already exists.
func Create(dir, runID, clientHost string) (*RunDir, error) {
	return CreateWithOptions(dir, runID, clientHost, Options{})
}

// CreateWithOptions is Create with tuned writer options.
func CreateWithOptions(dir, runID, clientHost string, opts Options) (*RunDir, error) {
	if err := CheckRunID(runID); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("results folder: %w", err)
	}
	path := filepath.Join(dir, "run="+runID)
	if err := os.Mkdir(path, 0o755); err != nil {
		if errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("run folder %s already exists", path)
		}
		return nil, fmt.Errorf("run folder: %w", err)
	}
	return newRunDir(path, runID, clientHost, 0, opts), nil
}

func newRunDir(path, runID, clientHost string, segment int, opts Options) *RunDir {
	d := &RunDir{
		path:       path,
		runID:      runID,
		clientHost: clientHost,
		segment:    segment,
		opts:       opts.withDefaults(),
		now:        time.Now,
		create:     createNew,
		writers:    map[*ExecutionWriter]struct{}{},
	}
	if segment > 0 {
		d.tag = "-seg" + strconv.Itoa(segment)
	}
	d.reserve()
	d.plans = &PlanWriter{d: d, seen: map[planKey]struct{}{}}
	d.status = newStatusWriter(d, "status-"+safeHost(clientHost)+d.tag)
	d.work = newWorkWriter(d, "work-"+safeHost(clientHost)+d.tag)
	return d
}

// createNew creates a file to write that must not exist yet.
func createNew(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
}

// Path is the run folder, <dir>/run=<id>.
func (d *RunDir) Path() string { return d.path }

// RunID is the id the folder was created with.
func (d *RunDir) RunID() string { return d.runID }

// pageBufferSize is the size of the Parquet pages the writers make.
const pageBufferSize = 128 << 10

func (d *RunDir) writerOptions() []parquet.WriterOption {
	opts := []parquet.WriterOption{
		parquet.Compression(d.opts.Compression),
		parquet.MaxRowsPerRowGroup(d.opts.RowGroupRows),
		parquet.CreatedBy("joinbench", FormatVersion, ""),
		parquet.KeyValueMetadata("joinbench.run_id", d.runID),
		parquet.KeyValueMetadata("joinbench.format", FormatVersion),
		// 128 KiB pages: on a real run's rows, which do not repeat as a
		// benchmark's do, they make smaller files than 1 MiB pages with
		// less memory and the same CPU (bench/README.md, "The executions
		// journal").
		parquet.PageBufferSize(pageBufferSize),
	}
	// min/max of free text, digests and parameter lists help no query and
	// cost the executions writer time comparing strings (bench/README.md,
	// BenchmarkExecutionWriter). Columns one filters on (run, scenario,
	// endpoint, times, numbers) keep theirs.
	for _, col := range noStatsColumns() {
		opts = append(opts, parquet.SkipPageBounds(col...), parquet.SkipPageStatistics(col...))
	}
	return opts
}

// NewExecutionWriter returns a writer of executions-<host>-<n>.parquet
// files, one per writing goroutine.
func (d *RunDir) NewExecutionWriter() (*ExecutionWriter, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil, errClosed
	}
	w := &ExecutionWriter{d: d, r: rollingWriter[Execution]{
		d: d, prefix: "executions-" + safeHost(d.clientHost) + d.tag, now: d.now, age: d.opts.FileAge,
		nextN: func() int { return int(d.execN.Add(1) - 1) },
	}}
	d.writers[w] = struct{}{}
	return w, nil
}

// Plans is the run's plans.parquet writer.
func (d *RunDir) Plans() *PlanWriter { return d.plans }

// Status is the run's status-<host>-<n>.parquet writer.
func (d *RunDir) Status() *StatusWriter { return d.status }

// Work is the run's work-<host>-<n>.parquet writer.
func (d *RunDir) Work() *WorkWriter { return d.work }

// WriteRun writes this client's metadata atomically: to a temporary file
// first, renamed over the old one. Call it at the start of a run and again
// at its end. It is run.json, or segment-<i>.json for a segment of a split
// run (see WriteRunLevel). When the disk is full, the space reserved at
// Create is given up for it.
func (d *RunDir) WriteRun(r *Run) error {
	name := RunFile
	if d.segment > 0 {
		name = SegmentFile(d.segment)
	}
	err := writeJSON(filepath.Join(d.path, name), r)
	if err != nil && os.Remove(d.reservePath()) == nil {
		err = writeJSON(filepath.Join(d.path, name), r)
	}
	return err
}

func writeJSON(path string, r *Run) error {
	r.FormatVersion = RunFormatVersion
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	return writeAtomic(path, append(b, '\n'))
}

// reserveFile holds space for the last run.json on a disk that fills up
// during the run; it is removed when the run folder is closed. Each client
// of a split run has its own.
const (
	reserveFile = ".reserve"
	reserveSize = 64 << 10
)

func (d *RunDir) reservePath() string { return filepath.Join(d.path, reserveFile+d.tag) }

// reserve writes the reserve file; a failure only leaves no reserve.
func (d *RunDir) reserve() {
	f, err := os.OpenFile(d.reservePath(), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return
	}
	_, err = f.Write(make([]byte, reserveSize))
	if cerr := f.Close(); err != nil || cerr != nil {
		_ = os.Remove(f.Name())
	}
}

// writeAtomic writes data to name through a synced temporary file and a
// rename, so that name is always complete.
func writeAtomic(name string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(name), filepath.Base(name)+".*"+tmpSuffix)
	if err != nil {
		return &WriteError{Path: name, Err: err}
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return &WriteError{Path: name, Err: err}
	}
	return nil
}

// WriteError is a results file that could not be written (a full disk, a
// file system gone read-only): the run cannot record and must stop. What
// was finished before it is kept.
type WriteError struct {
	Path string
	Err  error
}

func (e *WriteError) Error() string {
	err := e.Err
	var pe *os.PathError
	if errors.As(err, &pe) && pe.Path == e.Path {
		err = pe.Err // said once
	}
	return fmt.Sprintf("write %s: %v", e.Path, err)
}
func (e *WriteError) Unwrap() error { return e.Err }

// Close finishes every writer of the run: execution writers still open,
// plans, status and work. Every file of the run is readable afterwards. Closing
// twice is a no-op.
func (d *RunDir) Close() error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil
	}
	d.closed = true
	open := make([]*ExecutionWriter, 0, len(d.writers))
	for w := range d.writers {
		open = append(open, w)
	}
	d.mu.Unlock()
	var errs []error
	for _, w := range open {
		errs = append(errs, w.Close())
	}
	errs = append(errs, d.status.close(), d.work.close(), d.plans.close())
	_ = os.Remove(d.reservePath())
	return errors.Join(errs...)
}
