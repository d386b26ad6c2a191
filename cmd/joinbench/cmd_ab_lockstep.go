package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/replay"
	"github.com/joinbench/joinbench/replay/results"
)

// Values of ab --interleave.
const (
	interleaveRounds     = "rounds"
	interleaveStatements = "statements"
)

// checkLockstep refuses the flags that have no meaning when the two sides
// take turns statement by statement.
func (a *abCmd) checkLockstep(given map[string]bool) error {
	switch {
	case a.Events > 0:
		return usage.Errorf("--events does not apply to --interleave statements: its rounds are slices of --time")
	case a.Rate > 0:
		return usage.Errorf("--rate does not apply to --interleave statements: the turns set the pace")
	case given["segment"]:
		return usage.Errorf("--segment does not apply to ab")
	}
	return nil
}

// runLockstep runs the workload once on each side, for --rounds slices of
// --time, the two runs taking turns statement by statement (see
// replay.Lockstep), and records the two run folders in sides. Each run
// records its slices as its rounds (results.Replicate.Slice).
func (a *abCmd) runLockstep(ctx context.Context, cl *cli, sides [2]*abSide, series, root string) error {
	logw := logWriter(cl)
	fmt.Fprintf(logw, "ab %s: both servers at once, taking turns statement by statement, for %d slices of %s (+%s warm-up): base %s, candidate %s; results in %s\n",
		series, a.Rounds, a.Time, a.Warmup, sides[0].server.label, sides[1].server.label, root)
	total := time.Duration(a.Rounds) * a.Time
	lk := replay.NewLockstep(a.Threads)
	// A side that fails (its server unreachable, its tables missing) stops
	// the other, which would wait for it.
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	quiet := *cl
	quiet.Quiet = true
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i, s := range sides {
		r := a.runCmd
		r.DSN, r.Host, r.Port, r.Socket, r.Sandbox = s.server.dsns, s.server.host, s.server.port, s.server.socket, s.server.sandbox
		r.Out = filepath.Join(root, "side="+s.name)
		r.RunID = fmt.Sprintf("%s-%s", series, s.name)
		r.Time = total
		o := r.options(&quiet)
		o.Lockstep = lk.Side(i)
		o.Log = prefixWriter{w: logw, prefix: "ab: " + s.name + ": "}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = runOnce(ctx, &r.connFlags, o, o.Log, func(out *replay.Outcome, _ io.Writer) error {
				s.dirs = append(s.dirs, out.Dir)
				return nil
			})
			if errs[i] != nil {
				cancel(fmt.Errorf("the %s's run failed: %w", s.name, errs[i]))
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	a.sliceProgress(logw, lk, total, done)
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
		// The side that failed first says why; the other only waited.
		for i, err := range errs {
			if err != nil && errors.Is(cause, err) {
				return fmt.Errorf("%s (%s): %w", sides[i].name, sides[i].server.label, err)
			}
		}
	}
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("%s (%s): %w", sides[i].name, sides[i].server.label, err)
		}
	}
	if err := ctx.Err(); err != nil {
		// Interrupted: what was recorded is kept, but slices cut short
		// are not the rounds the comparison expects.
		return fmt.Errorf("ab interrupted; the runs recorded so far are kept in %s: %w", root, err)
	}
	for _, s := range sides {
		var info *results.Run
		if len(s.dirs) == 1 {
			info = results.ReadRunInfo(s.dirs[0], nil)
		}
		if info == nil || info.Executions == 0 {
			return fmt.Errorf("%s (%s): the run recorded no execution", s.name, s.server.label)
		}
		rep := results.Replicate{Series: series, Side: s.name, Rounds: a.Rounds, Slice: results.Duration(a.Time)}
		if err := results.SetReplicate(s.dirs[0], rep); err != nil {
			return err
		}
		fmt.Fprintf(logw, "ab: %-9s %d slices of %s, %d executions, %d errors\n", s.name, a.Rounds, a.Time, info.Executions, info.Errors)
	}
	return nil
}

// sliceProgress prints a line as each slice of the measured phase ends,
// until done is closed.
func (a *abCmd) sliceProgress(w io.Writer, lk *replay.Lockstep, total time.Duration, done <-chan struct{}) {
	select {
	case <-done:
		return
	case <-lk.Met():
	}
	start := lk.Start().Add(a.Warmup)
	fmt.Fprintf(w, "ab: both servers started; %d slices of %s after a warm-up of %s, the two taking turns statement by statement\n",
		a.Rounds, a.Time, a.Warmup)
	for k := 1; ; k++ {
		at := start.Add(time.Duration(k) * a.Time)
		select {
		case <-done:
			return
		case <-time.After(time.Until(at)):
		}
		if k <= a.Rounds {
			fmt.Fprintf(w, "ab: slice %d/%d done (%s of %s)\n", k, a.Rounds, time.Duration(k)*a.Time, total)
		}
	}
}

// prefixWriter writes each line given to w with a prefix: the two sides'
// notices, printed as they come, say whose they are.
type prefixWriter struct {
	w      io.Writer
	prefix string
}

func (p prefixWriter) Write(b []byte) (int, error) {
	text := strings.TrimSuffix(string(b), "\n")
	text = p.prefix + strings.ReplaceAll(text, "\n", "\n"+p.prefix) + "\n"
	if _, err := io.WriteString(p.w, text); err != nil {
		return 0, err
	}
	return len(b), nil
}
