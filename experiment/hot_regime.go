package experiment

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/joinbench/joinbench/internal/ledger"
	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/internal/throttle"
	"github.com/joinbench/joinbench/internal/usage"
)

// Hot against uniform shows only where a buffer-pool miss costs a disk
// read: with the operating system's page cache between the server and
// its disk, every miss is served from memory, and the two distributions
// run alike. hot-vs-uniform therefore measures in a regime of its own,
// set up after main1 is loaded and undone after the lesson (each change
// noted in the sandbox's ledger first, so that the next command undoes
// what a killed lesson left):
//
//   - the server restarted with innodb_flush_method=O_DIRECT (a setting
//     read only at start), then with its own options again: InnoDB reads
//     its pages from the disk, not from the page cache;
//   - its buffer pool sized against main1's clustered index (PRIMARY,
//     all a point select by id reads; the secondary indexes are several
//     times its size and never read): a share of it that holds the hot
//     fifth and not the whole;
//   - its reads held at a fixed number of operations a second by a cgroup
//     limit on the disk of its data (throttle.Cap, the slow action's
//     machinery): a disk of a given speed, whatever this machine's own.

// flushMethods are the values of innodb_flush_method that MariaDB and
// MySQL both take on Linux: one outside them would keep the server from
// starting again.
var flushMethods = []string{"fsync", "O_DSYNC", "littlesync", "nosync", "O_DIRECT", "O_DIRECT_NO_FSYNC"}

// minPool is the smallest buffer pool the lesson sets.
const minPool = 16 << 20

// regime is what hot-vs-uniform measured in, for its page.
type regime struct {
	flushBefore, flush string // innodb_flush_method before and during ("" unread)
	restarted          bool   // the server was restarted with flush
	readIOPS           int64  // the cap held (0: none)
	device             string // the disk capped
	primary, whole     int64  // main1's clustered index, and with its secondary indexes, bytes
	pool               int64  // the buffer pool during the lesson, bytes
	poolAsked          string // how the lesson sized it: "--pool-share 0.5"; "": left as it was
}

// checkRegime refuses, before main1 is loaded, a regime the target
// cannot be given: one that needs a sandbox's servers on a server named
// by its address, a read cap on a machine without the cgroup machinery,
// sizes out of range.
func checkRegime(tgt *server.Target, o Options) error {
	switch {
	case o.ReadIOPS < 0:
		return usage.Errorf("--read-iops %d: give 0 (no cap) or more", o.ReadIOPS)
	case o.PoolShare < 0 || o.PoolShare > 1:
		return usage.Errorf("--pool-share %v: give a share of main1's clustered index from 0 (the pool left as it is) to 1", o.PoolShare)
	}
	if o.FlushMethod != "" && !slices.ContainsFunc(flushMethods, func(m string) bool { return strings.EqualFold(m, o.FlushMethod) }) {
		return usage.Errorf("--flush-method %q: one of %s, or '' to leave it as it is", o.FlushMethod, strings.Join(flushMethods, ", "))
	}
	if o.BufferPool != "" {
		if _, err := sandbox.ParseSize(o.BufferPool); err != nil {
			return usage.Errorf("--buffer-pool-size: %v", err)
		}
	}
	if o.FlushMethod == "" && o.ReadIOPS == 0 && o.PoolShare == 0 && o.BufferPool == "" {
		return nil
	}
	for _, ep := range tgt.Endpoints {
		if ep.Process == nil || tgt.Sandbox == nil || tgt.Sandbox.Name == "" {
			return usage.Errorf("hot-vs-uniform restarts, sizes and caps the servers of a named sandbox (--sandbox NAME): on %s give --flush-method '' --read-iops 0 --pool-share 0 and set them yourself", ep.Name)
		}
		if o.ReadIOPS > 0 {
			if err := throttle.Check(throttle.IO, ep.Process.DataDir()); err != nil {
				return usage.Errorf("--read-iops %d: %v; give --read-iops 0 to measure without a cap", o.ReadIOPS, err)
			}
		}
	}
	if len(tgt.Nodes) > 0 {
		return usage.Errorf("hot-vs-uniform sets up the servers it sends statements to: give --sandbox NAME without a proxy's --dsn")
	}
	return nil
}

