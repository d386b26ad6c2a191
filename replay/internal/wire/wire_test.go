package wire

import (
	"bytes"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// fakeServer answers each command a Conn sends with canned packets.
type fakeServer struct {
	t       *testing.T
	conn    net.Conn
	got     chan []byte // command payloads received
	replies chan [][]byte
}

func newFake(t *testing.T, caps Caps) (*Conn, *fakeServer) {
	t.Helper()
	client, server := net.Pipe()
	f := &fakeServer{t: t, conn: server, got: make(chan []byte, 8), replies: make(chan [][]byte, 8)}
	go f.serve()
	t.Cleanup(func() { client.Close(); server.Close() })
	return NewConn(client, caps), f
}

// serve reads one command (possibly split over packets) and writes the
// next reply, packets numbered from the command's last sequence number.
func (f *fakeServer) serve() {
	for {
		var cmd []byte
		var seq byte
		for {
			var h [4]byte
			if _, err := io.ReadFull(f.conn, h[:]); err != nil {
				return
			}
			n := int(h[0]) | int(h[1])<<8 | int(h[2])<<16
			seq = h[3]
			p := make([]byte, n)
			if _, err := io.ReadFull(f.conn, p); err != nil {
				return
			}
			cmd = append(cmd, p...)
			if n < maxLen {
				break
			}
		}
		f.got <- cmd
		if cmd[0] == comStmtClose {
			continue
		}
		var out []byte
		for _, p := range <-f.replies {
			seq++
			out = append(out, byte(len(p)), byte(len(p)>>8), byte(len(p)>>16), seq)
			out = append(out, p...)
		}
		// Written in pieces, the first tiny: a reply does not always
		// arrive in one read.
		for k := 7; len(out) > 0; k = 64 << 10 {
			k = min(len(out), k)
			if _, err := f.conn.Write(out[:k]); err != nil {
				return
			}
			out = out[k:]
		}
	}
}

func okPkt(affected byte, status uint16) []byte {
	return []byte{0x00, affected, 0, byte(status), byte(status >> 8), 0, 0}
}
func eofPkt(status uint16) []byte { return []byte{0xfe, 0, 0, byte(status), byte(status >> 8)} }
func okEOFPkt(status uint16) []byte {
	return []byte{0xfe, 0, 0, byte(status), byte(status >> 8), 0, 0}
}
func errPkt(code uint16, state, msg string) []byte {
	return append(append([]byte{0xff, byte(code), byte(code >> 8), '#'}, state...), msg...)
}

// colDef is a column definition: a VARCHAR unless typed.
func colDef(name string) []byte { return typedCol(name, typeVarString, 0, 0) }

func typedCol(name string, typ byte, flags uint16, decimals byte) []byte {
	p := []byte{}
	for _, s := range []string{"def", "db", "t", "t", name, name} {
		p = append(append(p, byte(len(s))), s...)
	}
	p = append(p, 0x0c, 33, 0, 0, 1, 0, 0, typ, byte(flags), byte(flags>>8), decimals, 0, 0)
	return p
}
func row(b ...byte) []byte { return append([]byte{0x00, 0x00}, b...) }

func prepareOK(id uint32, cols, params uint16) []byte {
	p := []byte{0x00}
	p = binary.LittleEndian.AppendUint32(p, id)
	p = binary.LittleEndian.AppendUint16(p, cols)
	p = binary.LittleEndian.AppendUint16(p, params)
	return append(p, 0, 0, 0)
}

func TestCapsFromHandshakeResponse(t *testing.T) {
	pkt := func(flags, ext uint32) []byte {
		p := make([]byte, 36)
		p[0], p[3] = 32, 1
		binary.LittleEndian.PutUint32(p[4:], flags)
		binary.LittleEndian.PutUint32(p[32:], ext)
		return p
	}
	for _, tc := range []struct {
		name string
		p    []byte
		want Caps
		why  string // in the error; "" when the direct path can speak
	}{
		{"mariadb", pkt(capProtocol41|capDeprecateEOF, capCacheMetadata), Caps{DeprecateEOF: true, CacheMetadata: true}, ""},
		{"mysql ignores the filler", pkt(capMySQL|capProtocol41|capDeprecateEOF, capCacheMetadata), Caps{DeprecateEOF: true}, ""},
		{"old eof", pkt(capProtocol41, 0), Caps{}, ""},
		{"tls", pkt(capProtocol41|capSSL, 0), Caps{}, "encrypted (TLS)"},
		{"compressed", pkt(capProtocol41|capCompress, 0), Caps{}, "compressed"},
		{"query attributes", pkt(capProtocol41|capQueryAttrs, 0), Caps{}, "query attributes"},
		{"pre-4.1", pkt(0, 0), Caps{}, "protocol 4.1"},
		{"short", pkt(capProtocol41, 0)[:20], Caps{}, "not a handshake response"},
		{"not the first packet", append([]byte{32, 0, 0, 0}, pkt(capProtocol41, 0)[4:]...), Caps{}, "not a handshake response"},
	} {
		got, err := CapsFromHandshakeResponse(tc.p)
		if got != tc.want || (err == nil) != (tc.why == "") || (err != nil && !strings.Contains(err.Error(), tc.why)) {
			t.Errorf("%s: %+v %v; want %+v and an error saying %q", tc.name, got, err, tc.want, tc.why)
		}
	}
}

func TestPrepareAndExecute(t *testing.T) {
	for _, caps := range []Caps{{}, {DeprecateEOF: true}, {CacheMetadata: true}, {DeprecateEOF: true, CacheMetadata: true}} {
		c, f := newFake(t, caps)
		defs := func(names ...string) (out [][]byte) {
			for _, n := range names {
				out = append(out, colDef(n))
			}
			if !caps.DeprecateEOF {
				out = append(out, eofPkt(0))
			}
			return out
		}
		end := eofPkt(0)
		if caps.DeprecateEOF {
			end = okEOFPkt(0)
		}

		f.replies <- append(append([][]byte{prepareOK(7, 2, 1)}, defs("?")...), defs("a", "b")...)
		s, err := c.Prepare("SELECT a, b FROM t WHERE id = ?")
		if err != nil {
			t.Fatalf("%+v: prepare: %v", caps, err)
		}
		if got := <-f.got; string(got) != "\x16SELECT a, b FROM t WHERE id = ?" {
			t.Errorf("%+v: prepare sent %q", caps, got)
		}
		if s.id != 7 || s.params != 1 || s.columns != 2 {
			t.Errorf("%+v: statement %+v", caps, s)
		}

		// Three rows, metadata sent (or, with cached metadata, skipped).
		header := [][]byte{{2}}
		if caps.CacheMetadata {
			header = [][]byte{{2, 0}}
		} else {
			header = append(header, defs("a", "b")...)
		}
		if caps.CacheMetadata && !caps.DeprecateEOF {
			header = append(header, eofPkt(0))
		}
		f.replies <- append(append(header, row(1, 2), row(3, 4), row(5, 6)), end)
		n, err := c.Exec(s, []any{int64(42)}, nil)
		if err != nil || n != 3 {
			t.Fatalf("%+v: exec: %d rows, %v; want 3", caps, n, err)
		}
		want := []byte{0x17, 7, 0, 0, 0, 0, 1, 0, 0, 0, 0x00, 1, typeLongLong, 0, 42, 0, 0, 0, 0, 0, 0, 0}
		if got := <-f.got; !bytes.Equal(got, want) {
			t.Errorf("%+v: execute sent % x; want % x", caps, got, want)
		}

		// No rows; then metadata that changed is read and skipped.
		header = [][]byte{{2}}
		if caps.CacheMetadata {
			header = [][]byte{{2, 1}}
		}
		f.replies <- append(append(header, defs("a", "b")...), end)
		if n, err := c.Exec(s, []any{nil}, nil); err != nil || n != 0 {
			t.Fatalf("%+v: empty result: %d rows, %v", caps, n, err)
		}
		if got := <-f.got; !bytes.Equal(got[10:], []byte{0x01, 1, typeNull, 0}) {
			t.Errorf("%+v: NULL argument sent % x", caps, got[10:])
		}

		// A server error, then the connection still works.
		f.replies <- [][]byte{errPkt(1146, "42S02", "Table 'x.t' doesn't exist")}
		_, err = c.Exec(s, []any{int64(1)}, nil)
		var me *mysql.MySQLError
		if !errors.As(err, &me) || me.Number != 1146 || string(me.SQLState[:]) != "42S02" || me.Message != "Table 'x.t' doesn't exist" {
			t.Errorf("%+v: error %v", caps, err)
		}
		<-f.got
		f.replies <- [][]byte{okPkt(5, 0)}
		if n, err := c.Exec(s, []any{int64(1)}, nil); err != nil || n != 5 {
			t.Errorf("%+v: after an error: %d, %v; want 5 rows affected", caps, n, err)
		}
		<-f.got

		if err := c.Close(s); err != nil {
			t.Fatal(err)
		}
		if got := <-f.got; !bytes.Equal(got, []byte{0x19, 7, 0, 0, 0}) {
			t.Errorf("%+v: close sent % x", caps, got)
		}
	}
}

func TestExecuteArgumentEncoding(t *testing.T) {
	c, f := newFake(t, Caps{DeprecateEOF: true})
	s := &Stmt{id: 1, params: 6}
	f.replies <- [][]byte{okPkt(0, 0)}
	if _, err := c.Exec(s, []any{int64(-1), 1.5, true, "héllo", []byte{0, 1}, nil}, nil); err != nil {
		t.Fatal(err)
	}
	got := <-f.got
	want := []byte{0x17, 1, 0, 0, 0, 0, 1, 0, 0, 0,
		0x20, // NULL bitmap: the 6th
		1, typeLongLong, 0, typeDouble, 0, typeTiny, 0, typeString, 0, typeString, 0, typeNull, 0}
	want = append(want, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)
	want = append(want, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f)
	want = append(want, 1)
	want = append(want, 6, 'h', 0xc3, 0xa9, 'l', 'l', 'o')
	want = append(want, 2, 0, 1)
	if !bytes.Equal(got, want) {
		t.Errorf("sent\n% x\nwant\n% x", got, want)
	}
	f.replies <- [][]byte{okPkt(0, 0)}
	if _, err := c.Exec(&Stmt{id: 1, params: 2}, []any{[]byte(nil), []byte{}}, nil); err != nil {
		t.Fatal(err)
	}
	if got := <-f.got; !bytes.Equal(got[10:], []byte{0x01, 1, typeNull, 0, typeString, 0, 0}) {
		t.Errorf("nil and empty []byte sent as % x; want NULL and an empty string", got[10:])
	}
	if _, err := c.Exec(s, []any{int64(1)}, nil); err == nil || !strings.Contains(err.Error(), "takes 6 arguments") {
		t.Errorf("wrong argument count: %v", err)
	}
	for _, v := range []any{uint8(1), time.Time{}} {
		if Supported(v) {
			t.Errorf("%T is Supported", v)
		}
		if _, err := c.Exec(&Stmt{id: 1, params: 1}, []any{v}, nil); err == nil {
			t.Errorf("an argument of type %T was sent", v)
		}
	}
}

// TestExecuteTypesOnce checks that parameter types are sent with the first
// execution, again only when they change or after an error, and that the
// executions in between send the flag that the server's types stand.
func TestExecuteTypesOnce(t *testing.T) {
	c, f := newFake(t, Caps{DeprecateEOF: true})
	s := &Stmt{id: 1, params: 2}
	const head = 10 // command, statement id, flags, iterations
	for i, step := range []struct {
		args  []any
		reply []byte
		want  []byte // sent after the head
	}{
		{[]any{int64(7), "a"}, okPkt(0, 0), []byte{0, 1, typeLongLong, 0, typeString, 0, 7, 0, 0, 0, 0, 0, 0, 0, 1, 'a'}},
		{[]any{int64(8), "b"}, okPkt(0, 0), []byte{0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 1, 'b'}},
		{[]any{nil, "c"}, okPkt(0, 0), []byte{1, 1, typeNull, 0, typeString, 0, 1, 'c'}},
		{[]any{int64(9), "d"}, errPkt(1062, "23000", "dup"), []byte{0, 1, typeLongLong, 0, typeString, 0, 9, 0, 0, 0, 0, 0, 0, 0, 1, 'd'}},
		{[]any{int64(9), "d"}, okPkt(0, 0), []byte{0, 1, typeLongLong, 0, typeString, 0, 9, 0, 0, 0, 0, 0, 0, 0, 1, 'd'}},
		{[]any{int64(9), "e"}, okPkt(0, 0), []byte{0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 1, 'e'}},
	} {
		f.replies <- [][]byte{step.reply}
		_, err := c.Exec(s, step.args, nil)
		if (err != nil) != (step.reply[0] == hdrError) {
			t.Fatalf("execution %d: %v", i+1, err)
		}
		if got := <-f.got; !bytes.Equal(got[head:], step.want) {
			t.Errorf("execution %d sent % x after the head; want % x", i+1, got[head:], step.want)
		}
	}
}

// TestMoreResults checks that results announced by the status flag are
// read too (a procedure call), their rows added up.
func TestMoreResults(t *testing.T) {
	c, f := newFake(t, Caps{DeprecateEOF: true})
	f.replies <- [][]byte{{1}, colDef("a"), row(1), okEOFPkt(serverMoreResults),
		{1}, colDef("b"), row(2), row(3), okEOFPkt(serverMoreResults),
		okPkt(0, 0)}
	if n, err := c.Exec(&Stmt{id: 1}, nil, nil); err != nil || n != 3 {
		t.Errorf("%d rows, %v; want 3", n, err)
	}
}

// TestLongPackets checks that a command longer than one packet is split and
// a row longer than one packet is counted once.
func TestLongPackets(t *testing.T) {
	c, f := newFake(t, Caps{DeprecateEOF: true})
	long := strings.Repeat("x", maxLen+10)
	f.replies <- [][]byte{{1}, colDef("a"), bytes.Repeat([]byte{0}, maxLen), {1, 2, 3}, row(1), okEOFPkt(0)}
	n, err := c.Exec(&Stmt{id: 1, params: 1}, []any{long}, nil)
	if err != nil || n != 2 {
		t.Errorf("%d rows, %v; want 2", n, err)
	}
	got := <-f.got
	if len(got) != 10+1+1+2+9+len(long) || !strings.HasSuffix(string(got), long) {
		t.Errorf("long command arrived as %d bytes", len(got))
	}
}

// TestBrokenConnection checks that a reply cut short and a reply out of
// sequence are errors, not hangs or panics.
func TestBrokenConnection(t *testing.T) {
	client, server := net.Pipe()
	defer client.Close()
	go func() {
		var b [64]byte
		server.Read(b[:])
		server.Write([]byte{5, 0, 0, 1, 0x00}) // 5 bytes announced, 1 sent
		server.Close()
	}()
	c := NewConn(client, Caps{})
	if _, err := c.Exec(&Stmt{id: 1}, nil, nil); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("cut short: %v; want unexpected EOF", err)
	}

	c3, f3 := newFake(t, Caps{DeprecateEOF: true})
	f3.replies <- [][]byte{{1}, colDef("a"), {}}
	if _, err := c3.Exec(&Stmt{id: 1}, nil, nil); !errors.As(err, new(*ProtocolError)) {
		t.Errorf("empty packet among rows: %v; want a protocol error", err)
	}

	c2, f := newFake(t, Caps{})
	f.replies <- [][]byte{}
	go func() { <-f.got; f.conn.Write([]byte{1, 0, 0, 9, 0x00}) }()
	_, err := c2.Exec(&Stmt{id: 1}, nil, nil)
	var pe *ProtocolError
	if !errors.As(err, &pe) {
		t.Errorf("out of sequence: %v; want a protocol error", err)
	}
}

