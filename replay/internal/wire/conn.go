// Package wire executes the workers' prepared statements in the MySQL
// client/server binary protocol, directly on a connection's socket.
//
// A benchmark client's cost per statement is the tool's overhead, and on a
// point select by primary key the general-purpose driver's result-set
// machinery (rows objects, column metadata, conversions) costs more client
// CPU than the round trip itself. The engine needs, per execution, the
// number of rows returned or affected and the server's error, so this
// package sends COM_STMT_EXECUTE and reads the reply without decoding
// values: a row is counted, not parsed, and nothing is allocated. Only when
// result checksums are asked for are rows decoded, into the very text the
// driver would give (rows.go), so that checksums agree whichever way a run
// executed its statements.
//
// It does not connect or authenticate: the driver does, on a socket the
// engine dials, and this package then shares that socket. Both speak one
// command at a time and read each reply to its end, so they can take turns.
// It knows nothing of TLS or compression; the engine uses it only on plain
// connections.
package wire

import (
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Caps are the capabilities negotiated in the connection's handshake that
// change the shape of replies.
type Caps struct {
	// DeprecateEOF: result sets end with an OK packet and column
	// definitions are not followed by an EOF packet.
	DeprecateEOF bool
	// CacheMetadata (MariaDB): a result set's column definitions are
	// sent only when they changed since the statement was prepared.
	CacheMetadata bool
}

// Capability bits of the handshake response packet.
const (
	capMySQL         = 1 << 0  // CLIENT_MYSQL; unset by MariaDB clients that send extended capabilities
	capCompress      = 1 << 5  // CLIENT_COMPRESS
	capSSL           = 1 << 11 // CLIENT_SSL
	capProtocol41    = 1 << 9  // CLIENT_PROTOCOL_41
	capDeprecateEOF  = 1 << 24 // CLIENT_DEPRECATE_EOF
	capQueryAttrs    = 1 << 27 // CLIENT_QUERY_ATTRIBUTES: COM_STMT_EXECUTE takes another layout
	capCacheMetadata = 1 << 4  // MARIADB_CLIENT_CACHE_METADATA, an extended capability
)

// CapsFromHandshakeResponse reads the negotiated capabilities from the
// client's handshake response packet (header included), the first packet a
// client sends. The error says why this package cannot speak on the
// connection: p is not a handshake response, or the connection is to be
// encrypted or compressed or send query attributes.
func CapsFromHandshakeResponse(p []byte) (Caps, error) {
	// header 4, capabilities 4, max packet 4, collation 1, filler 19,
	// MariaDB extended capabilities 4
	if len(p) < 36 || p[3] != 1 {
		return Caps{}, errors.New("the client's first packet is not a handshake response")
	}
	flags := binary.LittleEndian.Uint32(p[4:])
	switch {
	case flags&capProtocol41 == 0:
		return Caps{}, errors.New("the connection does not use protocol 4.1")
	case flags&capSSL != 0:
		return Caps{}, errors.New("the connection is encrypted (TLS), which the direct path does not speak")
	case flags&capCompress != 0:
		return Caps{}, errors.New("the connection is compressed, which the direct path does not speak")
	case flags&capQueryAttrs != 0:
		return Caps{}, errors.New("the connection sends query attributes, which the direct path does not speak")
	}
	var c Caps
	c.DeprecateEOF = flags&capDeprecateEOF != 0
	if flags&capMySQL == 0 {
		c.CacheMetadata = binary.LittleEndian.Uint32(p[32:])&capCacheMetadata != 0
	}
	return c, nil
}

// Packet headers.
const (
	hdrOK    = 0x00
	hdrEOF   = 0xfe
	hdrError = 0xff
	maxLen   = 1<<24 - 1 // a payload this long continues in the next packet
)

// Conn speaks the binary protocol on rw. It is not safe for concurrent use.
type Conn struct {
	rw   io.ReadWriter
	caps Caps
	seq  byte
	rbuf []byte // received bytes; rbuf[roff:] are not consumed yet
	roff int
	wbuf []byte
	// types and vals are the parameter types and values of the
	// execution being sent (sendExecute), the types kept to be compared
	// with the statement's last.
	types, vals []byte
	// Rows decoded for a RowSink (rows.go): each column's text, its
	// reused buffer, a row longer than one packet put back together.
	text     []sql.RawBytes
	textBuf  [][]byte
	long     []byte
	moreCols []column // the columns of a procedure's second and later results
	// warnings is the warning count the last statement's reply ended with.
	warnings uint16
}

// Warnings is the number of warnings the server reported for the last
// statement Exec ran (SHOW WARNINGS would list them): the count its final
// OK or EOF packet carries. 0 after an error.
func (c *Conn) Warnings() uint16 { return c.warnings }

// NewConn returns a Conn on a connected, authenticated socket.
func NewConn(rw io.ReadWriter, caps Caps) *Conn {
	return &Conn{rw: rw, caps: caps, rbuf: make([]byte, 0, 16<<10), wbuf: make([]byte, 0, 256)}
}

// ProtocolError is a reply this package could not understand. The
// connection is out of step with the server afterwards and must be closed.
type ProtocolError struct{ Msg string }

func (e *ProtocolError) Error() string { return "mysql protocol: " + e.Msg }

func protocolErrorf(format string, a ...any) error {
	return &ProtocolError{Msg: fmt.Sprintf(format, a...)}
}

// command sends one command packet held in c.wbuf[4:], splitting it into
// several packets when it is too long for one.
func (c *Conn) command() error {
	c.seq = 0
	payload := c.wbuf[4:]
	for {
		n := min(len(payload), maxLen)
		// The header goes in the four bytes before this chunk: the
		// reserved ones the first time, bytes already sent afterwards.
		start := len(c.wbuf) - len(payload) - 4
		hdr := c.wbuf[start : start+4]
		hdr[0], hdr[1], hdr[2], hdr[3] = byte(n), byte(n>>8), byte(n>>16), c.seq
		c.seq++
		if _, err := c.rw.Write(c.wbuf[start : start+4+n]); err != nil {
			return err
		}
		payload = payload[n:]
		if n < maxLen {
			return nil
		}
	}
}

// startCommand resets the write buffer to a packet header and the command
// byte; the caller appends the rest of the payload.
func (c *Conn) startCommand(cmd byte) {
	c.wbuf = append(c.wbuf[:0], 0, 0, 0, 0, cmd)
}

// next returns the next packet's payload. It is valid until the next call.
// A payload continued over several packets is returned as its first
// packet's part and cont reports that more follow (only rows can be that
// long; callers skip them).
func (c *Conn) next() (payload []byte, cont bool, err error) {
	if err := c.fill(4); err != nil {
		return nil, false, err
	}
	h := c.rbuf[c.roff:]
	n := int(h[0]) | int(h[1])<<8 | int(h[2])<<16
	if h[3] != c.seq {
		return nil, false, protocolErrorf("packet sequence %d, want %d", h[3], c.seq)
	}
	c.seq++
	if err := c.fill(4 + n); err != nil {
		return nil, false, err
	}
	payload = c.rbuf[c.roff+4 : c.roff+4+n]
	c.roff += 4 + n
	return payload, n == maxLen, nil
}

// fill makes sure n unconsumed bytes are buffered, reading as much as the
// socket has so that a whole reply usually takes one read.
func (c *Conn) fill(n int) error {
	for len(c.rbuf)-c.roff < n {
		if c.roff > 0 {
			// Move the unconsumed tail to the front before reading more.
			k := copy(c.rbuf[:cap(c.rbuf)], c.rbuf[c.roff:])
			c.rbuf, c.roff = c.rbuf[:k], 0
		}
		if cap(c.rbuf) < n {
			nb := make([]byte, len(c.rbuf), max(n, 2*cap(c.rbuf)))
			copy(nb, c.rbuf)
			c.rbuf = nb
		}
		m, err := c.rw.Read(c.rbuf[len(c.rbuf):cap(c.rbuf)])
		c.rbuf = c.rbuf[:len(c.rbuf)+m]
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			if len(c.rbuf)-c.roff >= n {
				return nil
			}
			return err
		}
	}
	return nil
}

