package results

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Journals: what a writer appends rows to during a run, turned into
// Parquet later (convert.go). Encoding a row into Parquet (zstd, the
// dictionaries, the page statistics) costs several times what appending
// it to the journal does, and is done after the measured time, when it
// takes nothing from the server under test (bench/README.md, "The
// executions journal"). Executions are journalled
// with Options.Journal, server counters always (StatusWriter): a journal
// keeps every row that a client killed with SIGKILL wrote.
//
// A journal file is a magic line naming its row type and version, then
// frames, one per write, each written with one write call:
//
//	frame  = header payload
//	header = sync "\xf5JBF" | length uint32 | first uint64 | rows uint32 |
//	         crc32c(payload) uint32 | crc32c(header up to here) uint32
//
// (little endian). first is how many rows the frames before hold, rows
// how many this one does, so that a reader that skips a damaged frame
// knows how many rows it lost. The payload is the rows, each encoded by
// the row type's codec (journal_codec.go) with the strings of the
// dictionary columns numbered per frame: every frame reads on its own.
//
// A reader keeps every frame whose checksums verify. After a frame that
// does not, it looks for the next sync marker whose header verifies, and
// goes on from there: damage in the middle of a file (a flipped byte, a
// block the file system lost) costs the rows of the frames it touches,
// and a torn or zero-filled end (a process killed while writing, a crash
// of the machine) only what was written there.
//
// A row type's rows gain fields at their end under a new magic line
// (journal_codec.go); journals of the layouts before still read. Journals
// of the first format ("JBROWS1\n", executions only) have
// frames of an 8-byte header (length, crc32c of the payload) whose
// payload begins with its row count, and strings numbered over the whole
// file: a reader cannot go on past a damaged frame of theirs, and keeps
// the frames before it.

const journalSuffix = ".rows"

// damagedSuffix is added to the name of a journal that could not be
// turned into Parquet whole: it is kept for a person to look at, and no
// longer read as a journal.
const damagedSuffix = ".damaged"

var crc32c = crc32.MakeTable(crc32.Castagnoli)

// frameSync begins every frame of the current format.
var frameSync = [4]byte{0xf5, 'J', 'B', 'F'}

// frameHeader is the length of a frame's header; frameHeaderV1 of the
// first format's.
const (
	frameHeader   = 28
	frameHeaderV1 = 8
)

// maxFrame bounds a frame's length when reading, so that a damaged length
// field cannot ask for gigabytes.
const maxFrame = 1 << 30

// journalKind is a row type's journal: the magic lines of its row
// layouts and its codec.
type journalKind[T any] struct {
	// magics name the row type's layouts, oldest first: a journal's
	// layout is the number (from 1) of its magic line, and the last one
	// is written.
	magics []string
	// framesV1 is the layout whose journals have frames of the first
	// format (0: none).
	framesV1 int
	// newEncoder makes the encoder of one journal, of the last layout;
	// newDecoder the decoder of one journal of the layout given.
	newEncoder func() rowEncoder[T]
	newDecoder func(layout int) rowDecoder[T]
}

// magic is the magic line journals are written with.
func (k *journalKind[T]) magic() string { return k.magics[len(k.magics)-1] }

// layout is the number of the layout named by magic, 0 for none.
func (k *journalKind[T]) layout(magic []byte) int {
	for i, m := range k.magics {
		if string(magic) == m {
			return i + 1
		}
	}
	return 0
}

// rowEncoder appends the rows of one frame to a payload. Its string
// numbers start again at each call.
type rowEncoder[T any] interface {
	appendRows(b []byte, rows []T) []byte
}

// rowDecoder appends the n rows of a frame's payload to dst (n < 0: the
// payload begins with the count, as in the first format).
type rowDecoder[T any] interface {
	decodeRows(p []byte, n int, dst []T) ([]T, error)
}

// journalWriter appends frames to one journal file.
type journalWriter[T any] struct {
	f    *os.File
	path string
	rows int64
	enc  rowEncoder[T]
	buf  []byte
}

func createJournal[T any](d *RunDir, path string, kind *journalKind[T]) (*journalWriter[T], error) {
	f, err := d.create(path)
	if err != nil {
		return nil, &WriteError{Path: path, Err: err}
	}
	// Best effort: a file system without locks only loses Recover's
	// check that no client is still writing.
	_ = lockJournal(f)
	if _, err := f.Write([]byte(kind.magic())); err != nil {
		f.Close()
		_ = os.Remove(path)
		return nil, &WriteError{Path: path, Err: err}
	}
	return &journalWriter[T]{f: f, path: path, enc: kind.newEncoder()}, nil
}