// hotRegime sets up the lesson's regime on the target (main1 loaded) and
// returns it with what undoes it, in the reverse order, also when ctx has
// ended: call undo whatever happens, also after an error.
func (e *env) hotRegime(ctx context.Context) (reg regime, undo func() error, err error) {
	var undos []func() error
	undo = func() error {
		var errs []error
		for i := len(undos) - 1; i >= 0; i-- {
			errs = append(errs, undos[i]())
		}
		undos = nil
		return errors.Join(errs...)
	}
	o := e.o
	// The flush method first: a restart empties the buffer pool and sets
	// its size back to the server's own.
	if o.FlushMethod != "" {
		for _, ep := range e.tgt.Endpoints {
			before, err := e.readVar(ctx, ep, "innodb_flush_method")
			if err != nil {
				return reg, undo, err
			}
			reg.flushBefore, reg.flush = before, before
			if strings.EqualFold(before, o.FlushMethod) {
				continue
			}
			e.logf("%s: restarting with innodb_flush_method=%s (it is %s; the setting is read at start only)", ep.Name, o.FlushMethod, before)
			restore, err := ep.Process.RestartWith(ctx, []string{"--innodb-flush-method=" + o.FlushMethod},
				fmt.Sprintf("for experiment %s (its innodb_flush_method was %s)", e.lesson, before))
			if err != nil {
				return reg, undo, err
			}
			reg.restarted = true
			name := ep.Name
			undos = append(undos, func() error {
				e.logf("%s: restarting with its own options (innodb_flush_method=%s)", name, before)
				return restore(context.WithoutCancel(ctx))
			})
			if reg.flush, err = e.readVar(ctx, ep, "innodb_flush_method"); err != nil {
				return reg, undo, err
			}
			if !strings.EqualFold(reg.flush, o.FlushMethod) {
				return reg, undo, fmt.Errorf("%s restarted with --innodb-flush-method=%s runs with %s", ep.Name, o.FlushMethod, reg.flush)
			}
		}
	}
	if reg.primary, reg.whole, err = e.main1Size(ctx); err != nil {
		return reg, undo, err
	}
	if size := e.poolSize(reg.primary); size > 0 {
		named, err := sandbox.Open(o.SandboxDir, e.tgt.Sandbox.Name)
		if err != nil {
			return reg, undo, err
		}
		reg.poolAsked = fmt.Sprintf("--pool-share %s of the clustered index", fmtPercent(o.PoolShare))
		if o.BufferPool != "" {
			reg.poolAsked = "--buffer-pool-size " + o.BufferPool
		}
		restore, err := named.SetBufferPoolFor(ctx, sandbox.FormatSize(size), reg.poolAsked, e.o.Log)
		if err != nil {
			return reg, undo, err
		}
		undos = append(undos, restore)
	}
	pool, err := e.readVar(ctx, e.tgt.Endpoints[0], "innodb_buffer_pool_size")
	if err != nil {
		return reg, undo, err
	}
	fmt.Sscan(pool, &reg.pool)
	if o.ReadIOPS > 0 {
		for _, ep := range e.tgt.Endpoints {
			c, err := e.capReads(ep, o.ReadIOPS)
			if err != nil {
				return reg, undo, err
			}
			reg.readIOPS, reg.device = o.ReadIOPS, c.Device().String()
			name := ep.Name
			undos = append(undos, func() error {
				e.logf("%s: read cap lifted", name)
				return c.Lift()
			})
		}
	}
	return reg, undo, nil
}

// poolSize is the buffer pool the lesson gives the server: --buffer-pool-size
// when given, else PoolShare of the clustered index, in whole MiB; 0
// when it leaves the pool as it is.
func (e *env) poolSize(primary int64) int64 {
	if e.o.BufferPool != "" {
		b, _ := sandbox.ParseSize(e.o.BufferPool)
		return b
	}
	if e.o.PoolShare <= 0 || primary <= 0 {
		return 0
	}
	return max(minPool, int64(math.Floor(e.o.PoolShare*float64(primary)/(1<<20)))<<20)
}

