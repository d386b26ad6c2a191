package results

import (
	"encoding/binary"
	"errors"
	"math"
	"time"
)

// The rows of a journal frame (journal.go), per row type. A row is its
// fields in a fixed order, integers as varints, times as nanoseconds,
// free text as a uvarint length and its bytes. The few distinct strings
// of the dictionary columns are numbered in the order they first appear
// in the frame: a row gives the number, and the first use of a number is
// followed by the string itself. Number 0 is the empty string (null).
//
// The codecs are written out field by field rather than driven by the
// schema, for speed; TestJournalCarriesEveryColumn fails for a column of
// the row type a codec does not carry. A column added to a row type goes
// at the end of its rows here, under a new magic line (journalKind.magics),
// and the decoder reads it only from journals of that layout: the journals
// a client of the build before left still read.

// executionJournal is the executions journal, executions-<host>-<n>.rows.
// Layout 3 added the commit error code and the node, layout 4 the
// warning count.
var executionJournal = &journalKind[Execution]{
	magics:     []string{"JBROWS1\n", "JBROWS2\n", "JBROWS3\n", "JBROWS4\n"},
	framesV1:   1,
	newEncoder: func() rowEncoder[Execution] { return newExecutionEncoder() },
	newDecoder: func(layout int) rowDecoder[Execution] {
		return &executionDecoder{strs: []string{""}, v1: layout == 1, layout: layout}
	},
}

// executionLayout is the layout executions are written in.
const executionLayout = 4

// The dictionary fields of an execution, in their order within it.
const (
	jRun = iota
	jScenario
	jTemplate
	jEndpoint
	jHost
	jSQLState
	jPlan
	jNode    // at the end of the row (layout 3)
	jStrings // count
)

// Flags of an execution.
const (
	jIntended = 1 << iota // IntendedStart is set
	jCut                  // CutAtEnd
)

// executionEncoder encodes executions: after its flags, a row's
// dictionary fields (jRun to jPlan), its start as the difference from the
// previous row's in the frame, its intended start as the difference from
// its start, its numbers, error message, checksum, parameters, commit
// error code, node and warning count.
type executionEncoder struct {
	strs stringNumbers
}

func newExecutionEncoder() *executionEncoder {
	return &executionEncoder{strs: newStringNumbers()}
}

func (e *executionEncoder) appendRows(b []byte, rows []Execution) []byte {
	e.strs.newFrame()
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
		b = e.strs.append(b, jRun, r.RunID)
		b = e.strs.append(b, jScenario, r.Scenario)
		b = e.strs.append(b, jTemplate, r.TemplateHash)
		b = e.strs.append(b, jEndpoint, r.Endpoint)
		b = e.strs.append(b, jHost, r.ClientHost)
		b = e.strs.append(b, jSQLState, r.SQLState)
		b = e.strs.append(b, jPlan, r.PlanHash)
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
		b = binary.AppendVarint(b, int64(r.CommitErrorCode))
		b = e.strs.append(b, jNode, r.Node)
		b = binary.AppendVarint(b, int64(r.Warnings))
	}
	return b
}

// stringNumbers numbers the strings of a frame's dictionary fields.
type stringNumbers struct {
	ids   map[string]*stringNumber // over the whole journal
	empty *stringNumber
	frame uint64
	next  uint64 // the next number of this frame
	// last is each field's last string and its number in the frame then:
	// the rows of a scenario share their strings, and equal pointers
	// compare without reading the bytes
	last [maxStringFields]struct {
		s     string
		n     *stringNumber
		frame uint64
		id    uint64
	}
}

// maxStringFields bounds the dictionary fields of a row type.
const maxStringFields = 8

// Compile-time checks that the row types' dictionary fields fit.
var (
	_ [maxStringFields - jStrings]struct{}
	_ [maxStringFields - sStrings]struct{}
)

// stringNumber is a string's number in the frame it was last given one.
type stringNumber struct{ frame, id uint64 }

func newStringNumbers() stringNumbers {
	empty := &stringNumber{}
	sn := stringNumbers{ids: map[string]*stringNumber{"": empty}, empty: empty}
	for i := range sn.last {
		sn.last[i].n = empty
	}
	return sn
}

// newFrame starts the numbers again, so that a frame reads on its own.
func (sn *stringNumbers) newFrame() {
	sn.frame++
	sn.next = 1
	sn.empty.frame = sn.frame
}

// append appends the number of s, and s after it the first time in the
// frame.
func (sn *stringNumbers) append(b []byte, field int, s string) []byte {
	c := &sn.last[field]
	if s == c.s && c.frame == sn.frame {
		return binary.AppendUvarint(b, c.id)
	}
	if s != c.s {
		n := sn.ids[s]
		if n == nil {
			n = &stringNumber{}
			sn.ids[s] = n
		}
		c.s, c.n = s, n
	}
	n := c.n
	c.frame = sn.frame
	if n.frame == sn.frame {
		c.id = n.id
		return binary.AppendUvarint(b, n.id)
	}
	n.frame, n.id = sn.frame, sn.next
	sn.next++
	c.id = n.id
	return appendText(binary.AppendUvarint(b, n.id), s)
}