// frame encodes rows as one frame; the result is valid until the next
// call.
func (j *journalWriter[T]) frame(rows []T) []byte {
	var zero [frameHeader]byte
	b := j.enc.appendRows(append(j.buf[:0], zero[:]...), rows)
	h := b[:frameHeader]
	copy(h, frameSync[:])
	binary.LittleEndian.PutUint32(h[4:], uint32(len(b)-frameHeader))
	binary.LittleEndian.PutUint64(h[8:], uint64(j.rows))
	binary.LittleEndian.PutUint32(h[16:], uint32(len(rows)))
	binary.LittleEndian.PutUint32(h[20:], crc32.Checksum(b[frameHeader:], crc32c))
	binary.LittleEndian.PutUint32(h[24:], crc32.Checksum(h[:24], crc32c))
	j.buf = b
	return b
}

// write appends rows as one frame, with one write call: what a killed
// process has written is in the file.
func (j *journalWriter[T]) write(rows []T) error {
	if len(rows) == 0 {
		return nil
	}
	if _, err := j.f.Write(j.frame(rows)); err != nil {
		return &WriteError{Path: j.path, Err: err}
	}
	j.rows += int64(len(rows))
	return nil
}

func (j *journalWriter[T]) close() error {
	if err := j.f.Close(); err != nil {
		return &WriteError{Path: j.path, Err: err}
	}
	return nil
}

// frameHead is a frame's header, read.
type frameHead struct {
	length uint32
	first  uint64
	rows   uint32
	crc    uint32
}

// parseHead reads the header at the start of h, and reports whether it
// is one: the sync marker, and a checksum that verifies.
func parseHead(h []byte) (frameHead, bool) {
	if len(h) < frameHeader || !bytes.Equal(h[:4], frameSync[:]) ||
		crc32.Checksum(h[:24], crc32c) != binary.LittleEndian.Uint32(h[24:]) {
		return frameHead{}, false
	}
	fh := frameHead{
		length: binary.LittleEndian.Uint32(h[4:]),
		first:  binary.LittleEndian.Uint64(h[8:]),
		rows:   binary.LittleEndian.Uint32(h[16:]),
		crc:    binary.LittleEndian.Uint32(h[20:]),
	}
	return fh, fh.length <= maxFrame
}

// errTornFrame is damage that runs to the end of a journal: the process
// writing it was killed, the disk filled up or the machine crashed.
var errTornFrame = errors.New("last frame incomplete or damaged")

// errDamagedFrame is damage in the middle of a journal, past which
// reading went on.
var errDamagedFrame = errors.New("frames damaged")

// damagedSpan is a stretch of a journal that holds no frame that
// verifies.
type damagedSpan struct {
	from, to int64 // bytes
	rows     int64 // rows lost there, as the frame headers around it count them
	// unknown: the span also lost rows no header counts (it runs to the
	// end of the file, past the last header that verifies)
	unknown bool
	zeros   bool // every byte is zero: what a crash leaves
}

// journalReader reads a journal file's frames back into rows, skipping
// those that do not verify.
type journalReader[T any] struct {
	f       *os.File
	r       *bufio.Reader
	path    string
	v1      bool
	size    int64
	off     int64 // of the next byte r gives
	dec     rowDecoder[T]
	payload []byte
	rows    int64 // rows in the file before the next frame, per the headers
	damage  []damagedSpan
}

// openJournal opens a journal for reading; close it with close.
func openJournal[T any](path string, kind *journalKind[T]) (*journalReader[T], error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	jr := &journalReader[T]{f: f, r: bufio.NewReaderSize(f, 1<<20), path: path, size: st.Size()}
	magic := make([]byte, len(kind.magic())) // every magic line has its length
	_, err = io.ReadFull(jr.r, magic)
	layout := kind.layout(magic)
	switch {
	case err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF):
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	case err != nil || layout == 0:
		f.Close()
		return nil, fmt.Errorf("%s: not a joinbench rows journal", path)
	}
	jr.v1 = layout == kind.framesV1
	jr.off = int64(len(magic))
	jr.dec = kind.newDecoder(layout)
	return jr, nil
}

func (jr *journalReader[T]) close() { jr.f.Close() }

