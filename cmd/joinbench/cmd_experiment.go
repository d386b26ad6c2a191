package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/joinbench/joinbench/experiment"
	"github.com/joinbench/joinbench/internal/usage"
)

// experimentCmd runs one lesson on a running sandbox and writes its page.
type experimentCmd struct {
	connFlags `embed:""`

	Lesson string `arg:"" enum:"slow-node,ddl-methods,chunked-dml,hot-vs-uniform,recovery,restore" help:"The lesson: slow-node, ddl-methods, chunked-dml, hot-vs-uniform, recovery or restore."`

	Out         string        `default:"./results" type:"path" group:"Output" placeholder:"DIR" help:"Results folder: the lesson's runs go to DIR/run=<id>/, its page to DIR/LESSON.md and DIR/LESSON.html."`
	Threads     int           `short:"t" default:"6" group:"Load" help:"Worker threads of every run, spread round-robin over the nodes."`
	TableSize   int64         `group:"Load" help:"Rows of main1, the table the workload reads and writes (prepared when the server does not hold it already); default 20000, hot-vs-uniform 1000000 (a clustered index of ~400 MiB, twice its buffer pool)."`
	Seed        uint64        `default:"1" group:"Load" help:"Seed of the rows and of the parameter values."`
	Warmup      time.Duration `default:"5s" group:"Load" help:"Unmeasured workload before each run's measured phase."`
	Window      time.Duration `default:"10s" group:"Load" help:"Length of each quiet window before an action (and of a slow-node throttle, and of a hot-vs-uniform run)."`
	Repetitions int           `default:"5" group:"Load" help:"Repetitions of each slow-node throttle, of each hot-vs-uniform pair and of each restore, for the interval of the change (restore: the range)."`

	Percent         []float64     `default:"20" group:"slow-node" placeholder:"PCT,..." help:"How much slower the node is made, in percent of its own rate (0: an A/A check of the lesson); several, e.g. 0,10,21,40: the dose response, the cluster's slowdown against the node's at each."`
	Resource        string        `default:"io" enum:"io,cpu" group:"slow-node" help:"What is throttled: io (disk) or cpu."`
	Node            string        `default:"node3" group:"slow-node" help:"The node made slower (slow-node), crashed alone (recovery), or restored (restore)."`
	WritePercent    []int         `default:"0,10,50" group:"hot-vs-uniform" placeholder:"PCT,..." help:"Shares of writes (point_update among point_select) to measure hot against uniform at (50: the reference's 50/50 mix)."`
	ReadIOPS        int64         `name:"read-iops" default:"250" group:"hot-vs-uniform" placeholder:"N" help:"The server's disk reads held at N a second for the lesson (a cgroup limit, as the slow action's, lifted after): a disk of a given speed, so that a buffer-pool miss costs what it costs on a node whose data is far larger than its memory; 250 keeps the uniform runs waiting for the disk even when the machine's CPU is busy. 0: no cap."`
	FlushMethod     string        `default:"O_DIRECT" group:"hot-vs-uniform" placeholder:"METHOD" help:"innodb_flush_method the server runs the lesson with: a single-server sandbox is restarted with it, then with its own options again (noted in its ledger first). O_DIRECT: a miss is a disk read, not one the page cache serves. Empty: left as it is."`
	PoolShare       float64       `default:"0.5" group:"hot-vs-uniform" placeholder:"SHARE" help:"The buffer pool for the lesson, as a share of main1's clustered index (all a point select by id reads): 0.5 holds the hot fifth, not the whole; set online and set back after. --buffer-pool-size, when given, wins. 0: left as it is."`
	Rows            int64         `default:"100000" group:"ddl-methods and chunked-dml" help:"Rows of the table big, which the schema change and the DELETEs work on."`
	ActionTime      time.Duration `default:"30s" group:"ddl-methods and chunked-dml" help:"How long each action is given (the run lasts --window plus this; recovery: 90s at least): an action still running then is stopped."`
	UseMemory       []string      `default:"100M,2G" group:"restore" placeholder:"SIZE" help:"mariabackup --prepare --use-memory values: --node is restored once per value and repetition."`
	BackupThrottle  int           `group:"restore" placeholder:"IOPS" help:"mariabackup --backup --throttle: the backup's copy limited to IOPS operations of 1 MB a second, so that it lasts and the redo written meanwhile accumulates (0: unthrottled)."`
	BackupWriters   int           `group:"restore" placeholder:"N" help:"Threads rewriting the lesson's own table restore_burst (20000 rows of 4000 bytes) in chunks of 1000 rows on the backed-up node while the backup runs: the redo the prepare applies (0: none)."`
	OneBackup       bool          `group:"restore" help:"One backup per repetition, prepared with every --use-memory value (on copies, the order rotating), the last restored: the values compared on the same redo."`
	PrepareDirect   bool          `group:"restore" help:"The prepares read pages with O_DIRECT (mariabackup --innodb-flush-method), past the operating system's cache, as on a server whose data is far larger than its memory."`
	PrepareReadIOPS int64         `name:"prepare-read-iops" group:"restore" placeholder:"N" help:"Each prepare's disk reads held at N a second (a cgroup limit on the prepare alone, noted in the sandbox's ledger, lifted when it ends; implies --prepare-direct): a disk of a given speed, where every page --use-memory misses is a read at a fixed budget, as on a node whose data is far larger than its memory. 0: no cap."`
	Join            []string      `default:"ist" group:"restore" placeholder:"JOIN" help:"How each restored node joins: ist, on the backup's position (an IST while a donor's write-set cache holds the writes since the backup); sst, with its Galera position cleared, so that a donor sends it a full copy (the join a cache too small for the gap leaves); ist,sst, the first, then, once Synced, a timed rejoin by SST: both joins of the same node, and the SST's rate for the MTTR model."`

	ProjectSize      string   `group:"restore" placeholder:"SIZE" help:"Project the recovery of a node of this data size from the measured rates (10T, 500G; K, M, G, T are powers of 1024): each phase, the one that dominates, 2 of 3 against all Synced, what more --use-memory saves."`
	ProjectWriteRate string   `group:"restore" placeholder:"RATE" help:"The write rate of the projection, in redo bytes per second (30MB/s: the growth of Innodb_lsn_current per second); default: the rate measured."`
	Validate         string   `group:"restore" type:"path" placeholder:"FILE" help:"The restore-phases.json of a restore lesson at another dataset size (or its folder): the larger's phases are predicted from the smaller's rates (from several --rates-from files, its phases from the rates fitted over them) and the error per phase paged; beyond 30% the page says the projection missed."`
	RatesFrom        []string `group:"restore" type:"path" placeholder:"FILE" help:"Project (and --validate) from the restore-phases.json of an earlier restore lesson (or its folder) without running the lesson: no --sandbox. Repeatable: from lessons at dataset sizes at least 1.5x apart, each phase is fitted as a fixed part plus a rate."`
}

