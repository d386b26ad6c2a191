package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/parquet-go/parquet-go"
)

// Formats of the files a run writes. A reader checks them: a file of a
// later format than it knows is refused, naming the format it needs,
// never read as if it were known (a field renamed or a unit changed would
// be read wrong without a word).

// RunFormatVersion is the format of run.json, in its format_version key
// (absent in the files written before it: format 1).
const RunFormatVersion = 1

// fileFormat is FormatVersion as a number.
var fileFormat, _ = strconv.Atoi(FormatVersion)

// FormatError is a file in a format this joinbench does not read.
type FormatError struct {
	Path    string
	Version string // the file's
	Known   int    // the latest this joinbench reads
}

func (e *FormatError) Error() string {
	where := ""
	if e.Path != "" {
		where = e.Path + ": "
	}
	if n, err := strconv.Atoi(e.Version); err == nil && n > e.Known {
		return fmt.Sprintf("%sjoinbench format %d, this joinbench reads format %d and older: a joinbench that reads format %d is needed",
			where, n, e.Known, n)
	}
	return fmt.Sprintf("%sunknown joinbench format %q (this joinbench reads 1 to %d)", where, e.Version, e.Known)
}

// checkFileFormat refuses a Parquet file of a format later than
// FormatVersion (its "joinbench.format" key/value metadata; files without
// it are taken as format 1).
func checkFileFormat(path string, pf *parquet.File) error {
	v, ok := pf.Lookup("joinbench.format")
	if !ok {
		return nil
	}
	if n, err := strconv.Atoi(v); err != nil || n < 1 || n > fileFormat {
		return &FormatError{Path: path, Version: v, Known: fileFormat}
	}
	return nil
}

// CheckRunFile says what makes the run.json of the run folder dir
// unreadable as this joinbench reads it: a later format (a *FormatError),
// a field of the wrong type, not JSON at all; nil when it reads, or there
// is none. The error does not name the file: the caller does. A
// comparison refuses such a run rather than compare it without what
// run.json would have checked (seed, dataset, writes).
func CheckRunFile(dir string) error {
	b, err := os.ReadFile(filepath.Join(dir, RunFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var r Run
	if err := json.Unmarshal(b, &r); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("%s holds a JSON %s where a %s is expected", te.Field, te.Value, te.Type)
		}
		return err
	}
	return checkRunFormat("", &r)
}

// checkRunFormat refuses a run.json of a later format.
func checkRunFormat(path string, r *Run) error {
	if r.FormatVersion < 0 || r.FormatVersion > RunFormatVersion {
		return &FormatError{Path: path, Version: strconv.Itoa(r.FormatVersion), Known: RunFormatVersion}
	}
	return nil
}
