package results

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"time"
)

// The executions journal: what an ExecutionWriter with Options.Journal
// writes during a run, turned into Parquet when it closes (convert.go).
// Encoding a row into Parquet costs about 0.7 µs of CPU (zstd, the
// dictionaries, the page statistics); appending it to the journal costs a
// third of that, and the rest is spent after the measured time, when it
// takes nothing from the server under test (bench/README.md, "The
// executions journal").
//
// A journal file, executions-<host>-<n>.rows, is a magic line and then
// frames, one per Write, each written with one write call:
//
//	frame   = length uint32 LE | crc32c(payload) uint32 LE | payload
//	payload = uvarint(rows) | row...
//
// A row is its fields in a fixed order (frame, decode), integers as varints,
// times as nanoseconds (a row's start as the difference from the previous
// row's in the frame), free text (parameters, checksum, error message) as
// a uvarint length and its bytes. The few distinct strings of the
// dictionary columns (run, scenario, template hash, endpoint, host,
// SQLSTATE, plan hash) are numbered in the order they first appear in the
// file: a row gives the number, and the first use of a number is followed
// by the string itself, so every frame can be read with the ones before
// it. Number 0 is the empty string (null).
//
// A process killed while writing leaves at most a short or damaged last
// frame, which the CRC tells from a whole one: reading stops there and the
// frames before it are kept.

const journalSuffix = ".rows"

var journalMagic = []byte("JBROWS1\n")

var crc32c = crc32.MakeTable(crc32.Castagnoli)

// frameHeader is a frame's length and checksum.
const frameHeader = 8

// maxFrame bounds a frame's length when reading, so that a damaged length
// field cannot ask for gigabytes.
const maxFrame = 1 << 30

// The dictionary fields of a row, in their order within it.
const (
	jRun = iota
	jScenario
	jTemplate
	jEndpoint
	jHost
	jSQLState
	jPlan
	jStrings // count
)

// Row flags.
const (
	jIntended = 1 << iota // IntendedStart is set
	jCut                  // CutAtEnd
)

// journalEncoder turns rows into frames. Its string numbers span the file.
type journalEncoder struct {
	buf  []byte
	ids  map[string]uint64
	last [jStrings]struct {
		s  string
		id uint64
	}
}

func newJournalEncoder() *journalEncoder {
	return &journalEncoder{ids: map[string]uint64{"": 0}}
}

// frame encodes rows as one frame; the result is valid until the next call.
func (e *journalEncoder) frame(rows []Execution) []byte {
	b := append(e.buf[:0], make([]byte, frameHeader)...)
	b = binary.AppendUvarint(b, uint64(len(rows)))
	var prev int64
	for i := range rows {
		r := &rows[i]
		var flags byte
		if r.IntendedStart != nil {
			flags |= jIntended
		}
		if r.CutAtEnd {
			flags |= jCut
		}
		b = append(b, flags)
		b = e.str(b, jRun, r.RunID)
		b = e.str(b, jScenario, r.Scenario)
		b = e.str(b, jTemplate, r.TemplateHash)
		b = e.str(b, jEndpoint, r.Endpoint)
		b = e.str(b, jHost, r.ClientHost)
		b = e.str(b, jSQLState, r.SQLState)
		b = e.str(b, jPlan, r.PlanHash)
		start := r.Start.UnixNano()
		b = binary.AppendVarint(b, start-prev)
		prev = start
		if r.IntendedStart != nil {
			b = binary.AppendVarint(b, start-r.IntendedStart.UnixNano())
		}
		b = binary.AppendVarint(b, int64(r.Thread))
		b = binary.AppendVarint(b, r.Event)
		b = binary.AppendVarint(b, int64(r.StatementSeq))
		b = binary.AppendVarint(b, r.LatencyNs)
		b = binary.AppendVarint(b, r.Rows)
		b = binary.AppendVarint(b, int64(r.ErrorCode))
		b = binary.AppendVarint(b, int64(r.Retries))
		b = binary.AppendVarint(b, int64(r.Segment))
		b = appendText(b, r.ErrorMessage)
		b = appendText(b, r.Checksum)
		b = binary.AppendUvarint(b, uint64(len(r.Params)))
		for _, p := range r.Params {
			b = appendText(b, p)
		}
	}
	payload := b[frameHeader:]
	binary.LittleEndian.PutUint32(b[0:], uint32(len(payload)))
	binary.LittleEndian.PutUint32(b[4:], crc32.Checksum(payload, crc32c))
	e.buf = b
	return b
}

