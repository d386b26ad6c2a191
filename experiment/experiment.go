package experiment

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/usage"
)

// Options are what every lesson shares, and each lesson's own knobs.
type Options struct {
	// Out is the results folder: the runs go to Out/run=<id>/, the page
	// to Out/LESSON.md and Out/LESSON.html.
	Out         string
	Threads     int
	TableSize   int64 // rows of main1, the table the workload reads and writes
	Seed        uint64
	Warmup      time.Duration // unmeasured, before each run
	Window      time.Duration // each quiet window, and each slow-node throttle
	Repetitions int           // of each action, each with its own quiet window
	// slow-node: how much slower, on which resource, which node; several
	// percentages make a dose response.
	Percents []float64
	Resource string
	Node     string
	// hot-vs-uniform: the shares of writes to measure at, and the regime
	// it measures in (hot_regime.go): the server's innodb_flush_method
	// ("": left as it is), its reads capped at ReadIOPS operations a
	// second (0: no cap), its buffer pool BufferPool when given, else
	// PoolShare of main1's clustered index (0: left as it is).
	WritePercents []int
	FlushMethod   string
	ReadIOPS      int64
	PoolShare     float64
	BufferPool    string
	// ddl-methods and chunked-dml: rows of the table they change, and the
	// longest an action is given.
	Rows       int64
	ActionTime time.Duration
	// restore: mariabackup --prepare's --use-memory values, and where the
	// named sandbox lives (to reach its nodes' data directories).
	UseMemory  []string
	SandboxDir string
	// restore: the backup's mariabackup --throttle (I/O operations of
	// 1 MB a second, 0: none) and the threads that rewrite main1 on the
	// backed-up node while it runs: a long backup under heavy writes,
	// whose redo outgrows --use-memory (the starved prepare).
	BackupThrottle int
	BackupWriters  int
	// OneBackup: one backup per repetition, prepared with every
	// --use-memory value (on copies, in an order that rotates), the last
	// restored: the values compared on the same redo.
	OneBackup bool
	// PrepareDirect: the prepares read pages with O_DIRECT, past the
	// operating system's cache.
	PrepareDirect bool
	// PrepareReadIOPS: each prepare's disk reads held at that many a
	// second (a cgroup limit, lifted when it ends; implies O_DIRECT): a
	// disk of a given speed, where a page --use-memory misses is a read
	// at a fixed budget. 0: no cap.
	PrepareReadIOPS int64
	// Joins: how each restored node joins (sandbox.JoinIST, JoinSST):
	// ist on the backup's position; sst with its position cleared, a
	// full state transfer; ist,sst the one, then a timed rejoin by the
	// other (restore_sst.go). Empty: ist.
	Joins []string
	// restore's MTTR model (mttr.go): the size and write rate to project
	// the recovery at (10T, 30MB/s), the phases of another dataset size
	// to validate the model against, and the phases to project from
	// instead of running the lesson (several files: the rates fitted over
	// their sizes, mttr_fit.go).
	ProjectSize, ProjectWriteRate, Validate string
	RatesFrom                               []string

	ToolVersion string
	Log         io.Writer // what is being done, one line each
	Progress    io.Writer // the runs' progress lines; nil for none
}

// Lesson is one experiment.
type Lesson struct {
	Name    string
	Summary string
	// Cluster: the lesson needs a Galera cluster sandbox.
	Cluster bool
	run     func(ctx context.Context, e *env) (*Page, error)
	// unit is what the lesson judges, in the plural, and plan how many
	// of them it sets out to judge with the options: its page's tally.
	unit string
	plan func(o Options) int
	// tableSize is the rows of main1 when --table-size is not given
	// (0: DefaultTableSize).
	tableSize int64
}

// DefaultTableSize is the rows of main1 of a lesson that sets no size of
// its own.
const DefaultTableSize = 20000

// HotTableSize is hot-vs-uniform's main1: its clustered index (~400 MiB)
// several times the buffer pool the lesson gives it, its hot fifth not.
const HotTableSize = 1000000

