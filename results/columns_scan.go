package results

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// ColumnScan tunes ScanExecutionColumns.
type ColumnScan struct {
	// Checksums asks for the result checksum and parameters of the rows
	// (ExecutionColumns.Checksum and Params), read by columns too (row by
	// row only when the parameters are not a list of plain strings).
	Checksums bool
	// SkipTemplates and SkipRows leave the template hash and the rows
	// returned unread, saving their decoding: TemplateHash then holds no
	// value (every index -1) and Rows zeros (but in row groups holding
	// checksums, when Checksums asks for them).
	SkipTemplates, SkipRows bool
	// Clients asks for the client host and segment of the rows
	// (ExecutionColumns.ClientHost and Segment).
	Clients bool
	// Workers bounds the files decoded at once; 0 means GOMAXPROCS.
	Workers int
	// Each, when set, sees every row group on the worker that decoded it,
	// as soon as it is decoded and before fn sees it in file order: work
	// that does not depend on the order of rows (sums, histograms) is then
	// spread over the workers, each adding into its own accumulator.
	// worker is in [0, Workers); the calls of one worker are never
	// concurrent. An error from Each stops the scan like one from fn.
	Each func(worker int, c *ExecutionColumns) error
}

// ScanExecutionColumns passes every row group of every executions file of
// a run to fn, decoded column by column (see ExecutionColumns). Files are
// decoded in parallel, but fn sees the row groups one at a time in the
// order ScanExecutions reads rows, so anything fn computes is what a scan
// row by row gives. Memory is a few row groups per worker, whatever the
// size of the run. Problems with files are warned about, in the same words
// and the same order as ScanExecutions: a file that cannot be opened is
// skipped; a row group that fails part way is delivered up to the failure
// and the rest of its file skipped. Only an error returned by fn (or by
// ColumnScan.Each) stops the scan. fn may be nil when Each does the work.
func ScanExecutionColumns(dir string, warn Warner, opt ColumnScan, fn func(*ExecutionColumns) error) (files int, err error) {
	paths, err := ExecutionFiles(dir)
	if err != nil || len(paths) == 0 {
		return 0, err
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, len(paths))
	out := make([]chan scanItem, len(paths))
	for i := range out {
		out[i] = make(chan scanItem, 2)
	}
	stop := make(chan struct{})
	free := make(chan *ExecutionColumns, 4*workers)
	// A file is read only when fewer than 2*workers files are read and not
	// yet handed over: small files would otherwise all be read ahead and
	// wait in memory.
	ahead := make(chan struct{}, 2*workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Files are taken in order, so the one the caller waits for is
			// always being read: no worker waits on a file behind it.
			for {
				select {
				case ahead <- struct{}{}:
				case <-stop:
					return
				}
				i := int(next.Add(1) - 1)
				if i >= len(paths) {
					return
				}
				if testHookFileStart != nil {
					testHookFileStart(i)
				}
				s := fileScan{path: paths[i], opt: opt, worker: w, out: out[i], stop: stop, free: free}
				s.run()
				close(out[i])
			}
		}()
	}
	defer func() {
		close(stop)
		wg.Wait()
	}()
	for i := range paths {
		for it := range out[i] {
			if it.warn != nil {
				warn.warn(it.warn)
			}
			if it.opened {
				files++
			}
			if it.err != nil {
				return files, it.err
			}
			if it.cols != nil {
				if fn != nil {
					if err := fn(it.cols); err != nil {
						return files, err
					}
				}
				select {
				case free <- it.cols:
				default:
				}
			}
		}
		<-ahead
	}
	return files, nil
}

// testHookFileStart, set by tests, sees each file as a worker starts it.
var testHookFileStart func(i int)

// testHookByRows, set by tests, sees each row group read row by row.
var testHookByRows func(path string, g int)

// scanItem is what a worker hands over for one file, in order: warnings,
// that the file was opened, row groups, an error from ColumnScan.Each.
type scanItem struct {
	cols   *ExecutionColumns
	warn   error
	err    error
	opened bool
}

// fileScan reads one file for ScanExecutionColumns.
type fileScan struct {
	path   string
	opt    ColumnScan
	worker int
	out    chan<- scanItem
	stop   <-chan struct{}
	free   chan *ExecutionColumns
	rows   int64 // handed over so far, for messages
}

func (s *fileScan) send(it scanItem) bool {
	select {
	case s.out <- it:
		return true
	case <-s.stop:
		return false
	}
}

// deliver passes a decoded row group to ColumnScan.Each, then hands it
// over; false when the scan stops.
func (s *fileScan) deliver(c *ExecutionColumns) bool {
	if s.opt.Each != nil {
		if err := s.opt.Each(s.worker, c); err != nil {
			s.send(scanItem{err: err})
			return false
		}
	}
	return s.send(scanItem{cols: c})
}

func (s *fileScan) batch() *ExecutionColumns {
	select {
	case c := <-s.free:
		return c
	default:
		return &ExecutionColumns{}
	}
}

func (s *fileScan) run() {
	warned := true
	cf, closeFile := openColumnFile(s.path, func(err error) { warned = s.send(scanItem{warn: err}) })
	if cf == nil {
		return
	}
	defer closeFile()
	if !warned || !s.send(scanItem{opened: true}) {
		return
	}
	for g := range cf.pf.RowGroups() {
		c := s.batch()
		err := cf.readGroup(g, s.opt, c)
		c.File, c.Group = s.path, g
		if err == nil {
			s.rows += int64(c.Len)
			if !s.deliver(c) {
				return
			}
			continue
		}
		// Not a layout the column reader knows, or it failed: read the
		// group row by row, which also says how it fails, as scans always did.
		if testHookByRows != nil {
			testHookByRows(s.path, g)
		}
		warn := s.groupRows(cf, g, c)
		c.File, c.Group = s.path, g
		if (c.Len > 0 || len(c.Cut) > 0) && !s.deliver(c) {
			return
		}
		if warn != nil {
			s.send(scanItem{warn: warn})
			return
		}
	}
}

// groupRows reads row group g row by row into c, and returns the warning
// that ends the file, if any.
func (s *fileScan) groupRows(cf *columnFile, g int, c *ExecutionColumns) (warn error) {
	defer func() {
		if r := recover(); r != nil { // parquet-go may panic on corrupt input
			warn = fmt.Errorf("%s: unreadable after %d rows: %v (rest skipped)", s.path, s.rows+int64(c.Len), r)
		}
		s.rows += int64(c.Len)
	}()
	if err := cf.readGroupRows(g, c, s.opt); err != nil {
		return fmt.Errorf("%s: row group %d: %w (rest of file skipped after %d rows)", s.path, g, err, s.rows+int64(c.Len))
	}
	return nil
}
