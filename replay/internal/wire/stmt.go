package wire

import (
	"encoding/binary"
	"math"

	"github.com/go-sql-driver/mysql"
)

// Commands.
const (
	comStmtPrepare = 0x16
	comStmtExecute = 0x17
	comStmtClose   = 0x19
)

// Column types of bound parameters.
const (
	typeTiny     = 0x01
	typeDouble   = 0x05
	typeNull     = 0x06
	typeLongLong = 0x08
	typeString   = 0xfe
)

// serverMoreResults is the status flag announcing another result.
const serverMoreResults = 0x0008

// Stmt is a statement prepared on the server.
type Stmt struct {
	id      uint32
	params  int
	columns int
	// cols are the result columns as last described by the server, for
	// decoding rows (a server caching metadata sends them again only
	// when they change).
	cols []column
	// sentTypes are the parameter types the server holds for the
	// statement (two bytes each, as sent), nil until an execution sent
	// them: an execution whose types are the same sends none, as C
	// clients do after the first, so the server does not set up its
	// parameter conversions again each time.
	sentTypes []byte
}

// Prepare prepares query on the server. A server error is returned as a
// *mysql.MySQLError, as the driver reports it.
func (c *Conn) Prepare(query string) (*Stmt, error) {
	c.startCommand(comStmtPrepare)
	c.wbuf = append(c.wbuf, query...)
	if err := c.command(); err != nil {
		return nil, err
	}
	p, _, err := c.next()
	if err != nil {
		return nil, err
	}
	if len(p) > 0 && p[0] == hdrError {
		return nil, serverError(p)
	}
	// 0x00, statement id 4, columns 2, params 2, filler 1, warnings 2
	if len(p) < 12 || p[0] != hdrOK {
		return nil, protocolErrorf("unexpected reply to COM_STMT_PREPARE (%d bytes)", len(p))
	}
	s := &Stmt{
		id:      binary.LittleEndian.Uint32(p[1:]),
		columns: int(binary.LittleEndian.Uint16(p[5:])),
		params:  int(binary.LittleEndian.Uint16(p[7:])),
	}
	if s.params > 0 {
		if err := c.skipDefinitions(s.params); err != nil {
			return nil, err
		}
	}
	if s.columns > 0 {
		if s.cols, err = c.readColumns(s.columns, nil); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// skipDefinitions skips n column definitions and the EOF packet that ends
// them when the connection still uses one.
func (c *Conn) skipDefinitions(n int) error {
	for range n {
		if _, _, err := c.next(); err != nil {
			return err
		}
	}
	return c.endDefinitions()
}

// endDefinitions reads the EOF packet that ends column definitions (sent
// or, with cached metadata, not) on a connection that still uses one.
func (c *Conn) endDefinitions() error {
	if c.caps.DeprecateEOF {
		return nil
	}
	_, _, err := c.next()
	return err
}

// Close frees the statement on the server. The server does not reply.
func (c *Conn) Close(s *Stmt) error {
	c.startCommand(comStmtClose)
	c.wbuf = binary.LittleEndian.AppendUint32(c.wbuf, s.id)
	return c.command()
}

// Supported reports whether Exec can send v, a value as database/sql's
// default converter makes it: nil, int64, float64, bool, []byte or
// string. Times are not: the driver sends them converted to the
// connection's time zone, which this package does not know.
func Supported(v any) bool {
	switch v.(type) {
	case nil, int64, float64, bool, []byte, string:
		return true
	}
	return false
}

// Exec executes s with args (each Supported) and reads its whole reply. n
// is the number of rows a result set returned, or the rows a statement
// without one affected; Warnings is then the server's warning count. With a sink, every row of every result set is
// decoded and handed to it. A server error is returned as a
// *mysql.MySQLError; any other error leaves the connection unusable.
func (c *Conn) Exec(s *Stmt, args []any, sink RowSink) (n int64, err error) {
	if len(args) != s.params {
		return 0, protocolErrorf("statement takes %d arguments, got %d", s.params, len(args))
	}
	c.warnings = 0
	if err := c.sendExecute(s, args); err != nil {
		s.sentTypes = nil
		return 0, err
	}
	for first := true; ; first = false {
		rows, status, err := c.readResult(s, sink, first)
		if err != nil {
			// Whether the server kept the types of a failed execution
			// is not known: the next one sends them again.
			s.sentTypes = nil
			return n, err
		}
		n += rows
		if status&serverMoreResults == 0 {
			return n, nil
		}
	}
}

// sendExecute writes COM_STMT_EXECUTE: statement id, no cursor, one
// iteration, then the NULL bitmap, parameter types (when they changed
// since the last execution, see Stmt.sentTypes) and values.
func (c *Conn) sendExecute(s *Stmt, args []any) error {
	c.startCommand(comStmtExecute)
	c.wbuf = binary.LittleEndian.AppendUint32(c.wbuf, s.id)
	c.wbuf = append(c.wbuf, 0)
	c.wbuf = binary.LittleEndian.AppendUint32(c.wbuf, 1)
	if len(args) == 0 {
		return c.command()
	}
	mask := len(c.wbuf)
	for range (len(args) + 7) / 8 {
		c.wbuf = append(c.wbuf, 0)
	}
	// Types and values are gathered apart: the types go first in the
	// packet, and only when they changed.
	c.types, c.vals = c.types[:0], c.vals[:0]
	for i, a := range args {
		var t byte
		switch v := a.(type) {
		case nil:
			t = typeNull
		case int64:
			t = typeLongLong
			c.vals = binary.LittleEndian.AppendUint64(c.vals, uint64(v))
		case float64:
			t = typeDouble
			c.vals = binary.LittleEndian.AppendUint64(c.vals, math.Float64bits(v))
		case bool:
			t = typeTiny
			b := byte(0)
			if v {
				b = 1
			}
			c.vals = append(c.vals, b)
		case string:
			t = typeString
			c.vals = appendLenEnc(c.vals, uint64(len(v)))
			c.vals = append(c.vals, v...)
		case []byte:
			if v == nil {
				t = typeNull // a nil []byte is NULL, as the driver sends it
				break
			}
			t = typeString
			c.vals = appendLenEnc(c.vals, uint64(len(v)))
			c.vals = append(c.vals, v...)
		default:
			return protocolErrorf("cannot send argument %d of type %T", i+1, a)
		}
		if t == typeNull {
			c.wbuf[mask+i/8] |= 1 << (i % 8)
		}
		c.types = append(c.types, t, 0) // the second byte, flags (unsigned), stays 0
	}
	if s.sentTypes != nil && string(s.sentTypes) == string(c.types) {
		c.wbuf = append(c.wbuf, 0) // the server's types stand
	} else {
		c.wbuf = append(c.wbuf, 1) // types follow
		c.wbuf = append(c.wbuf, c.types...)
		s.sentTypes = append(s.sentTypes[:0], c.types...)
	}
	c.wbuf = append(c.wbuf, c.vals...)
	return c.command()
}

// readResult reads one result: an OK packet (rows affected) or a result
// set (rows counted, and given to sink when there is one), and the server
// status that ends it.
func (c *Conn) readResult(s *Stmt, sink RowSink, first bool) (n int64, status uint16, err error) {
	p, _, err := c.next()
	if err != nil {
		return 0, 0, err
	}
	if len(p) == 0 {
		return 0, 0, protocolErrorf("empty reply to COM_STMT_EXECUTE")
	}
	switch p[0] {
	case hdrError:
		return 0, 0, serverError(p)
	case hdrOK:
		affected, status, warnings, err := okPacket(p)
		c.warnings = warnings
		return int64(affected), status, err
	}
	cols, k := readLenEnc(p)
	if k == 0 || cols == 0 {
		return 0, 0, protocolErrorf("unexpected reply to COM_STMT_EXECUTE (first byte %#x)", p[0])
	}
	// The statement's own result has its columns in s.cols (a server that
	// caches metadata sends them only when they change); the further
	// results of a procedure call are described every time.
	colsOf := &s.cols
	if !first {
		colsOf = &c.moreCols
	}
	sent := !c.caps.CacheMetadata || (len(p) > k && p[k] == 1)
	switch {
	case sent && sink != nil:
		if *colsOf, err = c.readColumns(int(cols), *colsOf); err != nil {
			return 0, 0, err
		}
	case sent:
		if err := c.skipDefinitions(int(cols)); err != nil {
			return 0, 0, err
		}
	default: // metadata cached, not sent; its EOF packet is
		if err := c.endDefinitions(); err != nil {
			return 0, 0, err
		}
	}
	// Binary rows start with 0x00; the result ends with an EOF packet (or
	// an OK packet with the EOF header) or an error.
	for {
		p, cont, err := c.next()
		if err != nil {
			return n, 0, err
		}
		switch {
		case cont && sink == nil:
			n++
			if err := c.skipContinuation(); err != nil {
				return n, 0, err
			}
		case cont || len(p) > 0 && p[0] == hdrOK:
			n++
			if sink == nil {
				continue
			}
			if cont {
				if p, err = c.joinContinuation(p); err != nil {
					return n, 0, err
				}
			}
			if len(*colsOf) != int(cols) {
				return n, 0, protocolErrorf("%d columns described, %d in the result", len(*colsOf), cols)
			}
			row, err := c.decodeRow(p, *colsOf)
			if err != nil {
				return n, 0, err
			}
			sink.AddRow(row)
		case len(p) > 0 && p[0] == hdrError:
			return n, 0, serverError(p)
		case len(p) > 0 && p[0] == hdrEOF:
			if c.caps.DeprecateEOF {
				_, status, warnings, err := okPacket(p)
				c.warnings = warnings
				return n, status, err
			}
			if len(p) < 5 {
				return n, 0, protocolErrorf("short EOF packet")
			}
			// 0xfe, warnings 2, status 2
			c.warnings = binary.LittleEndian.Uint16(p[1:])
			return n, binary.LittleEndian.Uint16(p[3:]), nil
		case len(p) == 0:
			return n, 0, protocolErrorf("empty packet in result set")
		default:
			return n, 0, protocolErrorf("unexpected packet in result set (first byte %#x)", p[0])
		}
	}
}

// okPacket reads rows affected, the status and the warning count of an OK
// packet (header 0x00, or 0xfe when it ends a result set): header, rows
// affected and last insert id (length-encoded), status 2, warnings 2.
func okPacket(p []byte) (affected uint64, status, warnings uint16, err error) {
	affected, k := readLenEnc(p[1:])
	if k == 0 {
		return 0, 0, 0, protocolErrorf("malformed OK packet")
	}
	_, k2 := readLenEnc(p[1+k:]) // last insert id
	pos := 1 + k + k2
	if k2 == 0 || len(p) < pos+2 {
		return 0, 0, 0, protocolErrorf("malformed OK packet")
	}
	if len(p) >= pos+4 {
		warnings = binary.LittleEndian.Uint16(p[pos+2:])
	}
	return affected, binary.LittleEndian.Uint16(p[pos:]), warnings, nil
}

// serverError converts an error packet, as the driver does.
func serverError(p []byte) error {
	if len(p) < 3 {
		return protocolErrorf("short error packet")
	}
	me := &mysql.MySQLError{Number: binary.LittleEndian.Uint16(p[1:])}
	pos := 3
	if len(p) >= 9 && p[3] == '#' {
		copy(me.SQLState[:], p[4:9])
		pos = 9
	}
	me.Message = string(p[pos:])
	return me
}
