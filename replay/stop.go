package replay

import (
	"context"
	"errors"
	"fmt"
	"net"
	"syscall"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/results"
)

// Bounding the workers' network waits.
//
// Statements run on a context that is never cancelled (see worker.qctx),
// and blocking sockets have no deadlines, so a server that stops answering
// (stopped, partitioned, overloaded) would hold a worker in a read for
// ever. Every network call of a worker (a statement, BEGIN, COMMIT,
// ROLLBACK, a prepare) is armed instead: while it is in flight the worker
// publishes its sequence number, and a call that must end (its query
// timeout passed, the run ended, Ctrl-C) is stopped by stopCall: KILL
// QUERY from another connection, and when the call still has no reply
// abortAfter later (the server is hung, or the reply is lost), the
// worker's socket is shut down, which ends any read or write blocked on
// it. Such a call is recorded as a timeout (errNoReply) and the worker
// reconnects. Connecting is bounded by stopTimes.connect and by the end of
// the run the same way.
//
// Arming costs two atomic stores and one load per call; stopping costs
// nothing until it is needed.

// stopTimes are the bounds of the waits on a server; a run copies
// defaultStopTimes (tests shorten them).
type stopTimes struct {
	// abortAfter is how long a call that must stop is given to answer
	// KILL QUERY before its connection is cut.
	abortAfter time.Duration
	// endGrace is how long statements still running when the run's time
	// is up are given to finish (or the query timeout, when longer)
	// before they are stopped as Ctrl-C stops them.
	endGrace time.Duration
	// connect bounds a worker's connecting (dial, handshake, the
	// connection id, preparing the statements), the first ping and
	// taking a connection for EXPLAIN.
	connect time.Duration
}

var defaultStopTimes = stopTimes{abortAfter: 3 * time.Second, endGrace: 5 * time.Second, connect: 10 * time.Second}

// errNoReply is recorded for a call that had no reply even after KILL
// QUERY (a hung server, a cut network): its connection was cut. It is a
// timeout (the code of KILL QUERY's own error), the server's and not the
// scenario's, and the worker reconnects.
var errNoReply = &mysql.MySQLError{Number: erQueryInterrupted, SQLState: [5]byte{'7', '0', '1', '0', '0'},
	Message: "timeout: no reply from the server, even after KILL QUERY; the connection was closed"}

// errCutAtEnd is what a call still in flight when the run ended (its time
// was up and the grace passed, or it was interrupted) returns: the statement
// is recorded as cut at the end (results.Execution.CutAtEnd), with the time
// it had run; other calls (BEGIN, COMMIT, a prepare) treat it as the run
// stopping.
var errCutAtEnd = &mysql.MySQLError{Number: results.ErrCutAtEnd, SQLState: [5]byte{'7', '0', '1', '0', '0'},
	Message: "cut at the end of the run: still running when the run ended or was interrupted, and stopped (KILL QUERY); latency_ns is how long it had run"}

// errCutNoReply is errCutAtEnd for a call that had no reply even to KILL
// QUERY (errNoReply): its connection was cut.
var errCutNoReply = &mysql.MySQLError{Number: results.ErrCutAtEnd, SQLState: [5]byte{'7', '0', '1', '0', '0'},
	Message: "cut at the end of the run: still running when the run ended or was interrupted, and no reply from the server, even after KILL QUERY; the connection was closed; latency_ns is how long it had run"}

// errStopping is returned by a call that was not started because the run is
// stopping; it is never recorded.
var errStopping = errors.New("replay: the run is stopping")

// connLink is how a worker cuts its current connection: the socket when
// the dial handed it over, else the context its statements run with.
type connLink struct {
	sock   net.Conn
	cancel context.CancelFunc
}

// cut ends any wait on the connection, now and later: the connection is
// unusable afterwards.
func (l *connLink) cut() {
	if l.sock != nil {
		cutSocket(l.sock)
	}
	if l.cancel != nil {
		l.cancel()
	}
}

// cutSocket shuts a socket down for reading and writing. The descriptor is
// used through the runtime's reference to it (Control), which fails once the
// socket is closed rather than touching a reused descriptor.
func cutSocket(c net.Conn) {
	if b, ok := c.(*blockingConn); ok {
		b.cut()
		return
	}
	if sc, ok := c.(syscall.Conn); ok {
		if rc, err := sc.SyscallConn(); err == nil {
			_ = rc.Control(func(fd uintptr) { _ = syscall.Shutdown(int(fd), syscall.SHUT_RDWR) })
		}
	}
	_ = c.SetDeadline(time.Unix(1, 0)) // a wait on Go's poller ends at once
}