// rowsSink keeps the rows it is given, as strings ("NULL" for nil).
type rowsSink struct{ rows [][]string }

func (s *rowsSink) AddRow(cols []sql.RawBytes) {
	var r []string
	for _, c := range cols {
		if c == nil {
			r = append(r, "NULL")
		} else {
			r = append(r, string(c))
		}
	}
	s.rows = append(s.rows, r)
}

// TestDecodeRow checks the text of binary values against what the Go MySQL
// driver gives for them (parseTime off) scanned into sql.RawBytes; the
// integration tests compare the two on a real server.
func TestDecodeRow(t *testing.T) {
	cols := []column{
		{typ: typeTiny, flags: colUnsigned}, {typ: typeShort}, {typ: typeYear, flags: colUnsigned},
		{typ: typeInt24}, {typ: typeLong, flags: colUnsigned}, {typ: typeLongLong}, {typ: typeLongLong, flags: colUnsigned},
		{typ: typeFloat}, {typ: typeDouble}, {typ: typeVarString}, {typ: typeNewDecimal},
		{typ: typeDate}, {typ: typeDateTime, decimals: 6}, {typ: typeDateTime}, {typ: typeTime, decimals: 2},
		{typ: typeTime}, {typ: typeTimestamp, decimals: 3}, {typ: typeLong},
	}
	p := []byte{0x00, 0, 0, 0} // header, NULL bitmap (3 bytes): the last column is NULL
	p[1+(17+2)/8] |= 1 << ((17 + 2) % 8)
	p = append(p, 255)                                                // tiny unsigned
	p = binary.LittleEndian.AppendUint16(p, 0xfffe)                   // short -2
	p = binary.LittleEndian.AppendUint16(p, 2024)                     // year
	p = binary.LittleEndian.AppendUint32(p, 0xff800000)               // int24 -8388608
	p = binary.LittleEndian.AppendUint32(p, 0xffffffff)               // long unsigned
	p = binary.LittleEndian.AppendUint64(p, ^uint64(0))               // longlong -1
	p = binary.LittleEndian.AppendUint64(p, ^uint64(0))               // longlong unsigned max
	p = binary.LittleEndian.AppendUint32(p, 0x3dcccccd)               // float 0.1
	p = binary.LittleEndian.AppendUint64(p, 0xbff8<<48)               // double -1.5
	p = append(p, 2, 'a', 'b')                                        // varchar
	p = append(p, 6, '-', '1', '2', '.', '3', '4')                    // decimal
	p = append(p, 0)                                                  // date: zero
	p = append(p, 4, 0xe8, 0x07, 2, 29)                               // datetime(6), date only
	p = append(p, 7, 0xe8, 0x07, 1, 2, 3, 4, 5)                       // datetime
	p = append(p, 12, 1, 1, 0, 0, 0, 2, 3, 4, 0x80, 0x8b, 0x08, 0)    // time(2): -(1 day 2h):03:04.56
	p = append(p, 8, 0, 0, 0, 0, 0, 100%24, 0, 1)                     // time: 04:00:01
	p = append(p, 11, 0xe8, 0x07, 1, 2, 3, 4, 5, 0x40, 0xe2, 0x01, 0) // timestamp(3), 123456 us
	// the last column is NULL: no bytes
	want := []string{"255", "-2", "2024", "-8388608", "4294967295", "-1", "18446744073709551615",
		"0.1", "-1.5", "ab", "-12.34", "0000-00-00", "2024-02-29 00:00:00.000000", "2024-01-02 03:04:05",
		"-26:03:04.56", "04:00:01", "2024-01-02 03:04:05.123", "NULL"}
	c := NewConn(nil, Caps{})
	row, err := c.decodeRow(p, cols)
	if err != nil {
		t.Fatal(err)
	}
	var s rowsSink
	s.AddRow(row)
	for i := range want {
		if s.rows[0][i] != want[i] {
			t.Errorf("column %d (type %#x): %q, want %q", i, cols[i].typ, s.rows[0][i], want[i])
		}
	}
	if _, err := c.decodeRow(p[:len(p)-3], cols); err == nil {
		t.Error("a row cut short decoded")
	}
}

