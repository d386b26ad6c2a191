package wire

import (
	"database/sql"
	"encoding/binary"
	"math"
	"strconv"
)

// Decoding binary rows into text, for result checksums.
//
// A checksum must not depend on how a statement was executed: a run
// through the driver (TLS, --exec-path driver) and a run on the socket
// must hash the same rows to the same value. So a column's text here is
// exactly what the Go MySQL driver's binary-protocol value gives when
// scanned into sql.RawBytes (with parseTime off): integers in decimal
// (unsigned ones too), FLOAT as a float32 and DOUBLE as a float64 in Go's
// shortest form, dates and times as the driver formats them, everything
// else as the bytes the server sent.

// RowSink receives the rows of a result set when Exec is given one.
type RowSink interface {
	// AddRow gets one row's columns, nil for NULL; they are valid until
	// AddRow returns.
	AddRow(cols []sql.RawBytes)
}

// Column types, as the server describes result columns.
const (
	typeDecimal    = 0x00
	typeShort      = 0x02
	typeLong       = 0x03
	typeFloat      = 0x04
	typeTimestamp  = 0x07
	typeInt24      = 0x09
	typeDate       = 0x0a
	typeTime       = 0x0b
	typeDateTime   = 0x0c
	typeYear       = 0x0d
	typeNewDate    = 0x0e
	typeVarChar    = 0x0f
	typeBit        = 0x10
	typeVector     = 0xf2
	typeJSON       = 0xf5
	typeNewDecimal = 0xf6
	typeEnum       = 0xf7
	typeSet        = 0xf8
	typeTinyBlob   = 0xf9
	typeMediumBlob = 0xfa
	typeLongBlob   = 0xfb
	typeBlob       = 0xfc
	typeVarString  = 0xfd
	typeGeometry   = 0xff

	colUnsigned = 1 << 5
)

// column is what decoding a result column needs of its definition.
type column struct {
	typ      byte
	flags    uint16
	decimals byte
}

// parseColumn reads a column definition packet (protocol 4.1): six
// length-encoded strings (catalog, schema, table, original table, name,
// original name), the length of the fixed fields, then character set (2),
// column length (4), type, flags (2) and decimals.
func parseColumn(p []byte) (column, error) {
	pos := 0
	for range 6 {
		n, k := readLenEnc(p[pos:])
		if k == 0 || n > uint64(len(p)-pos-k) {
			return column{}, protocolErrorf("malformed column definition")
		}
		pos += k + int(n)
	}
	_, k := readLenEnc(p[pos:])
	pos += k
	if k == 0 || pos+10 > len(p) {
		return column{}, protocolErrorf("malformed column definition")
	}
	return column{typ: p[pos+6], flags: binary.LittleEndian.Uint16(p[pos+7:]), decimals: p[pos+9]}, nil
}

// readColumns reads n column definitions and the EOF packet that ends them
// when the connection still uses one.
func (c *Conn) readColumns(n int, into []column) ([]column, error) {
	into = into[:0]
	for range n {
		p, _, err := c.next()
		if err != nil {
			return nil, err
		}
		col, err := parseColumn(p)
		if err != nil {
			return nil, err
		}
		into = append(into, col)
	}
	return into, c.endDefinitions()
}

// errShortRow is a row whose values end before its columns do.
var errShortRow = &ProtocolError{Msg: "row shorter than its columns"}

// zeroDateTime is the zero value the driver gives a zero-length date or
// time, cut to the column's length.
const zeroDateTime = "0000-00-00 00:00:00.000000"

