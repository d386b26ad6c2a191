package replay

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/replay/internal/wire"
)

// Blocking socket I/O for the workers' connections.
//
// Go's network I/O parks a goroutine whose read would block and wakes it
// through the runtime's poller: per statement that is a failed read, an
// epoll wait and thread hand-offs. A benchmark client's threads do nothing
// but wait for the server, so a plain blocking read, as C clients such as
// sysbench do, costs less client CPU per statement (bench/README.md, "Go
// runtime measurements"). The price is one OS thread per connection and no
// deadlines, which the engine does not use: statements are stopped with
// KILL QUERY, and a connection whose server answers nothing is cut by
// shutting its socket down (see stop.go).
//
// The socket is dialed by the connector's own dial function (the driver's
// Config.DialFunc, nothing registered globally) and is also the one the
// worker's prepared statements go through directly (package wire): the dial
// hands it to the worker through a slot in the context (withDialSlot), and
// the driver's handshake response, its first write, tells which protocol
// capabilities were agreed.

// UseBlockingIO makes cfg's connections dial blocking sockets and returns
// "", or returns why it cannot: only tcp and unix networks without read or
// write timeouts (those need deadlines) are switched.
func UseBlockingIO(cfg *mysql.Config) (why string) {
	if cfg.ReadTimeout != 0 || cfg.WriteTimeout != 0 {
		return "the DSN sets a read or write timeout, which blocking sockets cannot keep"
	}
	switch cfg.Net {
	case "tcp", "", "unix":
	default:
		return fmt.Sprintf("network %q: only tcp and unix sockets are made blocking", cfg.Net)
	}
	cfg.DialFunc = dialBlocking
	return ""
}

// ProcsForBlockingIO raises GOMAXPROCS by one per worker thread, unless
// the GOMAXPROCS environment variable sets it, and returns the value in
// force.
//
// A goroutine blocked in a read system call keeps its P, and when no P is
// idle the runtime's monitor takes it back from any call as long as a point
// select's round trip, at a cost per statement larger than the statement's
// own (bench/README.md, "Go runtime measurements"); with a spare P per
// worker an idle one always exists. Blocked workers use no CPU, so the
// extra Ps do not let Go code use more cores than the NumCPU it already
// could.
func ProcsForBlockingIO(threads int) int {
	if procsFixed(threads) {
		return runtime.GOMAXPROCS(0)
	}
	n := runtime.GOMAXPROCS(0) + threads
	runtime.GOMAXPROCS(n)
	return n
}

// procsFixed reports whether GOMAXPROCS stays as it is: the user set it,
// or there is no worker to give a spare P.
func procsFixed(threads int) bool { return os.Getenv("GOMAXPROCS") != "" || threads < 1 }

// procsHeld counts the worker threads of the runs of this process that
// hold a spare P each (holdProcs), and procsBase is GOMAXPROCS without
// them: two runs at once (joinbench ab in lockstep) raise and lower it
// together, not each from what the other left.
var (
	procsMu   sync.Mutex
	procsHeld int
	procsBase int
)

// holdProcs raises GOMAXPROCS by threads, as ProcsForBlockingIO does, for
// one run; release gives them back, GOMAXPROCS returning to its value
// before the first run once the last has released its own.
func holdProcs(threads int) (release func()) {
	if procsFixed(threads) {
		return func() {}
	}
	procsMu.Lock()
	defer procsMu.Unlock()
	if procsHeld == 0 {
		procsBase = runtime.GOMAXPROCS(0)
	}
	procsHeld += threads
	runtime.GOMAXPROCS(procsBase + procsHeld)
	return func() {
		procsMu.Lock()
		defer procsMu.Unlock()
		procsHeld -= threads
		runtime.GOMAXPROCS(procsBase + procsHeld)
	}
}

// dialSlot receives the socket a worker's connection is dialed on, so that
// the worker can cut it when the server stops answering (stop.go) and, when
// it is blocking, execute statements on it directly (package wire); why
// says why the socket could not be made blocking.
type dialSlot struct {
	sock net.Conn      // the socket as dialed, whatever its kind
	conn *blockingConn // sock, when it is a blocking one
	why  string
}

type dialSlotKey struct{}

// withDialSlot returns a context whose dial stores the new socket in slot.
func withDialSlot(ctx context.Context, slot *dialSlot) context.Context {
	return context.WithValue(ctx, dialSlotKey{}, slot)
}

// dialBlocking is the connector's dial function (mysql.Config.DialFunc).
func dialBlocking(ctx context.Context, network, addr string) (net.Conn, error) {
	c, why, err := dialBlockingConn(ctx, network, addr)
	if slot, _ := ctx.Value(dialSlotKey{}).(*dialSlot); slot != nil && err == nil {
		slot.sock = c
		slot.conn, _ = c.(*blockingConn)
		slot.why = why
	}
	return c, err
}

