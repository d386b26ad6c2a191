package results

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// JournalGlob matches the executions journals of a run folder: rows of a
// client still running (Options.Journal), or of one killed before it could
// turn them into Parquet (see Recover). StatusJournalGlob matches those of
// the server counters.
const (
	JournalGlob       = "executions-*" + journalSuffix
	StatusJournalGlob = "status-*" + journalSuffix
)

// convertBatchRows is at most how many decoded rows a conversion holds.
const convertBatchRows = 4096

// maxConversions is at most how many journals are converted at once. Each
// conversion holds about 12 MB (bench/README.md, "The executions
// journal"): one per core on a 64-core client would be most of a
// gigabyte, more than a container's memory limit (deploy/kubernetes asks
// for 512 MiB and stops at 1 GiB), and a client sees all of the node's
// cores when no CPU limit is set.
const maxConversions = 8

// conversionWorkers is how many of n journals are converted at once on a
// client of the given cores: one per core, at most maxConversions.
func conversionWorkers(n, cores int) int { return min(n, cores, maxConversions) }

// converted is what the conversion of one journal made.
type converted struct {
	file   string // "" when the journal held no row
	rows   int64
	damage *journalDamage // nil when the journal was whole
}

// convertJournals turns journals into Parquet files, several at once (one
// per core, at most maxConversions). A journal becomes the file of the
// same name and number, then is removed; one holding no rows is removed
// and gives no file. Damaged frames are skipped, and reported through
// warn; a journal that could not be converted whole is kept, renamed
// (damagedSuffix). The caller holds the run folder's lock (lockRunDir).
func convertJournals[T any](d *RunDir, kind *journalKind[T], paths []string, warn Warner) ([]converted, error) {
	out := make([]converted, len(paths))
	errs := make([]error, len(paths))
	if warn != nil { // warned from several goroutines, one at a time
		var mu sync.Mutex
		w := warn
		warn = func(err error) { mu.Lock(); defer mu.Unlock(); w(err) }
	}
	next := make(chan int)
	var wg sync.WaitGroup
	// cores, not GOMAXPROCS alone: a run raises that by its threads
	cores := min(runtime.GOMAXPROCS(0), runtime.NumCPU())
	for range conversionWorkers(len(paths), cores) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i], errs[i] = convertJournal(d, kind, paths[i], warn)
			}
		}()
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	return out, errors.Join(errs...)
}

// convertedFiles are the files of a conversion, in the journals' order.
func convertedFiles(cs []converted) []string {
	var out []string
	for _, c := range cs {
		if c.file != "" {
			out = append(out, c.file)
		}
	}
	return out
}

// convertJournal writes the rows of one journal to its Parquet file and
// removes the journal. A Parquet file of that name already there was
// finished by an earlier conversion killed before it removed the journal:
// the journal is then only removed.
func convertJournal[T any](d *RunDir, kind *journalKind[T], path string, warn Warner) (converted, error) {
	prefix, n, err := journalName(path)
	if err != nil {
		return converted{}, err
	}
	final := filepath.Join(filepath.Dir(path), fileName(prefix, n, parquetSuffix))
	if _, err := os.Stat(final); err == nil {
		return converted{file: final, rows: fileRows(final)}, removeJournal(path)
	}
	_ = os.Remove(final + tmpSuffix) // of a conversion killed half-way
	jr, err := openJournal(path, kind)
	if err != nil {
		return converted{}, err
	}
	defer jr.close()
	w := rollingWriter[T]{
		d: d, prefix: prefix, now: d.now, age: time.Duration(math.MaxInt64),
		nextN: func() int { return n },
	}
	// Rows go to the writer a few thousand at a time: it keeps a row
	// group in its column buffers anyway, and a row group of decoded rows
	// beside them (65,536 by default, some 300 bytes each) would double
	// the memory of every conversion running at once.
	batch := int(min(d.opts.RowGroupRows, convertBatchRows))
	rows := make([]T, 0, batch)
	var written int64
	for {
		rows, err = jr.next(rows)
		done := err != nil
		if err != nil && err != io.EOF {
			_ = w.fail(err)
			return converted{}, err
		}
		if len(rows) >= batch || (done && len(rows) > 0) {
			if err := w.write(rows); err != nil {
				return converted{}, err
			}
			written += int64(len(rows))
			clear(rows)
			rows = rows[:0]
		}
		if done {
			break
		}
	}
	if err := w.finish(); err != nil {
		return converted{}, err
	}
	c := converted{file: final, rows: written}
	if written == 0 {
		c.file = "" // no row, no file
	}
	if len(jr.damage) == 0 {
		return c, removeJournal(path)
	}
	c.damage = &journalDamage{path: path, size: jr.size, spans: jr.damage, kept: written, file: c.file}
	if c.damage.emptyTail() {
		err = removeJournal(path)
	} else {
		c.damage.keptAs = path + damagedSuffix
		if err = os.Rename(path, c.damage.keptAs); err != nil {
			c.damage.keptAs = path
			err = fmt.Errorf("rename %s: %w", path, err)
		}
	}
	warn.warn(c.damage)
	return c, err
}