func (c *experimentCmd) Help() string {
	return `Runs one lesson on the running named sandbox given by --sandbox (a Galera
cluster for slow-node, ddl-methods, recovery and restore: joinbench sandbox start
--name g --galera 3): its tables are prepared when missing, every action gets
a quiet window of the same workload before it and is measured against that
window, and the lesson's page (its table and a verdict in words; the HTML page
with its runs as pictures beside the table) is written to DIR/LESSON.md and
DIR/LESSON.html, its table printed. The runs are kept in
DIR/run=<id>/ for report and compare. Without --sandbox it refuses: the
lessons throttle, crash and restart the nodes of a sandbox it does not start.

Lessons:
  slow-node       --node made --percent slower on --resource for --window,
                  --repetitions times: throughput per node and for the cluster
                  against the quiet window before each throttle (with its 95%
                  interval and the A/A noise of the quiet windows), flow control
                  per node. With several --percent values (0,10,21,40) the
                  throttles of every value are interleaved in rounds, and the
                  page gives, per value, the cluster's slowdown against the
                  node's own, with intervals, as a table and a plot beside
                  the line cluster = node, and whether the one tracks the
                  other. Windows are timed from the workload's first
                  execution; one without quiet traffic on every node is
                  named and left out of every column.
  ddl-methods     the table big rebuilt by TOI, by RSU node after node, and by
                  pt-online-schema-change when installed, each in its own run:
                  longest stall, throughput in the action's window, flow control.
  chunked-dml     half of big deleted by one DELETE and in chunks of 5000 rows.
  hot-vs-uniform  point_select and point_update by primary key, hot (hotspot)
                  against uniform at each --write-percent, --repetitions
                  pairs each, on main1 of 1,000,000 rows by default, in a
                  regime where a buffer-pool miss is a disk read: the
                  sandbox's server run with --flush-method (O_DIRECT: no
                  page cache between InnoDB and its disk; restarted with it
                  when it runs with another), its buffer pool
                  --pool-share of main1's clustered index (the hot fifth
                  fits, the whole does not), its reads held at --read-iops;
                  all set back after, also after a kill (by the next
                  command). The page gives hot against uniform per share
                  with its interval and whether the gap shrinks as writes
                  grow.
  recovery        --node crashed (SIGKILL), then every node, each in its own
                  run: time to the first writable node, 2 of 3 Synced, all
                  Synced, IST or SST per node.
  restore         --node rebuilt from a mariabackup backup taken under a write
                  load on the other nodes, once per --use-memory value and
                  repetition: the backup, prepare (redo apply), copy and join
                  timed, the redo's share of the restore, IST or SST. With
                  --backup-throttle and --backup-writers the backup lasts
                  under heavy writes and its redo outgrows --use-memory (the
                  starved prepare); with --one-backup every value prepares
                  the same backup; with --prepare-read-iops the prepares
                  read from a disk of that many reads a second, so that
                  a page --use-memory misses costs a read. --join ist,sst
                  times the same node's join by a full state transfer too
                  (restarted with its Galera position cleared), its
                  seconds, size and MB/s next to the IST's. Each restore
                  starts a --window after
                  the workload's first execution; one whose window had no
                  traffic is named and not judged.
                  DIR/restore-phases.json gets its phases. --project-size
                  (and --project-write-rate) project from its rates the
                  recovery of a node of that size: each phase, the one that
                  dominates, 2 of 3 against all Synced, what more
                  --use-memory saves, and, when an SST was measured, the
                  join and the rebuild had the join been an SST.
                  --validate FILE (the phases of
                  another dataset size) predicts the larger's phases from
                  the smaller's rates and pages the error per phase, saying
                  so beyond 30%. --rates-from FILE projects from earlier
                  phases without running the lesson (no --sandbox); given
                  files of sizes 1.5x apart, each phase is fitted as a fixed
                  part plus a rate, and --validate checks the fit.

Every page says how many windows (pairs of runs, crashes, restores,
methods) were judged of how many were planned. Ctrl-C or SIGTERM stops the
lesson, sets back what it changed, writes the page of what was measured,
marked interrupted and without a verdict, and exits 130; a lesson that
judged nothing exits 1.

See docs/experiments.md for how to read each page.

Examples:
  joinbench sandbox start --name g --galera 3 --buffer-pool-size 128M
  joinbench experiment slow-node --sandbox g --percent 20 --resource io --node node3
  joinbench experiment slow-node --sandbox g --percent 0      # the A/A check
  joinbench experiment slow-node --sandbox g --percent 0,10,21,40 --repetitions 3
  joinbench experiment ddl-methods --sandbox g --rows 200000
  joinbench sandbox start --name s
  joinbench experiment hot-vs-uniform --sandbox s
  joinbench experiment hot-vs-uniform --sandbox s --read-iops 0   # the disk as it is
  joinbench experiment restore --sandbox g --use-memory 100M,2G --repetitions 2
  joinbench experiment restore --sandbox g --use-memory 32M,100M,512M,2G --backup-throttle 2 --backup-writers 3 --one-backup --prepare-direct
  joinbench experiment restore --sandbox g --use-memory 32M,2G --backup-throttle 2 --backup-writers 3 --one-backup --prepare-read-iops 250
  joinbench experiment restore --sandbox g --use-memory 2G --join ist,sst --table-size 300000
  joinbench experiment restore --rates-from results/restore-phases.json --project-size 10T --project-write-rate 30MB/s
  joinbench experiment restore --rates-from small --rates-from mid --validate large --project-size 10T`
}