// dialPoller is the connector's dial function for sockets left on Go's
// poller: it dials as the driver would and hands the socket to the worker
// that asked, so that it can be cut (stop.go).
func dialPoller(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, network, addr)
	if slot, _ := ctx.Value(dialSlotKey{}).(*dialSlot); slot != nil && err == nil {
		slot.sock = c
	}
	return c, err
}

// captureSockets makes cfg's connections hand their socket to the worker
// that dials them, when cfg dials tcp or unix sockets itself (a network
// registered with the driver keeps its own dial function).
func captureSockets(cfg *mysql.Config) {
	if cfg.DialFunc != nil {
		return
	}
	switch cfg.Net {
	case "tcp", "", "unix":
		cfg.DialFunc = dialPoller
	}
}

// dialBlockingConn dials a socket and switches it to blocking mode; when
// that fails, it returns the socket as dialed (on Go's poller) and why.
func dialBlockingConn(ctx context.Context, network, addr string) (net.Conn, string, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, "", err
	}
	sc, ok := c.(syscall.Conn)
	if !ok {
		return c, fmt.Sprintf("a %T socket cannot be made blocking", c), nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return c, fmt.Sprintf("the socket cannot be made blocking: %v", err), nil
	}
	nfd := -1
	var derr error
	cerr := rc.Control(func(fd uintptr) {
		nfd, derr = syscall.Dup(int(fd))
		if derr == nil {
			syscall.CloseOnExec(nfd)
			derr = syscall.SetNonblock(nfd, false)
		}
	})
	if cerr != nil || derr != nil {
		if nfd >= 0 {
			syscall.Close(nfd)
		}
		return c, fmt.Sprintf("the socket cannot be made blocking: %v", errors.Join(cerr, derr)), nil // keep the runtime's poller
	}
	local, remote := c.LocalAddr(), c.RemoteAddr()
	// The duplicate keeps the socket open once the original is closed; the
	// two share the (now blocking) file status.
	c.Close()
	return &blockingConn{f: os.NewFile(uintptr(nfd), network+":"+addr), fd: nfd, network: network, local: local, remote: remote}, "", nil
}

// blockingConn is a net.Conn over a socket in blocking mode.
type blockingConn struct {
	f             *os.File
	fd            int
	network       string
	once          sync.Once
	local, remote net.Addr
	// caps are the capabilities the driver negotiated, read from its
	// handshake response (its first write); capsErr says why package wire
	// cannot speak on the connection.
	caps    wire.Caps
	capsErr error
	written bool
}

func (c *blockingConn) Read(b []byte) (int, error) {
	n, err := c.f.Read(b)
	return n, c.wrap("read", err)
}

func (c *blockingConn) Write(b []byte) (int, error) {
	if !c.written {
		c.written = true
		c.caps, c.capsErr = wire.CapsFromHandshakeResponse(b)
	}
	n, err := c.f.Write(b)
	return n, c.wrap("write", err)
}

// cut shuts the socket down without closing it: a read or write blocked
// in another thread returns at once, and the descriptor stays the
// connection's until it is closed, so that a cut that comes late cannot hit
// a descriptor number the system has given to another file.
func (c *blockingConn) cut() {
	if rc, err := c.f.SyscallConn(); err == nil {
		_ = rc.Control(func(fd uintptr) { _ = syscall.Shutdown(int(fd), syscall.SHUT_RDWR) })
	}
}

// Close shuts the socket down first so that a read blocked in another
// goroutine returns.
func (c *blockingConn) Close() error {
	var err error
	c.once.Do(func() {
		_ = syscall.Shutdown(c.fd, syscall.SHUT_RDWR)
		err = c.f.Close()
	})
	return err
}

func (c *blockingConn) LocalAddr() net.Addr                { return c.local }
func (c *blockingConn) RemoteAddr() net.Addr               { return c.remote }
func (c *blockingConn) SetDeadline(t time.Time) error      { return noDeadline(t) }
func (c *blockingConn) SetReadDeadline(t time.Time) error  { return noDeadline(t) }
func (c *blockingConn) SetWriteDeadline(t time.Time) error { return noDeadline(t) }

// noDeadline accepts the zero time (no deadline) only.
func noDeadline(t time.Time) error {
	if t.IsZero() {
		return nil
	}
	return errors.New("blocking socket: deadlines are not supported")
}

// wrap reports file errors as network errors, so that the driver and the
// error policy see a lost connection.
func (c *blockingConn) wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &net.OpError{Op: op, Net: c.network, Source: c.local, Addr: c.remote, Err: err}
}