// TestExecuteWithSink checks that rows reach a sink, a row longer than one
// packet put back together, and that metadata the server sends again
// replaces what the statement had.
func TestExecuteWithSink(t *testing.T) {
	c, f := newFake(t, Caps{DeprecateEOF: true, CacheMetadata: true})
	f.replies <- [][]byte{prepareOK(3, 1, 0), typedCol("n", typeLong, 0, 0)}
	s, err := c.Prepare("SELECT n FROM t")
	if err != nil {
		t.Fatal(err)
	}
	<-f.got
	intRow := func(v uint32) []byte { return binary.LittleEndian.AppendUint32([]byte{0, 0}, v) }
	f.replies <- [][]byte{{1, 0}, intRow(7), intRow(8), okEOFPkt(0)}
	var sink rowsSink
	if n, err := c.Exec(s, nil, &sink); err != nil || n != 2 {
		t.Fatalf("%d rows, %v", n, err)
	}
	<-f.got
	// The column became a long string: the server sends the metadata.
	long := strings.Repeat("z", maxLen)
	row := append([]byte{0, 0, 0xfd}, byte(len(long)), byte(len(long)>>8), byte(len(long)>>16))
	row = append(row, long...)
	f.replies <- [][]byte{{1, 1}, typedCol("n", typeMediumBlob, 0, 0), row[:maxLen], row[maxLen:], okEOFPkt(0)}
	if n, err := c.Exec(s, nil, &sink); err != nil || n != 1 {
		t.Fatalf("long row: %d rows, %v", n, err)
	}
	if len(sink.rows) != 3 || sink.rows[0][0] != "7" || sink.rows[1][0] != "8" || sink.rows[2][0] != long {
		t.Errorf("rows %d: %.20q", len(sink.rows), sink.rows)
	}
}