// capReads holds the reads of ep's server at iops, noted in its ledger
// before its group is made (as the slow action's limits are).
func (e *env) capReads(ep server.Endpoint, iops int64) (*throttle.Capped, error) {
	led := ep.Process.Ledger()
	c, err := throttle.Cap(throttle.CapSpec{PID: ep.Process.PID(), Path: ep.Process.DataDir(), ReadIOPS: iops,
		Record: func(group, from string) (func() error, error) {
			return ledger.Record(led, ledger.Entry{Kind: sandbox.ChangeCgroup, Node: ep.Node,
				What: fmt.Sprintf("%s in cgroup %s, its reads capped at %d a second for experiment %s", ep.Name, group, iops, e.lesson),
				Undo: map[string]string{"group": group, "from": from}})
		}})
	if err != nil {
		return nil, fmt.Errorf("%s: cap its reads at %d a second: %w", ep.Name, iops, err)
	}
	var files []string
	for f, v := range c.Files {
		files = append(files, fmt.Sprintf("%s = %s", f, v))
	}
	e.logf("%s: reads capped at %d a second (%s in %s)", ep.Name, iops, strings.Join(files, ", "), c.Group)
	return c, nil
}

// readVar reads a global variable of the server behind ep.
func (e *env) readVar(ctx context.Context, ep server.Endpoint, name string) (string, error) {
	db, err := ep.OpenDB()
	if err != nil {
		return "", err
	}
	defer db.Close()
	var v string
	if err := db.QueryRowContext(ctx, "SELECT @@GLOBAL."+name).Scan(&v); err != nil {
		return "", fmt.Errorf("%s: %s: %w", ep.Name, name, err)
	}
	return v, nil
}

// main1Size is main1's clustered index (InnoDB's data_length: the rows
// in primary key order) and the table with its secondary indexes, in
// bytes, from statistics made afresh.
func (e *env) main1Size(ctx context.Context) (primary, whole int64, err error) {
	db, err := e.tgt.Endpoints[0].OpenDB()
	if err != nil {
		return 0, 0, err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return 0, 0, err
	}
	defer conn.Close()
	// ANALYZE answers with a result set of its own.
	rows, err := conn.QueryContext(ctx, "ANALYZE TABLE main1")
	if err != nil {
		return 0, 0, fmt.Errorf("ANALYZE TABLE main1: %w", err)
	}
	rows.Close()
	err = conn.QueryRowContext(ctx, "SELECT data_length, data_length + index_length FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = 'main1'").Scan(&primary, &whole)
	if err != nil {
		return 0, 0, fmt.Errorf("main1's size: %w", err)
	}
	return primary, whole, nil
}

// notes say what the lesson measured in and why.
func (r regime) notes(o Options) []string {
	var notes []string
	switch {
	case r.restarted:
		notes = append(notes, fmt.Sprintf("the server ran with innodb_flush_method=%s, restarted with it for the lesson and with its own options after (it was %s): InnoDB reads a page it misses from the disk, where the operating system's page cache would otherwise serve every miss from memory and hot and uniform would run alike.", r.flush, r.flushBefore))
	case r.flush != "" && o.FlushMethod != "":
		notes = append(notes, fmt.Sprintf("the server ran with innodb_flush_method=%s already: a page it misses is read from the disk, not from the page cache.", r.flush))
	default:
		notes = append(notes, "innodb_flush_method was left as it is (--flush-method ''): with buffered reads the page cache may serve the buffer pool's misses from memory, and hot and uniform then run alike.")
	}
	if r.readIOPS > 0 {
		notes = append(notes, fmt.Sprintf("the server's reads were held at %d a second (--read-iops; a cgroup limit on the disk %s, lifted after): a disk of a given speed, as on a node whose data is far larger than its memory, whatever this machine's disk and its caches do.", r.readIOPS, r.device))
	} else {
		notes = append(notes, "the server's reads were not capped (--read-iops 0): a fast disk, or one whose own cache serves the reads, narrows the gap.")
	}
	if r.primary > 0 {
		s := fmt.Sprintf("main1 (%d rows): clustered index %d MiB (all a point select by id reads; %d MiB with its secondary indexes), its hot fifth ~%d MiB; buffer pool %d MiB",
			o.TableSize, r.primary>>20, r.whole>>20, r.primary/5>>20, r.pool>>20)
		if r.poolAsked != "" {
			s += fmt.Sprintf(" for the lesson (%s, set back after)", r.poolAsked)
		}
		switch {
		case r.primary <= r.pool:
			s += ": the clustered index fits in the pool, so uniform access is served from memory too; use a larger --table-size or a smaller --pool-share."
		case r.primary/5 > r.pool:
			s += ": not even the hot fifth fits in the pool; use a larger --pool-share."
		default:
			s += ": the hot fifth fits, the whole does not."
		}
		notes = append(notes, s)
	}
	return notes
}