// next appends the rows of the next frame that verifies to dst, noting
// the damage it skips on the way. It returns io.EOF at the end of the
// file.
func (jr *journalReader[T]) next(dst []T) ([]T, error) {
	if jr.v1 {
		return jr.nextV1(dst)
	}
	for jr.off < jr.size {
		h, err := jr.r.Peek(frameHeader)
		if err != nil && !errors.Is(err, io.EOF) {
			return dst, fmt.Errorf("%s: %w", jr.path, err)
		}
		fh, ok := parseHead(h)
		if !ok || fh.first < uint64(jr.rows) {
			if err := jr.resync(); err != nil {
				return dst, err
			}
			continue
		}
		from := jr.off
		if _, err := jr.r.Discard(frameHeader); err != nil {
			return dst, fmt.Errorf("%s: %w", jr.path, err)
		}
		jr.off += frameHeader
		jr.countGap(fh.first)
		p, err := jr.read(int(fh.length))
		if err != nil {
			return dst, err
		}
		jr.rows = int64(fh.first) + int64(fh.rows)
		if p == nil { // cut short by the end of the file
			jr.damaged(from, jr.size, int64(fh.rows), false)
			return dst, io.EOF
		}
		if crc32.Checksum(p, crc32c) == fh.crc {
			if out, err := jr.dec.decodeRows(p, int(fh.rows), dst); err == nil {
				return out, nil
			}
		}
		jr.damaged(from, jr.off, int64(fh.rows), false)
	}
	return dst, io.EOF
}

// read reads the next n bytes of the file, nil when it ends first.
func (jr *journalReader[T]) read(n int) ([]byte, error) {
	if int64(n) > jr.size-jr.off {
		jr.off = jr.size
		return nil, nil
	}
	if cap(jr.payload) < n {
		jr.payload = make([]byte, n)
	}
	p := jr.payload[:n]
	if _, err := io.ReadFull(jr.r, p); err != nil {
		return nil, fmt.Errorf("%s: %w", jr.path, err)
	}
	jr.off += int64(n)
	return p, nil
}

// resync skips from jr.off to the next frame header that verifies (or
// the end of the file), noting the bytes skipped as damaged.
func (jr *journalReader[T]) resync() error {
	from := jr.off
	to, err := jr.findHead(from + 1)
	if err != nil {
		return err
	}
	jr.damaged(from, to, 0, true)
	jr.off = to
	jr.r.Reset(io.NewSectionReader(jr.f, to, jr.size-to))
	return nil
}

// findHead is the offset of the first frame header that verifies at or
// after from, or the size of the file.
func (jr *journalReader[T]) findHead(from int64) (int64, error) {
	const chunk = 1 << 16
	buf := make([]byte, chunk+frameHeader)
	for at := from; at < jr.size; at += chunk {
		n, err := jr.f.ReadAt(buf, at)
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, fmt.Errorf("%s: %w", jr.path, err)
		}
		b := buf[:n]
		for i := 0; i < min(n, chunk); {
			k := bytes.Index(b[i:], frameSync[:1])
			if k < 0 || i+k >= chunk {
				break
			}
			i += k
			if fh, ok := parseHead(b[i:]); ok && fh.first >= uint64(jr.rows) {
				return at + int64(i), nil
			}
			i++
		}
	}
	return jr.size, nil
}

// countGap counts the rows that the frames before a header at first do
// not account for as lost in the damage just before it.
func (jr *journalReader[T]) countGap(first uint64) {
	lost := max(int64(first)-jr.rows, 0)
	n := len(jr.damage)
	switch {
	case n > 0 && jr.damage[n-1].unknown:
		jr.damage[n-1].rows += lost
		jr.damage[n-1].unknown = false
	case n > 0:
		jr.damage[n-1].rows += lost
	case lost > 0: // frames gone without a trace
		jr.damage = append(jr.damage, damagedSpan{from: jr.off - frameHeader, to: jr.off - frameHeader, rows: lost})
	}
}

// damaged notes bytes [from, to) as damaged, holding rows and, when
// unknown, more than that; damage just before them is extended.
func (jr *journalReader[T]) damaged(from, to, rows int64, unknown bool) {
	zeros := jr.allZero(from, to)
	if n := len(jr.damage); n > 0 && jr.damage[n-1].to == from {
		d := &jr.damage[n-1]
		d.to, d.rows, d.unknown, d.zeros = to, d.rows+rows, d.unknown || unknown, d.zeros && zeros
		return
	}
	jr.damage = append(jr.damage, damagedSpan{from: from, to: to, rows: rows, unknown: unknown, zeros: zeros})
}

