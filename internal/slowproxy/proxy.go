// Package slowproxy makes a server a stated fraction slower on every
// statement, whatever the statement's size: a TCP proxy that holds each
// answer back in proportion to the time the server took to give it.
//
// A byte the server sent t after the client's last request is delivered
// (1+Extra)·t after that request, so a statement the server answered in
// 2 ms is answered in 2.4 ms at Extra 0.2, one it answered in 50 µs in
// 60 µs, and a result streamed over 30 ms ends 36 ms after its request.
// That is a server whose every answer comes Extra slower, which a cgroup
// CPU quota cannot give: a quota is spent per period of at least a
// millisecond, so it stalls a few statements for a long time and leaves
// the short ones untouched, and what it takes away depends on how busy
// the server was (a server that waits for its client between statements
// is rarely held at all).
//
// The MySQL protocol lets a client have one request in flight per
// connection, so every byte from the server is the answer to the
// client's latest bytes: the proxy needs no protocol parsing and works on
// TLS connections alike. It measures what it did: the server's time it
// saw and the time it held answers back (Stats), so the slowdown given is
// stated, not assumed; timers are late by tens of microseconds, which
// makes statements of a few tens of microseconds slower than asked.
//
// It knows nothing of scenarios, runs or sandboxes: an address, a
// fraction and a listener on 127.0.0.1.
package slowproxy

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// Proxy forwards connections made to Addr to the server, holding its
// answers back by Extra times the time the server took.
type Proxy struct {
	network, upstream string
	extra             float64
	ln                net.Listener

	mu    sync.Mutex
	conns map[net.Conn]struct{}
	wg    sync.WaitGroup

	served, held atomic.Int64 // nanoseconds
	answers      atomic.Int64
}

// Start listens on a free port of 127.0.0.1 and forwards each connection
// to the server at network/address ("tcp" and HOST:PORT, or "unix" and a
// socket path). extra is the fraction added to each answer's time, at
// least 0: 0.2 makes every answer 20% slower, 0 forwards as is (the
// same hop for a side that is not slowed).
func Start(network, address string, extra float64) (*Proxy, error) {
	if extra < 0 || extra > 100 {
		return nil, fmt.Errorf("slowproxy: extra %v is not from 0 to 100", extra)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{network: network, upstream: address, extra: extra, ln: ln, conns: map[net.Conn]struct{}{}}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// Addr is the proxy's address, HOST:PORT on 127.0.0.1.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Extra is the fraction each answer is held back by.
func (p *Proxy) Extra() float64 { return p.extra }

// Stats is what a proxy did: the server's time it saw (from each request
// to each byte of its answer, the answer's last byte counting) and the
// time it held answers back on top.
type Stats struct {
	Answers      int64
	Served, Held time.Duration
}

// Realised is the slowdown given: the time held over the server's time
// (about Extra), 0 before any answer.
func (s Stats) Realised() float64 {
	if s.Served <= 0 {
		return 0
	}
	return float64(s.Held) / float64(s.Served)
}

// Stats says what the proxy did so far.
func (p *Proxy) Stats() Stats {
	return Stats{Answers: p.answers.Load(), Served: time.Duration(p.served.Load()), Held: time.Duration(p.held.Load())}
}

// Close stops listening, closes every connection and waits for their
// goroutines.
func (p *Proxy) Close() error {
	err := p.ln.Close()
	p.mu.Lock()
	for c := range p.conns {
		c.Close()
	}
	p.conns = nil // a connection made meanwhile is closed by track
	p.mu.Unlock()
	p.wg.Wait()
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	return err
}

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return // closed
		}
		p.wg.Add(1)
		go p.serve(c)
	}
}

// track adds c to the connections Close closes; false when the proxy is
// closing already.
func (p *Proxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.conns == nil {
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *Proxy) untrack(c net.Conn) {
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
	c.Close()
}

// serve forwards one client connection. The server's greeting is the
// answer to the connection itself: its time counts from the dial.
func (p *Proxy) serve(client net.Conn) {
	defer p.wg.Done()
	if !p.track(client) {
		client.Close()
		return
	}
	defer p.untrack(client)
	var asked atomic.Int64 // the client's latest request, unix nanoseconds
	asked.Store(time.Now().UnixNano())
	server, err := net.Dial(p.network, p.upstream)
	if err != nil {
		return // the client sees its connection closed, as with no server
	}
	if !p.track(server) {
		server.Close()
		return
	}
	defer p.untrack(server)
	done := make(chan struct{}, 2)
	go func() {
		p.requests(client, server, &asked)
		done <- struct{}{}
	}()
	go func() {
		p.answersTo(server, client, &asked)
		done <- struct{}{}
	}()
	<-done // either side closing ends both
	client.Close()
	server.Close()
	<-done
}

// requests copies the client's bytes to the server, noting when each
// arrived: the start of the server's time for the answer.
func (p *Proxy) requests(client, server net.Conn, asked *atomic.Int64) {
	buf := make([]byte, 32<<10)
	for {
		n, err := client.Read(buf)
		if n > 0 {
			asked.Store(time.Now().UnixNano())
			if _, werr := server.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// chunk is bytes the server sent, when they arrived, and the request they
// answer.
type chunk struct {
	b         []byte
	at, asked int64
}

// answersTo copies the server's bytes to the client, each delivered
// (1+extra) times as long after its request as it came. Arrivals are
// timed by a reader of their own, so that holding one chunk back never
// delays the timing of the next. At extra 0 the bytes take the same path,
// so that a side not slowed pays the same hop as one that is.
func (p *Proxy) answersTo(server, client net.Conn, asked *atomic.Int64) {
	chunks := make(chan chunk, 256)
	go func() {
		defer close(chunks)
		for {
			buf := make([]byte, 32<<10)
			n, err := server.Read(buf)
			if n > 0 {
				chunks <- chunk{b: buf[:n], at: time.Now().UnixNano(), asked: asked.Load()}
			}
			if err != nil {
				return
			}
		}
	}()
	// An answer's figures run to its last byte: a later chunk of the same
	// answer replaces the earlier one's.
	var lastAsked, lastServed, lastHeld int64
	for c := range chunks {
		served := max(0, c.at-c.asked)
		due := c.asked + int64(float64(served)*(1+p.extra))
		if wait := time.Until(time.Unix(0, due)); wait > 0 {
			time.Sleep(wait)
		}
		// Counted before the write, so that a client that has its answer
		// finds it in Stats.
		held := max(0, time.Now().UnixNano()-c.at)
		if c.asked == lastAsked {
			p.served.Add(served - lastServed)
			p.held.Add(held - lastHeld)
		} else {
			p.served.Add(served)
			p.held.Add(held)
			p.answers.Add(1)
		}
		if _, err := client.Write(c.b); err != nil {
			for range chunks { // drain, so that the reader is not left blocked
			}
			return
		}
		lastAsked, lastServed, lastHeld = c.asked, served, held
	}
}