// arm marks the start of a network call and returns its sequence number,
// or errStopping when the run is stopping. The store comes before the check
// and stopAll sets stopping before it looks at calls in flight: either the
// call is not started or stopAll sees it.
func (w *worker) arm() (uint64, error) {
	w.calls++
	seq := w.calls
	w.inflight.Store(seq)
	if w.e.stopping.Load() {
		w.inflight.Store(0)
		return 0, errStopping
	}
	if w.killTimer != nil {
		w.killTimer.Reset(w.e.cfg.QueryTimeout)
	}
	return seq, nil
}

// disarm marks the end of call seq and returns its error as recorded: a
// call whose connection was cut had no reply (errNoReply); one stopped by
// the query timeout that the server ended without an error of its own was
// cut short all the same (errQueryTimeout).
func (w *worker) disarm(seq uint64, err error) error {
	w.inflight.Store(0)
	if w.killTimer != nil {
		w.killTimer.Stop()
	}
	switch {
	case w.endSeq.Load() == seq && w.cutSeq.Load() == seq:
		return errCutNoReply
	case w.endSeq.Load() == seq:
		// Stopped by the end of the run, by KILL QUERY or as it ended on
		// its own: how long it ran is a lower bound of its latency either
		// way.
		return errCutAtEnd
	case w.cutSeq.Load() == seq:
		return errNoReply
	case err == nil && w.killedSeq.Load() == seq:
		// Some statements (SLEEP, BENCHMARK on MariaDB) end without an
		// error when killed.
		return errQueryTimeout
	}
	return err
}

// killQuery runs on the timer goroutine when a call outlives QueryTimeout.
func (w *worker) killQuery() {
	seq := w.inflight.Load()
	if seq == 0 {
		return
	}
	w.killedSeq.Store(seq)
	w.stopCall(seq)
}

// stopCall stops call seq if it is still in flight: KILL QUERY on another
// connection, then, if the call has not ended abortAfter later, the
// connection is cut. It blocks for abortAfter at most and never on the
// server.
func (w *worker) stopCall(seq uint64) {
	e := w.e
	deadline := time.Now().Add(e.stop.abortAfter)
	if id := w.connID.Load(); id != 0 && w.inflight.Load() == seq {
		ctx, cancel := context.WithDeadline(context.Background(), deadline)
		_, err := w.ep.admin().ExecContext(ctx, fmt.Sprintf("KILL QUERY %d", id))
		cancel()
		if err != nil && w.inflight.Load() == seq {
			if _, seen := e.seenErr.LoadOrStore("kill/"+w.ep.Name, true); !seen {
				e.log.Printf("%s: KILL QUERY: %v", w.ep.Name, err)
			}
		}
	}
	for w.inflight.Load() == seq {
		if !time.Now().Before(deadline) {
			w.cut(seq)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// cut cuts the worker's connection under call seq.
func (w *worker) cut(seq uint64) {
	w.cutSeq.Store(seq)
	w.ep.unresponsive.Store(true)
	w.e.unanswered.Add(1)
	if _, seen := w.e.seenErr.LoadOrStore("cut/"+w.ep.Name, true); !seen {
		w.e.log.Printf("%s: no reply to a statement %s after KILL QUERY: closing its connection (recorded as a timeout)",
			w.ep.Name, w.e.stop.abortAfter)
	}
	if l := w.link.Load(); l != nil {
		l.cut()
	}
}

// stopAll stops the workers' calls: from now on no call starts, and those
// in flight are stopped (stopCall) concurrently.
func (e *engine) stopAll(workers []*worker) {
	e.stopping.Store(true)
	for _, w := range workers {
		if seq := w.inflight.Load(); seq != 0 {
			w.endSeq.Store(seq)
			go w.stopCall(seq)
		}
	}
}

// endGrace is how long statements still running at the end of the run's
// time may take before they are stopped.
func (e *engine) endGrace() time.Duration {
	return max(e.stop.endGrace, e.cfg.QueryTimeout)
}