// Lessons are the experiments, in the order the help lists them.
func Lessons() []Lesson {
	return []Lesson{
		{Name: "slow-node", Cluster: true, run: slowNode, unit: "windows", plan: func(o Options) int { return max(len(o.Percents), 1) * repetitions(o) },
			Summary: "a node made --percent slower on --resource for a window, against the quiet window before it: throughput per node and cluster, flow control per node; several percentages: the cluster's slowdown against the node's"},
		{Name: "ddl-methods", Cluster: true, run: ddlMethods, unit: "methods", plan: func(Options) int { return len(ddlMethodNames()) },
			Summary: "the same table rebuilt by TOI, by RSU node after node and by pt-online-schema-change (when installed): stall, throughput in the action's window, flow control"},
		{Name: "chunked-dml", run: chunkedDML, unit: "methods", plan: func(Options) int { return 2 },
			Summary: "one large DELETE against the same DELETE in chunks of 5000 rows: stall, throughput in the action's window, flow control"},
		{Name: "hot-vs-uniform", run: hotVsUniform, unit: "pairs of runs", plan: func(o Options) int { return len(o.WritePercents) * repetitions(o) }, tableSize: HotTableSize,
			Summary: "point reads and writes by primary key, hot (a fifth of the rows gets 80% of the accesses) against uniform, at each --write-percent, on a server whose buffer-pool misses are disk reads at --read-iops"},
		{Name: "recovery", Cluster: true, run: recovery, unit: "crashes", plan: func(Options) int { return len(recoveryCrashes) },
			Summary: "one node crashed, then all three: time to the first writable node, to 2 of 3 Synced, to all Synced, and IST or SST per joiner"},
		{Name: "restore", Cluster: true, run: restore, unit: "restores", plan: func(o Options) int { return len(o.UseMemory) * repetitions(o) },
			Summary: "--node restored from a backup taken under a write load, once per --use-memory: the redo apply's time and its share of the whole restore, IST or SST"},
	}
}

// repetitions is how many times a lesson repeats each of its windows.
func repetitions(o Options) int { return max(o.Repetitions, 1) }

// LessonNames are the lessons' names, for the command's enum.
func LessonNames() []string {
	var names []string
	for _, l := range Lessons() {
		names = append(names, l.Name)
	}
	return names
}

// Run runs the lesson named on the target and returns its page (not yet
// written).
func Run(ctx context.Context, name string, tgt *server.Target, o Options) (*Page, error) {
	i := slices.IndexFunc(Lessons(), func(l Lesson) bool { return l.Name == name })
	if i < 0 {
		return nil, usage.Errorf("no lesson %q: one of %s", name, strings.Join(LessonNames(), ", "))
	}
	l := Lessons()[i]
	if o.TableSize == 0 {
		o.TableSize = cmp.Or(l.tableSize, DefaultTableSize)
	}
	if err := check(name, tgt, o); err != nil {
		return nil, err
	}
	if l.Cluster && (tgt.Sandbox == nil || tgt.Sandbox.Nodes < 2) {
		return nil, usage.Errorf("%s needs a Galera cluster sandbox: joinbench sandbox start --name g --galera 3, then --sandbox g", name)
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	e := &env{tgt: tgt, o: o, lesson: name, stamp: time.Now().UTC().Format("20060102-150405")}
	p, err := l.run(ctx, e)
	if err != nil && ctx.Err() == nil {
		return nil, fmt.Errorf("experiment %s: %w", name, err)
	}
	if err != nil {
		// Interrupted before the lesson had figures to page: the page
		// still says so, and names the runs it made.
		if !slices.Contains(e.cut, err.Error()) {
			e.interrupted(ctx, err)
		}
		p = &Page{Title: name + ": interrupted", What: fmt.Sprintf("The lesson %s was interrupted before it had measured anything it could judge.", name)}
	}
	p.Lesson, p.Runs = name, e.runs
	for _, c := range e.cut {
		p.Notes = append(p.Notes, "when it was interrupted: "+c)
	}
	p.settle(Tally{Unit: l.unit, Planned: l.plan(o), Judged: p.Tally.Judged, Interrupted: ctx.Err() != nil})
	return p, nil
}