// str appends the number of s, and s after it the first time. The same
// string as the field's last one, the usual case, is one comparison: the
// rows of a scenario share their strings, and equal pointers compare
// without reading the bytes.
func (e *journalEncoder) str(b []byte, field int, s string) []byte {
	c := &e.last[field]
	if s == c.s {
		return binary.AppendUvarint(b, c.id)
	}
	id, seen := e.ids[s]
	if !seen {
		id = uint64(len(e.ids))
		e.ids[s] = id
	}
	b = binary.AppendUvarint(b, id)
	if !seen {
		b = appendText(b, s)
	}
	c.s, c.id = s, id
	return b
}

func appendText(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// journalWriter appends frames to one journal file.
type journalWriter struct {
	f    *os.File
	path string
	rows int64
	enc  *journalEncoder
}

func createJournal(d *RunDir, path string) (*journalWriter, error) {
	f, err := d.create(path)
	if err != nil {
		return nil, &WriteError{Path: path, Err: err}
	}
	// Best effort: a file system without locks only loses Recover's
	// check that no client is still writing.
	_ = lockJournal(f)
	if _, err := f.Write(journalMagic); err != nil {
		f.Close()
		_ = os.Remove(path)
		return nil, &WriteError{Path: path, Err: err}
	}
	return &journalWriter{f: f, path: path, enc: newJournalEncoder()}, nil
}

// write appends rows as one frame, with one write call: what a killed
// process has written is in the file.
func (j *journalWriter) write(rows []Execution) error {
	if _, err := j.f.Write(j.enc.frame(rows)); err != nil {
		return &WriteError{Path: j.path, Err: err}
	}
	j.rows += int64(len(rows))
	return nil
}

func (j *journalWriter) close() error {
	if err := j.f.Close(); err != nil {
		return &WriteError{Path: j.path, Err: err}
	}
	return nil
}

// errTornFrame is a last frame cut short or damaged: the process writing
// it was killed, or the disk filled up.
var errTornFrame = errors.New("last frame incomplete or damaged")

// journalReader reads a journal file's frames back into rows.
type journalReader struct {
	f       *os.File
	r       *bufio.Reader
	path    string
	off     int64 // of the next frame
	strs    []string
	payload []byte
	// Rows take their parameter lists and intended starts from these
	// blocks, a few allocations per frame rather than some per row.
	params []string
	times  []time.Time
}

// openJournal opens a journal for reading; close it with close.
func openJournal(path string) (*journalReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	jr := &journalReader{f: f, r: bufio.NewReaderSize(f, 1<<20), path: path, strs: []string{""}}
	magic := make([]byte, len(journalMagic))
	if _, err := io.ReadFull(jr.r, magic); err != nil || string(magic) != string(journalMagic) {
		f.Close()
		if err == nil || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: not a joinbench rows journal", path)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	jr.off = int64(len(journalMagic))
	return jr, nil
}

func (jr *journalReader) close() { jr.f.Close() }

// next appends the rows of the next frame to dst. It returns io.EOF after
// the last whole frame, and an error wrapping errTornFrame when what
// follows it is not a whole frame.
func (jr *journalReader) next(dst []Execution) ([]Execution, error) {
	var h [frameHeader]byte
	n, err := io.ReadFull(jr.r, h[:])
	if err == io.EOF {
		return dst, io.EOF
	}
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return dst, fmt.Errorf("%s: %w", jr.path, err)
	}
	if n < frameHeader {
		return dst, jr.torn()
	}
	size := binary.LittleEndian.Uint32(h[0:])
	if size > maxFrame {
		return dst, jr.torn()
	}
	if cap(jr.payload) < int(size) {
		jr.payload = make([]byte, size)
	}
	p := jr.payload[:size]
	if _, err := io.ReadFull(jr.r, p); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF {
			return dst, jr.torn()
		}
		return dst, fmt.Errorf("%s: %w", jr.path, err)
	}
	if crc32.Checksum(p, crc32c) != binary.LittleEndian.Uint32(h[4:]) {
		return dst, jr.torn()
	}
	out, err := jr.decode(p, dst)
	if err != nil {
		return dst, fmt.Errorf("%s: frame at byte %d: %w", jr.path, jr.off, err)
	}
	jr.off += frameHeader + int64(size)
	return out, nil
}