// FuzzDecodeRow: whatever bytes a server sends, decoding a row or a column
// definition returns an error or a row, never a panic.
func FuzzDecodeRow(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1, 'a'}, []byte{typeVarString, typeTiny})
	f.Add([]byte{0, 0, 4, 0xe8, 7, 2, 29}, []byte{typeDateTime})
	f.Add([]byte{0, 0, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, []byte{typeBlob})
	f.Add(typedCol("n", typeLong, colUnsigned, 0), []byte{typeTime, typeDecimal})
	f.Fuzz(func(t *testing.T, p, types []byte) {
		cols := make([]column, 0, len(types))
		for i, ty := range types {
			cols = append(cols, column{typ: ty, flags: uint16(i) << 5, decimals: byte(i * 3 % 40)})
		}
		c := NewConn(nil, Caps{})
		_, _ = c.decodeRow(p, cols)
		_, _ = parseColumn(p)
		_, _, _, _ = okPacket(append([]byte{0}, p...))
	})
}

// replayRW reads a canned reply and discards what is written.
type replayRW struct{ r *bytes.Reader }

func (rw replayRW) Read(b []byte) (int, error)  { return rw.r.Read(b) }
func (rw replayRW) Write(b []byte) (int, error) { return len(b), nil }

// FuzzReply: whatever reply a server sends to COM_STMT_EXECUTE, Exec
// returns (rows or an error), never panics or hangs.
func FuzzReply(f *testing.F) {
	pkts := func(ps ...[]byte) []byte {
		var out []byte
		for i, p := range ps {
			out = append(out, byte(len(p)), byte(len(p)>>8), byte(len(p)>>16), byte(i+1))
			out = append(out, p...)
		}
		return out
	}
	f.Add(pkts(okPkt(3, 0)), true, false)
	f.Add(pkts([]byte{1}, colDef("a"), row(1), okEOFPkt(0)), true, false)
	f.Add(pkts([]byte{1, 1}, typedCol("a", typeLong, 0, 0), []byte{0, 0, 1, 0, 0, 0}, okEOFPkt(0)), true, true)
	f.Add(pkts([]byte{1}, colDef("a"), eofPkt(0), row(1), eofPkt(serverMoreResults), okPkt(0, 0)), false, false)
	f.Add(pkts(errPkt(1146, "42S02", "no table")), true, false)
	f.Fuzz(func(t *testing.T, reply []byte, deprecateEOF, cache bool) {
		c := NewConn(replayRW{bytes.NewReader(reply)}, Caps{DeprecateEOF: deprecateEOF, CacheMetadata: cache})
		s := &Stmt{id: 1, cols: []column{{typ: typeLong}}}
		_, _ = c.Exec(s, nil, &rowsSink{})
		c = NewConn(replayRW{bytes.NewReader(reply)}, Caps{DeprecateEOF: deprecateEOF, CacheMetadata: cache})
		_, _ = c.Prepare("SELECT 1")
	})
}

