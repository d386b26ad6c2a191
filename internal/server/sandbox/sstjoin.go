package sandbox

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/joinbench/joinbench/internal/ledger"
	"github.com/joinbench/joinbench/internal/usage"
)

// How a restored node joins the cluster (RestoreOptions.Joins).
const (
	// JoinIST: started on the backup's Galera position, it gets the
	// write-sets since the backup from a donor's write-set cache (an
	// IST) while the cache still holds them; Galera falls back to a full
	// copy (an SST) once it does not.
	JoinIST = "ist"
	// JoinSST: started with its Galera position cleared, it knows no
	// state of its own and a donor sends it everything, by the cluster's
	// SST method (mariabackup), whatever the write-set cache holds: the
	// join a cache too small for the gap since the backup leaves.
	JoinSST = "sst"
)

// CheckJoins refuses a list of joins a restore cannot make: each is ist
// or sst, once; none given is ist.
func CheckJoins(joins []string) error {
	var seen []string
	for _, j := range joins {
		if j != JoinIST && j != JoinSST {
			return usage.Errorf("--join %q: give ist, sst, or both (ist,sst: the join on the backup's position, then a timed rejoin by a full state transfer)", j)
		}
		if slices.Contains(seen, j) {
			return usage.Errorf("--join %s: given twice", j)
		}
		seen = append(seen, j)
	}
	return nil
}

// JoinPlan reads RestoreOptions.Joins (or --join): whether the restored
// node starts on the backup's position (else cleared, an SST), and
// whether an SST rejoin follows that join.
func JoinPlan(joins []string) (onPosition, rejoinSST bool) {
	ist, sst := len(joins) == 0 || slices.Contains(joins, JoinIST), slices.Contains(joins, JoinSST)
	return ist, ist && sst
}

// SSTJoin is the restore's join by a full state transfer, when it made
// and timed one: the rejoin of Joins ist,sst, else its own join when that
// was an SST (Joins sst, or a write-set cache that no longer held the
// gap).
func (r Restore) SSTJoin() (Recovery, bool) {
	for _, j := range []Recovery{r.Rejoin, r.Join} {
		if j.Transfer == TransferSST && j.timed() {
			return j, true
		}
	}
	return Recovery{}, false
}

// ISTJoin is the restore's join on the backup's position, when it was
// timed and not a full state transfer.
func (r Restore) ISTJoin() (Recovery, bool) {
	if !r.Join.timed() || r.Join.Transfer == TransferSST {
		return Recovery{}, false
	}
	return r.Join, true
}

// timed: the join was started and Synced.
func (rec Recovery) timed() bool { return !rec.Started.IsZero() && !rec.Synced.IsZero() }

// JoinSeconds of a join: from its start (the node launched) to Synced.
func (rec Recovery) JoinSeconds() float64 { return spanSeconds(rec.Started, rec.Synced) }

// TransferSeconds is the state transfer's time as the joiner's log
// bounds it; 0 when it had none.
func (rec Recovery) TransferSeconds() float64 {
	return spanSeconds(rec.TransferStart, rec.TransferEnd)
}

// StreamSeconds is the time a full transfer's donor streamed its data, as
// its log bounds it; 0 when it does not say.
func (rec Recovery) StreamSeconds() float64 { return spanSeconds(rec.StreamStart, rec.StreamEnd) }

// spanSeconds is from start to end in seconds; 0 when start is unknown
// or end not after it (not reached).
func spanSeconds(start, end time.Time) float64 {
	if start.IsZero() || end.Before(start) {
		return 0
	}
	return end.Sub(start).Seconds()
}

var (
	// The joiner's log names the donor the group chose for it.
	donorSelected = regexp.MustCompile(`Member \S+ \((\S+)\) requested state transfer from .*Selected \S+ \(([^)]+)\)\(\w+\) as donor`)
	// The donor's SST script stamps its lines with milliseconds: it
	// sleeps a fixed time before it streams, then streams its backup.
	donorStreaming = regexp.MustCompile(`Streaming the backup to joiner at \S+ \((\d{8} \d{2}:\d{2}:\d{2}\.\d{3})\)`)
	donorDone      = regexp.MustCompile(`SST completed on donor \((\d{8} \d{2}:\d{2}:\d{2}\.\d{3})\)`)
)

// donorOf is the donor the joiner's log (since its start) says was
// chosen for its last state transfer; empty when it does not say.
func donorOf(log, joiner string) string {
	donor := ""
	for _, m := range donorSelected.FindAllStringSubmatch(log, -1) {
		if m[1] == joiner {
			donor = m[2]
		}
	}
	return donor
}

