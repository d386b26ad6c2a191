package replay

import (
	"fmt"
	"time"

	"github.com/joinbench/joinbench/results"
)

// writerTask is the writer goroutine; err is what it returned.
type writerTask struct {
	ew   ExecutionWriter
	done chan struct{}
	err  error
}

// startWriter starts the writer goroutine on ew; it ends once the
// workers' channel of rows is closed and drained.
func (e *engine) startWriter(ew ExecutionWriter) *writerTask {
	w := &writerTask{ew: ew, done: make(chan struct{})}
	go func() {
		defer close(w.done)
		w.err = e.write(ew)
	}()
	return w
}

// wait waits for the writer to end and returns its error.
func (w *writerTask) wait() error {
	<-w.done
	return w.err
}

// write is the writer goroutine: it feeds the summary histograms and
// streams rows to the execution file. Workers hand it full batches through a
// bounded channel; when it falls behind, workers wait (the time is counted
// and reported, and is never part of a measured latency).
func (e *engine) write(ew ExecutionWriter) error {
	var werr error
	roller, _ := ew.(IdleRoller)
	var live *liveTally // the live view's, when there is one
	if e.live != nil {
		live = e.live.tally
	}
	idle := func() {
		if roller != nil && werr == nil {
			if err := roller.RollIfOld(); err != nil {
				werr = fmt.Errorf("write executions: %w", err)
				e.cancel(werr)
			}
		}
	}
	for {
		batch, ok := e.nextBatch(idle)
		if !ok {
			return werr
		}
		b := batch.rows
		e.mu.Lock()
		for i := range b {
			r := &b[i]
			e.acc.Add(r)
			if e.tally != nil {
				e.tally.add(r)
			}
			if live != nil {
				live.add(r)
			}
			if r.CutAtEnd {
				continue
			}
			if e.origin != nil && r.ErrorCode == 0 {
				// The workload's measured start: the end of its first
				// success (a row is written once it is over).
				e.origin.Set(r.Start.Add(time.Duration(r.LatencyNs)))
			}
			if e.stalls != nil {
				e.stalls.add(r)
			}
		}
		e.mu.Unlock()
		e.taken[batch.worker].Store(batch.seq)
		if len(b) == 0 {
			continue
		}
		if werr == nil {
			if err := ew.Write(b); err != nil {
				werr = fmt.Errorf("write executions: %w", err)
				e.cancel(werr)
			}
		}
		select {
		case e.free <- b[:0]:
		default:
		}
	}
}

// rowBatch is what a worker hands the writer: its rows (none when it only
// says it holds none, for the progress lines), and the number of the
// batch among the worker's.
type rowBatch struct {
	rows   []results.Execution
	worker int
	seq    int64
}

// closeWriter closes the execution writer, saying so when that is long
// work: the rows of a journal are turned into Parquet then.
func (e *engine) closeWriter(ew ExecutionWriter) error {
	p, ok := ew.(PendingWriter)
	if !ok || p.PendingRows() < slowConversion {
		return ew.Close()
	}
	t := time.Now()
	e.log.Printf("writing %d executions to Parquet", p.PendingRows())
	err := ew.Close()
	if err == nil {
		e.log.Printf("executions written in %s", time.Since(t).Round(100*time.Millisecond))
	}
	return err
}

// slowConversion is the journal size, in rows, from which closing the
// writer is announced: about a second's work.
const slowConversion = 1_000_000

// writerPoll is how long the writer sleeps when no batch is waiting.
const writerPoll = 5 * time.Millisecond

// nextBatch returns the next batch of rows, false once the workers are
// done; idle runs while it waits (every writerPoll). The writer polls
// rather than waits on the channel because a goroutine woken by a worker's
// send is queued on that worker's P, which the runtime's monitor then
// takes during the worker's next socket read, at the cost of many wake-ups
// on cores the server needs (bench/README.md, "Go runtime measurements");
// sleeping on a timer, the writer is woken by an idle thread instead, and
// workers never wake anything.
func (e *engine) nextBatch(idle func()) (rowBatch, bool) {
	for {
		select {
		case b, ok := <-e.rows:
			return b, ok
		default:
		}
		idle()
		time.Sleep(writerPoll)
	}
}