// TestCachedMetadataAfterAProcedureCall: a procedure's later results are
// described every time and must not replace the columns the server caches
// for the statement's own result.
func TestCachedMetadataAfterAProcedureCall(t *testing.T) {
	c, f := newFake(t, Caps{DeprecateEOF: true, CacheMetadata: true})
	s := &Stmt{id: 1}
	intRow := func(v uint32) []byte { return binary.LittleEndian.AppendUint32([]byte{0, 0}, v) }
	strRow := func(v string) []byte { return append([]byte{0, 0, byte(len(v))}, v...) }
	f.replies <- [][]byte{
		{1, 1}, typedCol("n", typeLong, 0, 0), intRow(5), okEOFPkt(serverMoreResults),
		{1, 1}, typedCol("s", typeVarString, 0, 0), strRow("abc"), okEOFPkt(serverMoreResults),
		okPkt(0, 0)}
	var sink rowsSink
	if _, err := c.Exec(s, nil, &sink); err != nil {
		t.Fatal(err)
	}
	<-f.got
	f.replies <- [][]byte{
		{1, 0}, intRow(6), okEOFPkt(serverMoreResults), // the first result's metadata: cached
		{1, 1}, typedCol("s", typeVarString, 0, 0), strRow("de"), okEOFPkt(serverMoreResults),
		okPkt(0, 0)}
	if _, err := c.Exec(s, nil, &sink); err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"5"}, {"abc"}, {"6"}, {"de"}}
	if fmt.Sprint(sink.rows) != fmt.Sprint(want) {
		t.Errorf("rows %q, want %q", sink.rows, want)
	}
}