// allZero reports whether bytes [from, to) of the file are all zero.
func (jr *journalReader[T]) allZero(from, to int64) bool {
	buf := make([]byte, 1<<16)
	for at := from; at < to; {
		n, err := jr.f.ReadAt(buf[:min(int64(len(buf)), to-at)], at)
		for _, c := range buf[:n] {
			if c != 0 {
				return false
			}
		}
		if n == 0 || err != nil && !errors.Is(err, io.EOF) {
			return false
		}
		at += int64(n)
	}
	return true
}

// nextV1 is next for the first format, which cannot be read past a
// frame that does not verify: the rest of the file is damaged then.
func (jr *journalReader[T]) nextV1(dst []T) ([]T, error) {
	if jr.off >= jr.size {
		return dst, io.EOF
	}
	from := jr.off
	h, err := jr.read(frameHeaderV1)
	if err != nil {
		return dst, err
	}
	if h != nil {
		size := binary.LittleEndian.Uint32(h[0:])
		sum := binary.LittleEndian.Uint32(h[4:])
		// every frame holds at least its row count: an empty one is
		// zeros, not a frame
		if size > 0 && size <= maxFrame {
			p, err := jr.read(int(size))
			if err != nil {
				return dst, err
			}
			if p != nil && crc32.Checksum(p, crc32c) == sum {
				if out, err := jr.dec.decodeRows(p, -1, dst); err == nil {
					jr.rows += int64(len(out) - len(dst))
					return out, nil
				}
			}
		}
	}
	jr.damaged(from, jr.size, 0, true)
	jr.off = jr.size
	return dst, io.EOF
}

// journalDamage is the damage a journal's conversion skipped, as a
// warning.
type journalDamage struct {
	path  string
	size  int64
	spans []damagedSpan
	kept  int64  // rows converted
	file  string // the Parquet file they are in, "" when none
	// keptAs is the name the journal was kept under, "" when it was
	// removed (damage that holds nothing: zeros at its end)
	keptAs string
}

// lost is how many rows the damage cost, as far as the frame headers
// count them, and whether it cost more that no header counts.
func (d *journalDamage) lost() (rows int64, unknown bool) {
	for _, s := range d.spans {
		rows += s.rows
		unknown = unknown || s.unknown && !s.zeros
	}
	return rows, unknown
}

// emptyTail reports whether the only damage is zeros at the end of the
// file, where no header counts a row: nothing a person could recover.
func (d *journalDamage) emptyTail() bool {
	s := d.spans
	return len(s) == 1 && s[0].zeros && s[0].to == d.size && s[0].rows == 0
}

func (d *journalDamage) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: ", d.path)
	for i, s := range d.spans {
		if i > 0 {
			b.WriteString("; ")
		}
		what := "damaged"
		if s.zeros {
			what = "zeros, as a crash leaves them"
		}
		fmt.Fprintf(&b, "bytes %d-%d %s: ", s.from, s.to, what)
		switch {
		case s.unknown && s.zeros:
			b.WriteString("rows written there, if any, are lost")
		case s.unknown && s.rows > 0:
			fmt.Fprintf(&b, "%d rows lost, and those written after them (how many is not known)", s.rows)
		case s.unknown:
			b.WriteString("the rows written there are lost (how many is not known)")
		default:
			fmt.Fprintf(&b, "%d rows lost", s.rows)
		}
	}
	if d.file != "" {
		fmt.Fprintf(&b, "; %d rows read are in %s", d.kept, filepath.Base(d.file))
	} else {
		b.WriteString("; no row could be read")
	}
	if d.keptAs != "" {
		fmt.Fprintf(&b, "; the journal is kept as %s", filepath.Base(d.keptAs))
	}
	return b.String()
}

// Unwrap says where the damage is: at the end of the file (errTornFrame,
// what a killed or crashed client leaves), before it (errDamagedFrame),
// or both.
func (d *journalDamage) Unwrap() []error {
	var errs []error
	if s := d.spans; s[len(s)-1].to < d.size || len(s) > 1 {
		errs = append(errs, errDamagedFrame)
	}
	if s := d.spans; s[len(s)-1].to == d.size {
		errs = append(errs, errTornFrame)
	}
	return errs
}