// decodeRow formats a binary row (header byte, NULL bitmap, values) into
// c.text, one entry per column, and returns it.
func (c *Conn) decodeRow(p []byte, cols []column) ([]sql.RawBytes, error) {
	n := len(cols)
	pos := 1 + (n+7+2)/8
	if len(p) < pos {
		return nil, errShortRow
	}
	null := p[1:pos]
	for len(c.text) < n {
		c.text = append(c.text, nil)
		c.textBuf = append(c.textBuf, nil)
	}
	out := c.text[:n]
	for i, col := range cols {
		if null[(i+2)/8]>>((i+2)%8)&1 == 1 || col.typ == typeNull {
			out[i] = nil
			continue
		}
		buf := c.textBuf[i][:0]
		unsigned := col.flags&colUnsigned != 0
		if size := fixedSize(col.typ); size > 0 {
			if pos+size > len(p) {
				return nil, errShortRow
			}
			v := p[pos : pos+size]
			pos += size
			switch col.typ {
			case typeTiny:
				if unsigned {
					buf = strconv.AppendUint(buf, uint64(v[0]), 10)
				} else {
					buf = strconv.AppendInt(buf, int64(int8(v[0])), 10)
				}
			case typeShort, typeYear:
				if u := binary.LittleEndian.Uint16(v); unsigned {
					buf = strconv.AppendUint(buf, uint64(u), 10)
				} else {
					buf = strconv.AppendInt(buf, int64(int16(u)), 10)
				}
			case typeInt24, typeLong:
				if u := binary.LittleEndian.Uint32(v); unsigned {
					buf = strconv.AppendUint(buf, uint64(u), 10)
				} else {
					buf = strconv.AppendInt(buf, int64(int32(u)), 10)
				}
			case typeLongLong:
				if u := binary.LittleEndian.Uint64(v); unsigned {
					buf = strconv.AppendUint(buf, u, 10)
				} else {
					buf = strconv.AppendInt(buf, int64(u), 10)
				}
			case typeFloat:
				buf = strconv.AppendFloat(buf, float64(math.Float32frombits(binary.LittleEndian.Uint32(v))), 'g', -1, 32)
			case typeDouble:
				buf = strconv.AppendFloat(buf, math.Float64frombits(binary.LittleEndian.Uint64(v)), 'g', -1, 64)
			}
			c.textBuf[i] = buf
			out[i] = buf
			continue
		}
		switch col.typ {
		case typeDecimal, typeNewDecimal, typeVarChar, typeBit, typeEnum, typeSet, typeTinyBlob,
			typeMediumBlob, typeLongBlob, typeBlob, typeVarString, typeString, typeGeometry, typeJSON, typeVector:
			if pos < len(p) && p[pos] == 0xfb { // a NULL written as a string
				pos++
				out[i] = nil
				continue
			}
			l, k := readLenEnc(p[pos:])
			if k == 0 || l > uint64(len(p)-pos-k) {
				return nil, errShortRow
			}
			out[i] = p[pos+k : pos+k+int(l)] // the server's bytes, valid until the next packet
			pos += k + int(l)
			continue
		case typeDate, typeNewDate, typeTime, typeTimestamp, typeDateTime:
			l, k := readLenEnc(p[pos:])
			if k == 0 || l > uint64(len(p)-pos-k) {
				return nil, errShortRow
			}
			v := p[pos+k : pos+k+int(l)]
			pos += k + int(l)
			var err error
			if col.typ == typeTime {
				buf, err = appendTime(buf, v, col.decimals)
			} else {
				buf, err = appendDateTime(buf, v, col.typ == typeDate || col.typ == typeNewDate, col.decimals)
			}
			if err != nil {
				return nil, err
			}
		default:
			return nil, protocolErrorf("unknown column type %#x", col.typ)
		}
		c.textBuf[i] = buf
		out[i] = buf
	}
	return out, nil
}

// fixedSize is the size of a fixed-length binary value of a column type,
// 0 for the types sent with a length.
func fixedSize(typ byte) int {
	switch typ {
	case typeTiny:
		return 1
	case typeShort, typeYear:
		return 2
	case typeInt24, typeLong, typeFloat:
		return 4
	case typeLongLong, typeDouble:
		return 8
	}
	return 0
}

