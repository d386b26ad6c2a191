package sandbox

import (
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"time"
)

// transferFacts is what a joiner's error log says of the state transfer
// that brought it back: when it began and ended, and how many write-sets
// an incremental one carried.
type transferFacts struct {
	start, end time.Time
	writesets  int64
}

var (
	// The SST script stamps its lines with milliseconds; the server
	// its own with whole seconds.
	scriptStarted = regexp.MustCompile(`SST started on joiner \((\d{8} \d{2}:\d{2}:\d{2}\.\d{3})\)`)
	scriptSST     = regexp.MustCompile(`SST completed on joiner \((\d{8} \d{2}:\d{2}:\d{2}\.\d{3})\)`)
	istWritesets  = regexp.MustCompile(`Receiving IST: (\d+) writesets`)
	istReceived   = regexp.MustCompile(`(?m)^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}) .*IST received: `)
)

// transferFactsOf reads them from the log a joiner wrote since its
// start. The end is the full copy's end, or the incremental transfer's
// when one followed, at the server log's resolution of a second; never
// before the start.
func transferFactsOf(log string) transferFacts {
	var f transferFacts
	if m := scriptStarted.FindStringSubmatch(log); m != nil {
		f.start = parseLogTime("20060102 15:04:05.000", m[1])
	}
	if m := scriptSST.FindStringSubmatch(log); m != nil {
		f.end = parseLogTime("20060102 15:04:05.000", m[1])
	}
	for _, m := range istWritesets.FindAllStringSubmatch(log, -1) {
		n, _ := strconv.ParseInt(m[1], 10, 64)
		f.writesets += n
	}
	if ms := istReceived.FindAllStringSubmatch(log, -1); len(ms) > 0 && f.writesets > 0 {
		if at := parseLogTime("2006-01-02 15:04:05", ms[len(ms)-1][1]); at.After(f.end) {
			f.end = at
		}
	}
	if !f.start.IsZero() && f.end.Before(f.start) {
		f.end = f.start
	}
	return f
}

// parseLogTime reads a log's timestamp, written in local time.
func parseLogTime(layout, s string) time.Time {
	t, err := time.ParseInLocation(layout, s, time.Local)
	if err != nil {
		return time.Time{}
	}
	return t
}

// dataBytes is the size of the files under a node's data directory but
// its write-set cache (galera.cache, preallocated at its full size):
// after a full state transfer, about what the donor sent.
func dataBytes(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "galera.cache" {
			return nil
		}
		if info, err := d.Info(); err == nil {
			n += info.Size()
		}
		return nil
	})
	return n
}
