package replay

import (
	"context"
	"errors"
	"io"
	"net"
	"runtime"
	"strconv"
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
	time.Sleep(50 * time.Millisecond)
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

func TestUseBlockingIO(t *testing.T) {
	cfg := mysql.NewConfig()
	cfg.Net = "tcp"
	if !UseBlockingIO(cfg) || cfg.Net != blockingTCP {
		t.Errorf("tcp: net %q", cfg.Net)
	}
	cfg = mysql.NewConfig()
	cfg.Net, cfg.ReadTimeout = "tcp", time.Second
	if UseBlockingIO(cfg) || cfg.Net != "tcp" {
		t.Errorf("with a read timeout: net %q", cfg.Net)
	}
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
