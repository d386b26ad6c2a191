package slowproxy

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeServer answers each line "SLEEP_MS SIZE" with SIZE bytes after
// sleeping SLEEP_MS, the answer cut in two writes 1 ms apart; it greets
// each connection with "hi\n" first.
func fakeServer(t *testing.T, network, addr string) net.Listener {
	t.Helper()
	ln, err := net.Listen(network, addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.Write([]byte("hi\n"))
				r := bufio.NewReader(c)
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					var ms, size int
					if _, err := fmt.Sscan(line, &ms, &size); err != nil {
						return
					}
					time.Sleep(time.Duration(ms) * time.Millisecond)
					body := bytes.Repeat([]byte{'x'}, size-1)
					body = append(body, '\n')
					half := len(body) / 2
					c.Write(body[:half])
					time.Sleep(time.Millisecond)
					c.Write(body[half:])
				}
			}()
		}
	}()
	return ln
}

// ask sends a request and reads its answer, timing it.
func ask(t *testing.T, c net.Conn, r *bufio.Reader, ms, size int) (string, time.Duration) {
	t.Helper()
	start := time.Now()
	if _, err := c.Write([]byte(fmt.Sprint(ms, " ", size) + "\n")); err != nil {
		t.Fatal(err)
	}
	line, err := r.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	return line, time.Since(start)
}

func TestHoldsEachAnswerBackByItsShare(t *testing.T) {
	for _, network := range []string{"tcp", "unix"} {
		t.Run(network, func(t *testing.T) {
			addr := "127.0.0.1:0"
			if network == "unix" {
				addr = filepath.Join(t.TempDir(), "s.sock")
			}
			ln := fakeServer(t, network, addr)
			p, err := Start(network, ln.Addr().String(), 0.5)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			c, err := net.Dial("tcp", p.Addr())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			r := bufio.NewReader(c)
			if hi, err := r.ReadString('\n'); err != nil || hi != "hi\n" {
				t.Fatalf("greeting %q, %v", hi, err)
			}
			before := p.Stats()
			const sleep = 20
			for _, size := range []int{10, 200000} {
				got, took := ask(t, c, r, sleep, size)
				if len(got) != size || strings.Count(got, "x") != size-1 {
					t.Fatalf("answer of %d bytes came as %d bytes", size, len(got))
				}
				// The server took at least sleep ms; the answer must come
				// no sooner than 1.5 times that. (No upper bound: a busy
				// machine makes it later, never sooner.)
				if min := time.Duration(1.5 * sleep * float64(time.Millisecond)); took < min {
					t.Errorf("answer of %d bytes took %v, less than %v", size, took, min)
				}
			}
			s := p.Stats()
			if n := s.Answers - before.Answers; n != 2 {
				t.Errorf("counted %d answers, want 2", n)
			}
			served := s.Served - before.Served
			if served < 2*sleep*time.Millisecond {
				t.Errorf("server time seen %v, less than the server slept", served)
			}
			// Held is never less than extra times served: a timer fires
			// late, never early.
			if held := s.Held - before.Held; float64(held) < 0.5*float64(served)*0.999 {
				t.Errorf("held %v for %v of server time: less than half", held, served)
			}
		})
	}
}

func TestExtraZeroForwardsAsIs(t *testing.T) {
	ln := fakeServer(t, "tcp", "127.0.0.1:0")
	p, err := Start("tcp", ln.Addr().String(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := bufio.NewReader(c)
	r.ReadString('\n')
	if got, _ := ask(t, c, r, 1, 50000); len(got) != 50000 {
		t.Fatalf("answer came as %d bytes", len(got))
	}
	// The same path as a slowed side, holding nothing on purpose (what
	// it takes to pass the bytes on is not asserted: a busy machine makes
	// it longer).
	if s := p.Stats(); s.Answers != 2 {
		t.Errorf("counted %d answers (the greeting and one), want 2", s.Answers)
	}
}

func TestCloseEndsConnections(t *testing.T) {
	ln := fakeServer(t, "tcp", "127.0.0.1:0")
	p, err := Start("tcp", ln.Addr().String(), 0.2)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	bufio.NewReader(c).ReadString('\n')
	done := make(chan error, 1)
	go func() { done <- p.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Close did not return")
	}
	c.SetReadDeadline(time.Now().Add(time.Minute))
	if _, err := c.Read(make([]byte, 1)); err != io.EOF && !isReset(err) {
		t.Errorf("read after Close: %v, want the connection closed", err)
	}
	if _, err := net.Dial("tcp", p.Addr()); err == nil {
		t.Error("the proxy still listens after Close")
	}
}

func TestNoServerClosesTheClient(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := ln.Addr().String()
	ln.Close()
	p, err := Start("tcp", dead, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(time.Minute))
	if _, err := c.Read(make([]byte, 1)); err != io.EOF && !isReset(err) {
		t.Errorf("read: %v, want the connection closed", err)
	}
}

func TestExtraOutOfRange(t *testing.T) {
	for _, x := range []float64{-0.1, 101} {
		if _, err := Start("tcp", "127.0.0.1:1", x); err == nil {
			t.Errorf("extra %v accepted", x)
		}
	}
}

func isReset(err error) bool {
	return err != nil && strings.Contains(err.Error(), "reset")
}