// skipContinuation discards the rest of a payload longer than one packet.
func (c *Conn) skipContinuation() error {
	for {
		_, cont, err := c.next()
		if err != nil || !cont {
			return err
		}
	}
}

// joinContinuation returns first, the first part of a payload longer than
// one packet, with the rest appended, in c.long.
func (c *Conn) joinContinuation(first []byte) ([]byte, error) {
	c.long = append(c.long[:0], first...)
	for {
		p, cont, err := c.next()
		if err != nil {
			return nil, err
		}
		c.long = append(c.long, p...)
		if !cont {
			return c.long, nil
		}
	}
}

// readLenEnc reads a length-encoded integer; n is the bytes it took (0
// when b is too short or holds a NULL).
func readLenEnc(b []byte) (v uint64, n int) {
	if len(b) == 0 {
		return 0, 0
	}
	switch b[0] {
	case 0xfb:
		return 0, 0
	case 0xfc:
		if len(b) < 3 {
			return 0, 0
		}
		return uint64(binary.LittleEndian.Uint16(b[1:])), 3
	case 0xfd:
		if len(b) < 4 {
			return 0, 0
		}
		return uint64(b[1]) | uint64(b[2])<<8 | uint64(b[3])<<16, 4
	case 0xfe:
		if len(b) < 9 {
			return 0, 0
		}
		return binary.LittleEndian.Uint64(b[1:]), 9
	}
	return uint64(b[0]), 1
}

// appendLenEnc appends v length-encoded.
func appendLenEnc(b []byte, v uint64) []byte {
	switch {
	case v < 0xfb:
		return append(b, byte(v))
	case v <= 0xffff:
		return append(b, 0xfc, byte(v), byte(v>>8))
	case v <= 0xffffff:
		return append(b, 0xfd, byte(v), byte(v>>8), byte(v>>16))
	}
	return binary.LittleEndian.AppendUint64(append(b, 0xfe), v)
}
