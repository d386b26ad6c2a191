package load

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// tableProgress is the count of one table.
type tableProgress struct {
	name        string
	total, done int64
	start       time.Time
	base        int64 // rows present before this load
	finished    bool
	bar         *progressbar.ProgressBar
}

func (t *tableProgress) rate() float64 {
	el := time.Since(t.start).Seconds()
	if el <= 0 {
		return 0
	}
	return float64(t.done-t.base) / el
}

// tracker is the bookkeeping shared by the progress displays.
type tracker struct {
	mu     sync.Mutex
	tables []*tableProgress
	byName map[string]*tableProgress
}

func (k *tracker) start(name string, total, done int64) *tableProgress {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.byName == nil {
		k.byName = map[string]*tableProgress{}
	}
	t := &tableProgress{name: name, total: total, done: done, base: done, start: time.Now()}
	k.tables = append(k.tables, t)
	k.byName[name] = t
	return t
}

// BarProgress draws one progress bar per table (with rows/s) on a
// terminal, redrawing the block of bars in place.
type BarProgress struct {
	tracker
	w       io.Writer
	stop    chan struct{}
	stopped sync.WaitGroup
	once    sync.Once
	lines   int
}

// NewBarProgress draws bars on w, which must be a terminal.
func NewBarProgress(w io.Writer) *BarProgress {
	p := &BarProgress{w: w, stop: make(chan struct{})}
	p.stopped.Add(1)
	go func() {
		defer p.stopped.Done()
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				p.draw()
			case <-p.stop:
				p.draw()
				return
			}
		}
	}()
	return p
}

func (p *BarProgress) Start(table string, total, done int64) {
	t := p.start(table, total, done)
	t.bar = progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(io.Discard),
		progressbar.OptionSetDescription(fmt.Sprintf("%-10s", table)),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("rows"),
		progressbar.OptionThrottle(0),
		progressbar.OptionSetPredictTime(true),
	)
	_ = t.bar.Set64(done)
}

func (p *BarProgress) Add(table string, rows int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if t := p.byName[table]; t != nil {
		t.done += rows
		_ = t.bar.Add64(rows)
	}
}

func (p *BarProgress) Done(table string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if t := p.byName[table]; t != nil {
		t.finished = true
	}
}

// Finish draws the final state and stops redrawing.
func (p *BarProgress) Finish() {
	p.once.Do(func() {
		close(p.stop)
		p.stopped.Wait()
	})
}

func (p *BarProgress) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	var b strings.Builder
	if p.lines > 0 {
		fmt.Fprintf(&b, "\x1b[%dA", p.lines) // back to the first bar
	}
	for _, t := range p.tables {
		line := t.bar.String()
		if line == "" || t.finished {
			line = fmt.Sprintf("%-10s %d/%d rows (%.0f rows/s)", t.name, t.done, t.total, t.rate())
			if t.finished {
				line += " done"
			}
		}
		b.WriteString("\r\x1b[2K" + line + "\n")
	}
	p.lines = len(p.tables)
	io.WriteString(p.w, b.String())
}

// LogProgress writes a progress line every interval, for logs and
// terminals that are not one.
type LogProgress struct {
	tracker
	w     io.Writer
	stop  chan struct{}
	done  sync.WaitGroup
	once  sync.Once
	begin time.Time
}

// NewLogProgress writes to w every interval.
func NewLogProgress(w io.Writer, interval time.Duration) *LogProgress {
	p := &LogProgress{w: w, stop: make(chan struct{}), begin: time.Now()}
	p.done.Add(1)
	go func() {
		defer p.done.Done()
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				p.line()
			case <-p.stop:
				return
			}
		}
	}()
	return p
}

func (p *LogProgress) Start(table string, total, done int64) { p.start(table, total, done) }

func (p *LogProgress) Add(table string, rows int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if t := p.byName[table]; t != nil {
		t.done += rows
	}
}

func (p *LogProgress) Done(table string) {
	p.mu.Lock()
	t := p.byName[table]
	if t != nil {
		t.finished = true
	}
	p.mu.Unlock()
	if t != nil {
		fmt.Fprintf(p.w, "loaded %s: %d rows in %s (%.0f rows/s)\n", t.name, t.done, time.Since(t.start).Round(time.Millisecond), t.rate())
	}
}

func (p *LogProgress) Finish() {
	p.once.Do(func() {
		close(p.stop)
		p.done.Wait()
	})
}

func (p *LogProgress) line() {
	p.mu.Lock()
	defer p.mu.Unlock()
	var parts []string
	var done, total int64
	for _, t := range p.tables {
		done += t.done
		total += t.total
		if !t.finished && t.done > t.base {
			parts = append(parts, fmt.Sprintf("%s %d%%", t.name, 100*t.done/max(t.total, 1)))
		}
	}
	rate := float64(done) / time.Since(p.begin).Seconds()
	fmt.Fprintf(p.w, "loading: %d/%d rows (%.0f rows/s) %s\n", done, total, rate, strings.Join(parts, ", "))
}