// streamOf reads from a donor's log the first backup it streamed to a
// joiner from not long before from on: when it began streaming (after
// its fixed wait) and when its part of the transfer ended; zero when
// its log does not say.
func streamOf(log string, from time.Time) (start, end time.Time) {
	// The joiner's log dates its transfer's start; the donor's script
	// starts about then, its stream some seconds later.
	from = from.Add(-5 * time.Second)
	for _, m := range donorStreaming.FindAllStringSubmatchIndex(log, -1) {
		at := parseLogTime("20060102 15:04:05.000", log[m[2]:m[3]])
		if at.IsZero() || at.Before(from) {
			continue
		}
		d := donorDone.FindStringSubmatch(log[m[1]:])
		if d == nil {
			return time.Time{}, time.Time{}
		}
		if done := parseLogTime("20060102 15:04:05.000", d[1]); !done.Before(at) {
			return at, done
		}
		return time.Time{}, time.Time{}
	}
	return time.Time{}, time.Time{}
}

// donorStream bounds the data streamed to joiner by its full transfer,
// from the log of the donor its own log (since its start) names.
func (c *Cluster) donorStream(joiner, log string, transferStart time.Time) (start, end time.Time) {
	name := donorOf(log, joiner)
	if name == "" || transferStart.IsZero() {
		return time.Time{}, time.Time{}
	}
	if d := c.nodeNamed(name); d != nil {
		return streamOf(readFrom(d.ErrorLog, 0), transferStart)
	}
	return time.Time{}, time.Time{}
}

// RejoinBySST stops node name of the running cluster cleanly and starts
// it again with its Galera position cleared, so that a donor sends it a
// full copy of the data (an SST) whatever its write-set cache holds, and
// waits until it is Synced: Started to Synced is the join, TransferStart
// to TransferEnd the copy as the joiner's log bounds it, TransferBytes
// the data it left. Killed is when the stop began. A node that did not
// join by SST is an error: the measurement would be of something else.
func (c *Cluster) RejoinBySST(ctx context.Context, name string) (Recovery, error) {
	n := c.nodeNamed(name)
	if n == nil {
		return Recovery{}, usage.Errorf("no node %q (the nodes are %s)", name, nodeNames(c.Nodes))
	}
	if !n.Running() {
		return Recovery{}, usage.Errorf("%s is not running (sandbox start it first)", name)
	}
	donor := false
	for _, x := range c.Nodes {
		donor = donor || (x != n && x.Running())
	}
	if !donor {
		return Recovery{}, usage.Errorf("no running node other than %s to send it a full copy", name)
	}
	return c.rejoinBySST(ctx, n)
}

func (c *Cluster) rejoinBySST(ctx context.Context, n *Node) (Recovery, error) {
	rec := Recovery{Node: n.Name, ClusterSize: len(c.Nodes)}
	downDone, err := LedgerOf(c.Dir).Add(ledger.Entry{Kind: ChangeNodeDown, Node: n.Name, What: n.Name + " stopped, to rejoin by a full state transfer",
		Undo: map[string]string{"rebuild": "sst"}})
	if err != nil {
		return rec, err
	}
	fmt.Fprintf(c.log, "%s: stopping it to rejoin by a full state transfer (its Galera position cleared)\n", n.Name)
	rec.Killed = time.Now()
	// From here on the node must come back whatever happens to ctx.
	if err := n.Stop(context.WithoutCancel(ctx)); err != nil {
		return rec, fmt.Errorf("stop %s: %w", n.Name, err)
	}
	if err := clearPosition(n.DataDir); err != nil {
		return rec, err
	}
	n.startPosition = ""
	start, cancel := context.WithTimeout(context.WithoutCancel(ctx), CrashRecoveryTimeout)
	defer cancel()
	if err := c.relaunch(start, n, false, &rec); err != nil {
		return rec, err
	}
	if err := downDone(); err != nil {
		return rec, err
	}
	if rec.Transfer != TransferSST {
		return rec, fmt.Errorf("%s, started with its Galera position cleared, joined by %s, not by a full state transfer (log: %s)", n.Name, rec.Transfer, n.ErrorLog)
	}
	return rec, nil
}

// clearPosition saves no Galera position in datadir: the provider starts
// from nothing and asks a donor for a full copy.
func clearPosition(datadir string) error {
	return saveGrastate(datadir, zeroUUID+":-1")
}

// transferredBytes is the size of the files a full state transfer left
// in a node's data directory, but those its server makes itself at its
// start whatever it was sent: the write-set cache (galera.cache, made at
// its full size), the redo log (ib_logfile*, resized to the server's
// innodb_log_file_size) and the temporary tablespace (ibtmp*). About
// what the donor sent.
func transferredBytes(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || madeAtStart(d.Name()) {
			return nil
		}
		if info, err := d.Info(); err == nil {
			n += info.Size()
		}
		return nil
	})
	return n
}

func madeAtStart(name string) bool {
	return name == "galera.cache" || strings.HasPrefix(name, "ib_logfile") || strings.HasPrefix(name, "ibtmp")
}