func (c *experimentCmd) Run(ctx context.Context, cl *cli) error {
	if len(c.RatesFrom) > 0 {
		return c.project(cl)
	}
	if c.Sandbox == "" {
		return usage.Errorf("experiment needs a running sandbox: start one (joinbench sandbox start --name g --galera 3) and give --sandbox g")
	}
	log := logWriter(cl)
	bufferPool := ""
	if c.Lesson == "hot-vs-uniform" && c.bufferPoolGiven {
		// The lesson sizes the pool itself, once its server runs with the
		// flush method it restarts it with (a restart would undo a size
		// set now).
		bufferPool, c.bufferPoolGiven = c.BufferPoolSize, false
	}
	tgt, err := c.connect(ctx, log)
	if err != nil {
		return err
	}
	defer tgt.Close()
	o := experiment.Options{
		Out: c.Out, Threads: c.Threads, TableSize: c.TableSize, Seed: c.Seed, Warmup: c.Warmup, Window: c.Window,
		Repetitions: c.Repetitions, Percents: c.Percent, Resource: c.Resource, Node: c.Node, WritePercents: c.WritePercent,
		FlushMethod: c.FlushMethod, ReadIOPS: c.ReadIOPS, PoolShare: c.PoolShare, BufferPool: bufferPool,
		Rows: c.Rows, ActionTime: c.ActionTime, UseMemory: c.UseMemory, BackupThrottle: c.BackupThrottle, BackupWriters: c.BackupWriters, OneBackup: c.OneBackup, PrepareDirect: c.PrepareDirect, PrepareReadIOPS: c.PrepareReadIOPS, Joins: c.Join, SandboxDir: c.SandboxDir, ToolVersion: version, Log: log,
	}
	c.projection(&o)
	if !cl.Quiet {
		o.Progress = os.Stderr
	}
	page, err := experiment.Run(ctx, c.Lesson, tgt, o)
	if err != nil {
		return err
	}
	if err := c.show(page, log); err != nil {
		return err
	}
	// Nothing judged is no answer: the page says why, the exit status
	// too (130 when it was interrupted, as every command).
	return page.Err()
}

