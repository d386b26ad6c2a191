package replay

import (
	"context"
	"errors"
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
// but wait for the server, so a plain blocking read (what C clients such as
// sysbench do) costs less: in interleaved runs of a point select by primary
// key, 2 to 10% less client CPU per statement (the machine was noisy). The
// price is one OS thread per connection and no deadlines, which the engine
// does not use (statements are stopped with KILL QUERY).
//
// The socket is also the one the worker's prepared statements go through
// directly (package wire): the dial hands it to the worker through a slot
// in the context (withDialSlot), and the driver's handshake response, its
// first write, tells which protocol capabilities were agreed.

var registerBlocking sync.Once

// Driver network names of blocking TCP and Unix sockets.
const (
	blockingTCP  = "joinbench-blocking-tcp"
	blockingUnix = "joinbench-blocking-unix"
)

// UseBlockingIO switches a driver configuration to blocking socket I/O and
// reports whether it did: only tcp and unix networks without read or write
// timeouts (those need deadlines) are switched.
func UseBlockingIO(cfg *mysql.Config) bool {
	if cfg.ReadTimeout != 0 || cfg.WriteTimeout != 0 {
		return false
	}
	registerBlocking.Do(func() {
		mysql.RegisterDialContext(blockingTCP, func(ctx context.Context, addr string) (net.Conn, error) {
			return dialBlocking(ctx, "tcp", addr)
		})
		mysql.RegisterDialContext(blockingUnix, func(ctx context.Context, addr string) (net.Conn, error) {
			return dialBlocking(ctx, "unix", addr)
		})
	})
	switch cfg.Net {
	case "tcp", "":
		cfg.Net = blockingTCP
	case "unix":
		cfg.Net = blockingUnix
	default:
		return false
	}
	return true
}

// ProcsForBlockingIO raises GOMAXPROCS by one per worker thread, unless
// the GOMAXPROCS environment variable sets it, and returns the value in
// force.
//
// A goroutine blocked in a read system call keeps its P. When no P is idle,
// the runtime's monitor thread takes the P back from any call that lasts
// more than 20 us (a point select's round trip does) and starts a thread to
// look for other work: per statement that is a monitor wake-up, a thread
// spinning and parking and a slow return from the call, which cost more
// client CPU than the statement itself. With one spare P per worker an
// idle P always exists, the monitor leaves calls under 10 ms alone and
// backs off to sleeping 10 ms at a time. Blocked workers use no CPU, so
// the extra Ps do not let Go code use more cores than the NumCPU it already
// could.
func ProcsForBlockingIO(threads int) int {
	if os.Getenv("GOMAXPROCS") != "" || threads < 1 {
		return runtime.GOMAXPROCS(0)
	}
	n := runtime.GOMAXPROCS(0) + threads
	runtime.GOMAXPROCS(n)
	return n
}

// dialSlot receives the socket a worker's connection is dialed on, so that
// the worker can execute statements on it directly (package wire).
type dialSlot struct{ conn *blockingConn }

type dialSlotKey struct{}

// withDialSlot returns a context whose dial stores the new socket in slot.
func withDialSlot(ctx context.Context, slot *dialSlot) context.Context {
	return context.WithValue(ctx, dialSlotKey{}, slot)
}

func dialBlocking(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := dialBlockingConn(ctx, network, addr)
	if bc, ok := c.(*blockingConn); ok {
		if slot, _ := ctx.Value(dialSlotKey{}).(*dialSlot); slot != nil {
			slot.conn = bc
		}
	}
	return c, err
}

func dialBlockingConn(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	sc, ok := c.(syscall.Conn)
	if !ok {
		return c, nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return c, nil
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
		return c, nil // keep the runtime's poller
	}
	local, remote := c.LocalAddr(), c.RemoteAddr()
	// The duplicate keeps the socket open once the original is closed; the
	// two share the (now blocking) file status.
	c.Close()
	return &blockingConn{f: os.NewFile(uintptr(nfd), network+":"+addr), fd: nfd, network: network, local: local, remote: remote}, nil
}

// blockingConn is a net.Conn over a socket in blocking mode.
type blockingConn struct {
	f             *os.File
	fd            int
	network       string
	once          sync.Once
	local, remote net.Addr
	// caps are the capabilities the driver negotiated, read from its
	// handshake response (its first write); capsOK when that parsed.
	caps    wire.Caps
	capsOK  bool
	written bool
}

func (c *blockingConn) Read(b []byte) (int, error) {
	n, err := c.f.Read(b)
	return n, c.wrap("read", err)
}

func (c *blockingConn) Write(b []byte) (int, error) {
	if !c.written {
		c.written = true
		c.caps, c.capsOK = wire.CapsFromHandshakeResponse(b)
	}
	n, err := c.f.Write(b)
	return n, c.wrap("write", err)
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
