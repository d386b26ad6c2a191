package replay

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

func TestBlockingConn(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		s, err := ln.Accept()
		if err != nil {
			return
		}
		defer s.Close()
		buf := make([]byte, 5)
		if _, err := io.ReadFull(s, buf); err == nil {
			s.Write(buf) // echo once, then wait for the client to close
		}
		io.Copy(io.Discard, s)
	}()
	c, err := dialBlocking(context.Background(), "tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.(*blockingConn); !ok {
		t.Fatalf("dialBlocking returned a %T", c)
	}
	if _, err := c.Write([]byte("hello")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 5)
	if _, err := io.ReadFull(c, buf); err != nil || string(buf) != "hello" {
		t.Fatalf("read %q, %v", buf, err)
	}
	if c.SetReadDeadline(time.Time{}) != nil || c.SetDeadline(time.Now()) == nil {
		t.Error("deadlines: only the zero time is accepted")
	}
	// Close from another goroutine ends a read blocked in the kernel.
	done := make(chan error)
	go func() {
		_, err := c.Read(buf)
		done <- err
	}()
	waitInSyscall(t, "(*blockingConn).Read")
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		var ne net.Error
		if err == nil || (!errors.As(err, &ne) && err != io.EOF) {
			t.Errorf("blocked read ended with %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not end the blocked read")
	}
}

// waitInSyscall waits until a goroutine whose stack holds fn is in a
// system call (blocked in the kernel, as a read with nothing to read is).
func waitInSyscall(t *testing.T, fn string) {
	t.Helper()
	buf := make([]byte, 1<<20)
	deadline := time.Now().Add(time.Minute)
	for {
		n := runtime.Stack(buf, true)
		for _, g := range strings.Split(string(buf[:n]), "\n\n") {
			if strings.Contains(g, "[syscall") && strings.Contains(g, fn) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no goroutine in a system call under %s within a minute", fn)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestUseBlockingIO(t *testing.T) {
	for _, network := range []string{"tcp", "unix"} {
		cfg := mysql.NewConfig()
		cfg.Net = network
		if why := UseBlockingIO(cfg); why != "" || cfg.DialFunc == nil || cfg.Net != network {
			t.Errorf("%s: %q, dial function set: %v, net %q", network, why, cfg.DialFunc != nil, cfg.Net)
		}
	}
	// The dial function belongs to the connector: nothing is registered
	// with the driver for every connection of the process.
	cfg := mysql.NewConfig()
	if _, err := mysql.NewConnector(cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.DialFunc != nil {
		t.Error("a configuration that was not switched dials blocking sockets")
	}
	cfg.ReadTimeout = time.Second
	if why := UseBlockingIO(cfg); !strings.Contains(why, "timeout") || cfg.DialFunc != nil {
		t.Errorf("with a read timeout: %q, dial function set: %v", why, cfg.DialFunc != nil)
	}
	cfg = mysql.NewConfig()
	cfg.Net = "tcp6"
	if why := UseBlockingIO(cfg); !strings.Contains(why, `"tcp6"`) || cfg.DialFunc != nil {
		t.Errorf("tcp6: %q, dial function set: %v", why, cfg.DialFunc != nil)
	}
}

// TestDialSlot: the dial hands the worker its blocking socket through the
// context, and only to the dial that asked.
func TestDialSlot(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			s, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { io.Copy(io.Discard, s); s.Close() }()
		}
	}()
	var slot dialSlot
	c, err := dialBlocking(withDialSlot(context.Background(), &slot), "tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if slot.conn == nil || slot.conn != c || slot.why != "" {
		t.Errorf("slot %+v for %T", slot, c)
	}
	// The handshake response tells whether the direct path can speak.
	if _, err := c.Write([]byte("not a handshake response, long enough to look like one")); err != nil {
		t.Fatal(err)
	}
	if slot.conn.capsErr == nil {
		t.Error("a first packet that is not a handshake response was taken for one")
	}
	c2, err := dialBlocking(context.Background(), "tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	c2.Close()
}

func TestProcsForBlockingIO(t *testing.T) {
	old := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(old)
	t.Setenv("GOMAXPROCS", "")
	if got := ProcsForBlockingIO(3); got != old+3 || runtime.GOMAXPROCS(0) != old+3 {
		t.Errorf("3 threads: GOMAXPROCS %d (returned %d), want %d", runtime.GOMAXPROCS(0), got, old+3)
	}
	runtime.GOMAXPROCS(old)
	t.Setenv("GOMAXPROCS", strconv.Itoa(old))
	if got := ProcsForBlockingIO(3); got != old || runtime.GOMAXPROCS(0) != old {
		t.Errorf("GOMAXPROCS set by the user: now %d (returned %d), want it left at %d", runtime.GOMAXPROCS(0), got, old)
	}
}

// TestHoldProcsTogether: two runs at once hold their spare Ps together,
// in whatever order they end, and GOMAXPROCS comes back to where it was.
func TestHoldProcsTogether(t *testing.T) {
	if os.Getenv("GOMAXPROCS") != "" {
		t.Skip("GOMAXPROCS is set in the environment: it is left as it is")
	}
	old := runtime.GOMAXPROCS(0)
	a := holdProcs(2)
	b := holdProcs(3)
	if got := runtime.GOMAXPROCS(0); got != old+5 {
		t.Errorf("two runs of 2 and 3 threads: GOMAXPROCS %d, want %d", got, old+5)
	}
	a() // the first ends first
	if got := runtime.GOMAXPROCS(0); got != old+3 {
		t.Errorf("the run of 3 threads alone: GOMAXPROCS %d, want %d", got, old+3)
	}
	b()
	if got := runtime.GOMAXPROCS(0); got != old {
		t.Errorf("after both: GOMAXPROCS %d, want %d", got, old)
	}
}