func appendText(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// statusJournal is the server counters' journal, status-<host>-<n>.rows.
// Layout 2 added the value of a state.
var statusJournal = &journalKind[Status]{
	magics:     []string{"JBSTAT1\n", "JBSTAT2\n"},
	newEncoder: func() rowEncoder[Status] { return &statusEncoder{strs: newStringNumbers()} },
	newDecoder: func(layout int) rowDecoder[Status] { return &statusDecoder{strs: []string{""}, layout: layout} },
}

// statusLayout is the layout status rows are written in.
const statusLayout = 2

// The dictionary fields of a status row, in their order within it.
const (
	sRun = iota
	sEndpoint
	sVariable
	sValue   // at the end of the row (layout 2)
	sStrings // count
)

// Flags of a status row.
const sGauge = 1 // Gauge

// statusEncoder encodes status rows: after its flags, a row's dictionary
// fields (sRun to sVariable), its time as the difference from the
// previous row's in the frame, its interval (the 8 bytes of the float),
// its delta and its value.
type statusEncoder struct {
	strs stringNumbers
}

func (e *statusEncoder) appendRows(b []byte, rows []Status) []byte {
	e.strs.newFrame()
	var prev int64
	for i := range rows {
		r := &rows[i]
		var flags byte
		if r.Gauge {
			flags |= sGauge
		}
		b = append(b, flags)
		b = e.strs.append(b, sRun, r.RunID)
		b = e.strs.append(b, sEndpoint, r.Endpoint)
		b = e.strs.append(b, sVariable, r.Variable)
		at := r.Time.UnixNano()
		b = binary.AppendVarint(b, at-prev)
		prev = at
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(r.Interval))
		b = binary.AppendVarint(b, r.Delta)
		b = e.strs.append(b, sValue, r.Value)
	}
	return b
}

type statusDecoder struct {
	strs   []string
	layout int
}

func (sd *statusDecoder) decodeRows(p []byte, n int, dst []Status) ([]Status, error) {
	d := decoder{b: p, s: string(p)}
	sd.strs = sd.strs[:1]
	base := len(dst)
	var prev int64
	for range n {
		var r Status
		flags := d.byte()
		r.RunID = d.str(&sd.strs)
		r.Endpoint = d.str(&sd.strs)
		r.Variable = d.str(&sd.strs)
		prev += d.varint()
		r.Time = time.Unix(0, prev).UTC()
		r.Interval = math.Float64frombits(d.fixed64())
		r.Delta = d.varint()
		if sd.layout >= 2 {
			r.Value = d.str(&sd.strs)
		}
		r.Gauge = flags&sGauge != 0
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

var errBadRow = errors.New("row does not decode")

// executionDecoder decodes executions. Strings of the dictionary fields
// are shared between rows; parameters, checksums and error messages are
// parts of one copy of the payload.
type executionDecoder struct {
	v1     bool // strings numbered over the whole file
	layout int
	strs   []string
	// Rows take their parameter lists and intended starts from these
	// blocks, a few allocations per frame rather than some per row.
	params []string
	times  []time.Time
}

func (jd *executionDecoder) decodeRows(p []byte, n int, dst []Execution) ([]Execution, error) {
	d := decoder{b: p, s: string(p)}
	if n < 0 {
		c := d.uvarint()
		if d.bad || c > uint64(len(p)) {
			return dst, errBadRow
		}
		n = int(c)
	}
	if !jd.v1 {
		jd.strs = jd.strs[:1]
	}
	base := len(dst)
	var prev int64
	for range n {
		var r Execution
		flags := d.byte()
		r.RunID = d.str(&jd.strs)
		r.Scenario = d.str(&jd.strs)
		r.TemplateHash = d.str(&jd.strs)
		r.Endpoint = d.str(&jd.strs)
		r.ClientHost = d.str(&jd.strs)
		r.SQLState = d.str(&jd.strs)
		r.PlanHash = d.str(&jd.strs)
		start := prev + d.varint()
		prev = start
		r.Start = time.Unix(0, start).UTC()
		if flags&jIntended != 0 {
			if len(jd.times) == cap(jd.times) {
				jd.times = make([]time.Time, 0, 1024)
			}
			jd.times = append(jd.times, time.Unix(0, start-d.varint()).UTC())
			r.IntendedStart = &jd.times[len(jd.times)-1]
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
			if cap(jd.params)-len(jd.params) < np {
				jd.params = make([]string, 0, max(4096, np))
			}
			k := len(jd.params)
			for range np {
				jd.params = append(jd.params, d.text())
			}
			r.Params = jd.params[k:len(jd.params):len(jd.params)]
		} else if np != 0 {
			d.bad = true
		}
		if jd.layout >= 3 {
			r.CommitErrorCode = int32(d.varint())
			r.Node = d.str(&jd.strs)
		}
		if jd.layout >= 4 {
			r.Warnings = int32(d.varint())
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

func (d *decoder) fixed64() uint64 {
	if len(d.b) < 8 {
		d.bad = true
		return 0
	}
	v := binary.LittleEndian.Uint64(d.b)
	d.b = d.b[8:]
	return v
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

// str reads a string number, and the string after its first use; strs
// are the strings numbered so far.
func (d *decoder) str(strs *[]string) string {
	id := d.uvarint()
	switch {
	case id < uint64(len(*strs)):
		return (*strs)[id]
	case id == uint64(len(*strs)):
		s := d.text()
		*strs = append(*strs, s)
		return s
	default:
		d.bad = true
		return ""
	}
}