// projection passes the restore's projection flags on.
func (c *experimentCmd) projection(o *experiment.Options) {
	o.ProjectSize, o.ProjectWriteRate, o.Validate, o.RatesFrom = c.ProjectSize, c.ProjectWriteRate, c.Validate, c.RatesFrom
}

// project pages the restore's projection from measured phases
// (--rates-from), with no sandbox.
func (c *experimentCmd) project(cl *cli) error {
	if c.Lesson != "restore" {
		return usage.Errorf("--rates-from: only the restore lesson projects a recovery")
	}
	if c.Sandbox != "" || len(c.DSN) > 0 {
		return usage.Errorf("--rates-from projects from measured phases without running the lesson: give it without --sandbox or --dsn")
	}
	o := experiment.Options{Out: c.Out, ToolVersion: version}
	c.projection(&o)
	page, err := experiment.ProjectRestore(o)
	if err != nil {
		return err
	}
	return c.show(page, logWriter(cl))
}

// show writes the page's files into --out, prints it as text and says
// where its files are.
func (c *experimentCmd) show(page *experiment.Page, log io.Writer) error {
	paths, err := page.Write(c.Out)
	if err != nil {
		return err
	}
	if err := page.WriteText(os.Stdout); err != nil {
		return err
	}
	fmt.Fprintf(log, "page: %v\n", paths)
	return nil
}