func removeJournal(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", path, err)
	}
	return nil
}

// journalName splits <prefix>-<n>.rows.
func journalName(path string) (prefix string, n int, err error) {
	base := strings.TrimSuffix(filepath.Base(path), journalSuffix)
	i := strings.LastIndexByte(base, '-')
	if i > 0 {
		if n, err = strconv.Atoi(base[i+1:]); err == nil && n >= 0 {
			return base[:i], n, nil
		}
	}
	return "", 0, fmt.Errorf("%s: not a journal name (<prefix>-<n>%s)", path, journalSuffix)
}

// Recovered is what Recover did in one run folder.
type Recovered struct {
	Files []string // executions files written from journals
	Rows  int64    // the executions in them
	// StatusFiles are the status files written from journals, with
	// StatusRows server counter rows.
	StatusFiles []string
	StatusRows  int64
	// WorkFiles are the work files written from journals, with WorkRows
	// sampled executions.
	WorkFiles []string
	WorkRows  int64
	// Lost counts the rows (executions and server counters) in damaged
	// frames of the journals, as their headers tell; LostUncounted is set
	// when damage at the end of a journal may have lost more (see the
	// warnings).
	Lost          int64
	LostUncounted bool
	// Damaged are the journals that could not be converted whole, kept
	// under their name and damagedSuffix.
	Damaged []string
	// InUse are executions journals a running client is still writing:
	// their rows become Parquet when that client's run ends. (Those of
	// its server counters become Parquet every minute, as always.)
	InUse []string
}

// Recover turns the journals a killed client left in a run folder, of
// executions, of server counters and of work samples, into Parquet files, so that the
// run's rows can be read (by report and compare, or by any Parquet reader
// afterwards). Journals of a client still running are left to it and
// listed in InUse. Damaged frames are skipped and warned about, every
// other frame is kept. A folder without journals is left as it is.
// Recovers of one folder run one at a time, also from several processes:
// the second finds the files the first made.
func Recover(dir string, warn Warner) (Recovered, error) {
	var rec Recovered
	found := false
	for _, glob := range []string{JournalGlob, StatusJournalGlob, WorkJournalGlob} {
		paths, err := filepath.Glob(filepath.Join(globEscape(dir), glob))
		if err != nil {
			return rec, err
		}
		found = found || len(paths) > 0
	}
	if !found {
		return rec, nil
	}
	unlock := lockRunDir(dir)
	defer unlock()
	d := &RunDir{path: dir, runID: recoveredRunID(dir), opts: Options{FileRows: math.MaxInt64}.withDefaults(),
		now: time.Now, create: createNew}
	cs, err := recoverJournals(d, JournalGlob, executionJournal, true, &rec, warn)
	rec.Files = convertedFiles(cs)
	for _, c := range cs {
		rec.Rows += c.rows
	}
	cs, serr := recoverJournals(d, StatusJournalGlob, statusJournal, false, &rec, warn)
	rec.StatusFiles = convertedFiles(cs)
	for _, c := range cs {
		rec.StatusRows += c.rows
	}
	cs, werr := recoverJournals(d, WorkJournalGlob, workJournal, false, &rec, warn)
	rec.WorkFiles = convertedFiles(cs)
	for _, c := range cs {
		rec.WorkRows += c.rows
	}
	return rec, errors.Join(err, serr, werr)
}

// recoverJournals converts the journals of one kind in d that no client
// holds, noting in rec the damage, and those in use when listInUse. The
// caller holds the folder's lock.
func recoverJournals[T any](d *RunDir, glob string, kind *journalKind[T], listInUse bool, rec *Recovered, warn Warner) ([]converted, error) {
	// listed under the lock: no other Recover is converting them now
	paths, err := filepath.Glob(filepath.Join(globEscape(d.path), glob))
	if err != nil || len(paths) == 0 {
		return nil, err
	}
	sort.Strings(paths)
	var todo []string
	for _, p := range paths {
		f, err := os.Open(p)
		if errors.Is(err, os.ErrNotExist) { // its writer converted it meanwhile
			continue
		}
		if err != nil {
			return nil, err
		}
		inUse := journalInUse(f)
		f.Close()
		if inUse {
			if listInUse {
				rec.InUse = append(rec.InUse, p)
			}
		} else {
			todo = append(todo, p)
		}
	}
	if len(todo) == 0 {
		return nil, nil
	}
	cs, err := convertJournals(d, kind, todo, warn)
	for _, c := range cs {
		if c.damage == nil {
			continue
		}
		lost, unknown := c.damage.lost()
		rec.Lost += lost
		rec.LostUncounted = rec.LostUncounted || unknown
		if c.damage.keptAs != "" {
			rec.Damaged = append(rec.Damaged, c.damage.keptAs)
		}
	}
	return cs, err
}

// recoveredRunID is the run id for the files' metadata: run.json's, or
// the folder's name.
func recoveredRunID(dir string) string {
	if r := readRunFile(dir, nil); r != nil && r.RunID != "" {
		return r.RunID
	}
	return RunIDFromDir(dir)
}