// fraction returns how many fractional digits a temporal column of these
// decimals shows, as the driver reads them.
func fraction(decimals byte) (int, error) {
	switch {
	case decimals == 0 || decimals == 0x1f:
		return 0, nil
	case decimals <= 6:
		return int(decimals), nil
	}
	return 0, protocolErrorf("illegal decimals %d of a temporal column", decimals)
}

// appendDateTime formats a binary DATE, DATETIME or TIMESTAMP value (0, 4,
// 7 or 11 bytes) as YYYY-MM-DD[ hh:mm:ss[.ffffff]].
func appendDateTime(buf, v []byte, dateOnly bool, decimals byte) ([]byte, error) {
	frac, err := fraction(decimals)
	if err != nil {
		return nil, err
	}
	length := 19
	if frac > 0 {
		length += 1 + frac
	}
	if dateOnly {
		length = 10
	}
	switch len(v) {
	case 0:
		return append(buf, zeroDateTime[:length]...), nil
	case 4, 7, 11:
	default:
		return nil, protocolErrorf("illegal date/time value of %d bytes", len(v))
	}
	buf = appendPadded(buf, int(binary.LittleEndian.Uint16(v)), 4)
	buf = append(buf, '-')
	buf = appendPadded(buf, int(v[2]), 2)
	buf = append(buf, '-')
	buf = appendPadded(buf, int(v[3]), 2)
	if dateOnly {
		return buf, nil
	}
	if len(v) == 4 {
		return append(buf, zeroDateTime[10:length]...), nil
	}
	buf = append(buf, ' ')
	buf = appendPadded(buf, int(v[4]), 2)
	buf = append(buf, ':')
	buf = appendPadded(buf, int(v[5]), 2)
	buf = append(buf, ':')
	buf = appendPadded(buf, int(v[6]), 2)
	return appendFraction(buf, v[7:], frac), nil
}

// appendTime formats a binary TIME value (0, 8 or 12 bytes) as
// [-]hh:mm:ss[.ffffff], hours past 99 in full.
func appendTime(buf, v []byte, decimals byte) ([]byte, error) {
	frac, err := fraction(decimals)
	if err != nil {
		return nil, err
	}
	switch len(v) {
	case 0:
		n := 8
		if frac > 0 {
			n += 1 + frac
		}
		return append(buf, zeroDateTime[11:11+n]...), nil
	case 8, 12:
	default:
		return nil, protocolErrorf("illegal time value of %d bytes", len(v))
	}
	if v[0] == 1 {
		buf = append(buf, '-')
	}
	hours := int64(binary.LittleEndian.Uint32(v[1:]))*24 + int64(v[5])
	if hours >= 100 {
		buf = strconv.AppendInt(buf, hours, 10)
	} else {
		buf = appendPadded(buf, int(hours), 2)
	}
	buf = append(buf, ':')
	buf = appendPadded(buf, int(v[6]), 2)
	buf = append(buf, ':')
	buf = appendPadded(buf, int(v[7]), 2)
	return appendFraction(buf, v[8:], frac), nil
}

// appendFraction appends frac digits of the microseconds in v (4 bytes,
// or none: zeros).
func appendFraction(buf, v []byte, frac int) []byte {
	if frac == 0 {
		return buf
	}
	us := 0
	if len(v) >= 4 {
		us = int(binary.LittleEndian.Uint32(v))
	}
	buf = append(buf, '.')
	var digits [6]byte
	for i := 5; i >= 0; i-- {
		digits[i] = byte('0' + us%10)
		us /= 10
	}
	return append(buf, digits[:frac]...)
}

// appendPadded appends v in decimal, zero-padded to width digits.
func appendPadded(buf []byte, v, width int) []byte {
	var d [10]byte
	i := len(d)
	for ; v > 0 || i > len(d)-width; v /= 10 {
		i--
		d[i] = byte('0' + v%10)
	}
	return append(buf, d[i:]...)
}
