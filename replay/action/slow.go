package action

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/joinbench/joinbench/internal/ledger"
	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/internal/throttle"
)

// slowKind makes the node's server a stated fraction slower on CPU or on
// disk for a while: a node on slower hardware, which the rest of a
// synchronous cluster waits for by flow control.
var slowKind = &Kind{
	Name:    "slow",
	Syntax:  "slow PERCENT cpu|io for DURATION",
	Doc:     "makes the node's server PERCENT slower on CPU or on disk for DURATION (`for` may be left out; `slow 21% io for 60s`): its rate is measured, unthrottled, for 5 s, then held at (100 - PERCENT)% of it by a cgroup limit, which is lifted after DURATION, when the run ends first, or on Ctrl-C. `0%` limits nothing and measures alike: a control. See [A slower node](#a-slower-node)",
	Note:    "after measuring its rate for 5s",
	Process: true,
	Parse:   parseSlow,
}

// parseSlow reads PERCENT cpu|io [for] DURATION.
func parseSlow(a Args) (Job, error) {
	w := a.Words
	if len(w) == 4 && strings.EqualFold(w[2], "for") {
		w = []string{w[0], w[1], w[3]}
	}
	if len(w) != 3 {
		return nil, errors.New("slow takes a percentage, cpu or io, and a duration, e.g. 'slow 21% io for 60s'")
	}
	pct, err := strconv.ParseFloat(strings.TrimSuffix(w[0], "%"), 64)
	if err != nil || pct < 0 || pct >= 100 {
		return nil, fmt.Errorf("slow: %q is not a percentage from 0 to less than 100, e.g. 21%%", w[0])
	}
	r := throttle.Resource(strings.ToLower(w[1]))
	if r != throttle.CPU && r != throttle.IO {
		return nil, fmt.Errorf("slow: %q is neither cpu nor io", w[1])
	}
	d, err := time.ParseDuration(w[2])
	if err != nil || d <= 0 {
		return nil, fmt.Errorf("slow: %q is not a positive duration", w[2])
	}
	if err := a.NoText(); err != nil {
		return nil, err
	}
	return slowJob{fraction: pct / 100, resource: r, hold: d}, nil
}

type slowJob struct {
	fraction float64
	resource throttle.Resource
	hold     time.Duration
}

func (j slowJob) What(Target) string {
	what := map[throttle.Resource]string{throttle.CPU: "CPU", throttle.IO: "disk I/O"}[j.resource]
	return fmt.Sprintf("%s %s%% slower for %s", what, strconv.FormatFloat(100*j.fraction, 'f', -1, 64), j.hold)
}

// Check refuses, before the run, a machine that cannot limit the node:
// no cgroup controller for the resource, or its data on no block device.
func (j slowJob) Check(t Target) error {
	return throttle.Check(j.resource, t.Process.DataDir())
}

// Do measures the server's rate, then holds it at (1-fraction) of it for
// the duration (throttle.Run), and lifts the limit also when the run ends
// first. The row's start is when the limit was set; its output says what
// was measured before and while limited.
func (j slowJob) Do(ctx context.Context, at Site, out *Outcome) error {
	pid := at.Process.PID()
	if pid <= 0 {
		return errors.New("the server is not running")
	}
	led := at.Process.Ledger()
	what := map[throttle.Resource]string{throttle.CPU: "CPU", throttle.IO: "disk I/O"}[j.resource]
	res, err := throttle.Run(ctx, throttle.Spec{
		PID: pid, Resource: j.resource, Path: at.Process.DataDir(), Fraction: j.fraction,
		For: j.hold, Limited: func(t time.Time) { out.Started = t },
		// Noted before the server is moved: a killed run's limit is lifted
		// by the next command on the sandbox.
		Record: func(group, from string) (func() error, error) {
			return ledger.Record(led, ledger.Entry{Kind: sandbox.ChangeCgroup, Node: at.Node,
				What: fmt.Sprintf("%s in cgroup %s, its %s limited", at.Node, group, what),
				Undo: map[string]string{"group": group, "from": from}})
		},
	})
	out.Output = slowOutput(j, res)
	return err
}

// slowOutput says what a slow action measured, for its row.
func slowOutput(j slowJob, res throttle.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "before (%s unthrottled): %s\n", throttle.DefaultMeasure, res.Before.Format(j.resource))
	if res.Limited.IsZero() {
		return b.String()
	}
	if j.resource == throttle.IO {
		fmt.Fprintf(&b, "device: %s\n", res.Device)
	}
	if j.fraction == 0 {
		b.WriteString("target: none (0%: nothing limited, the rates measured alike)\n")
	} else {
		fmt.Fprintf(&b, "target: %s (%.0f%%)\n", res.Target.Format(j.resource), 100*(1-j.fraction))
	}
	fmt.Fprintf(&b, "during (%.1fs): %s ("+ofBefore+")\n", res.Lifted.Sub(res.Limited).Seconds(),
		res.During.Format(j.resource), 100*res.Ratio(j.resource))
	return b.String()
}

// ofBefore is how a slow action's output states the node's own rate while
// limited against its rate before; SlowRatio reads it back.
const ofBefore = "%.1f%% of before"

// SlowRatio is the node's own rate while a slow action limited it, as a
// fraction of its rate before (what the action's output says); false when
// the output has none (the limit was never set).
func SlowRatio(output string) (float64, bool) {
	for _, line := range strings.Split(output, "\n") {
		if !strings.HasPrefix(line, "during (") {
			continue
		}
		open := strings.LastIndex(line, "(")
		var pct float64
		if _, err := fmt.Sscanf(line[open:], "(%f%% of before)", &pct); err == nil {
			return pct / 100, true
		}
	}
	return 0, false
}