// The warning count comes from the packet that ends the reply: an OK
// packet, an EOF packet (warnings before the status) or the OK packet
// that ends a result set; an error leaves none.
func TestWarnings(t *testing.T) {
	withWarnings := func(p []byte, at int, n uint16) []byte {
		p = bytes.Clone(p)
		binary.LittleEndian.PutUint16(p[at:], n)
		return p
	}
	for _, caps := range []Caps{{}, {DeprecateEOF: true}} {
		c, f := newFake(t, caps)
		s := &Stmt{id: 1, columns: 1}
		end := withWarnings(eofPkt(0), 1, 2)
		if caps.DeprecateEOF {
			end = withWarnings(okEOFPkt(0), 5, 2)
		}
		header := [][]byte{{1}, colDef("a")}
		if !caps.DeprecateEOF {
			header = append(header, eofPkt(0))
		}
		f.replies <- append(append(header, row(1)), end)
		if n, err := c.Exec(s, nil, nil); err != nil || n != 1 || c.Warnings() != 2 {
			t.Errorf("%+v: result set: %d rows, %d warnings, %v; want 1 row, 2 warnings", caps, n, c.Warnings(), err)
		}
		<-f.got
		f.replies <- [][]byte{withWarnings(okPkt(3, 0), 5, 7)}
		if n, err := c.Exec(s, nil, nil); err != nil || n != 3 || c.Warnings() != 7 {
			t.Errorf("%+v: OK packet: %d rows, %d warnings, %v; want 3 rows, 7 warnings", caps, n, c.Warnings(), err)
		}
		<-f.got
		f.replies <- [][]byte{errPkt(1146, "42S02", "no table")}
		if _, err := c.Exec(s, nil, nil); err == nil || c.Warnings() != 0 {
			t.Errorf("%+v: an error: %d warnings, %v; want 0 and the error", caps, c.Warnings(), err)
		}
		<-f.got
	}
}