func (jr *journalReader) torn() error {
	return fmt.Errorf("%s: from byte %d: %w", jr.path, jr.off, errTornFrame)
}

var errBadRow = errors.New("row does not decode (not written by this version?)")

// decode appends the rows of a frame's payload to dst. Strings of the
// dictionary fields are shared between rows; parameters, checksums and
// error messages are parts of one copy of p.
func (jr *journalReader) decode(p []byte, dst []Execution) ([]Execution, error) {
	d := decoder{b: p, s: string(p)}
	n := d.uvarint()
	if d.bad || n > uint64(len(p)) {
		return dst, errBadRow
	}
	base := len(dst)
	var prev int64
	for range n {
		var r Execution
		flags := d.byte()
		r.RunID = jr.str(&d)
		r.Scenario = jr.str(&d)
		r.TemplateHash = jr.str(&d)
		r.Endpoint = jr.str(&d)
		r.ClientHost = jr.str(&d)
		r.SQLState = jr.str(&d)
		r.PlanHash = jr.str(&d)
		start := prev + d.varint()
		prev = start
		r.Start = time.Unix(0, start).UTC()
		if flags&jIntended != 0 {
			if len(jr.times) == cap(jr.times) {
				jr.times = make([]time.Time, 0, 1024)
			}
			jr.times = append(jr.times, time.Unix(0, start-d.varint()).UTC())
			r.IntendedStart = &jr.times[len(jr.times)-1]
		}
		r.Thread = int32(d.varint())
		r.Event = d.varint()
		r.StatementSeq = int32(d.varint())
		r.LatencyNs = d.varint()
		r.Rows = d.varint()
		r.ErrorCode = int32(d.varint())
		r.Retries = int32(d.varint())
		r.Segment = int32(d.varint())
		r.ErrorMessage = d.text()
		r.Checksum = d.text()
		if np := int(d.uvarint()); np > 0 && np <= len(p) {
			if cap(jr.params)-len(jr.params) < np {
				jr.params = make([]string, 0, max(4096, np))
			}
			k := len(jr.params)
			for range np {
				jr.params = append(jr.params, d.text())
			}
			r.Params = jr.params[k:len(jr.params):len(jr.params)]
		} else if np != 0 {
			d.bad = true
		}
		r.CutAtEnd = flags&jCut != 0
		if d.bad {
			return dst[:base], errBadRow
		}
		dst = append(dst, r)
	}
	if len(d.b) != 0 {
		return dst[:base], errBadRow
	}
	return dst, nil
}

// str reads a string number, and the string after a first use.
func (jr *journalReader) str(d *decoder) string {
	id := d.uvarint()
	switch {
	case id < uint64(len(jr.strs)):
		return jr.strs[id]
	case id == uint64(len(jr.strs)):
		s := d.text()
		jr.strs = append(jr.strs, s)
		return s
	default:
		d.bad = true
		return ""
	}
}

// decoder reads varints and texts off a payload b, whose copy s the texts
// are parts of; a read past its end sets bad and returns zero values.
type decoder struct {
	b   []byte
	s   string
	bad bool
}

func (d *decoder) byte() byte {
	if len(d.b) == 0 {
		d.bad = true
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	return advance(d, v, n)
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	return advance(d, v, n)
}

// advance takes a varint of n bytes (n <= 0: none could be read) off d
// and returns its value v, or 0 when there was none.
func advance[T uint64 | int64](d *decoder, v T, n int) T {
	if n <= 0 {
		d.bad = true
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) text() string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.bad = true
		return ""
	}
	at := len(d.s) - len(d.b)
	d.b = d.b[n:]
	return d.s[at : at+int(n)]
}
