package results

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/parquet-go/parquet-go"
)

// RecoveryFile holds the recovery timeline of a run's crash actions: one
// row per node killed per crash action. Only in runs with a crash.
const RecoveryFile = "recovery.parquet"

// Recovery is one row of recovery.parquet: how one node came back after
// a crash action, and the action's timeline (the same on each of its
// rows): when the cluster had a writable node again, when 2 of its N
// nodes were Synced ("minimal HA") and when all were. Nodes the action
// did not kill count as writable and Synced throughout, so that after
// the crash of one node of three the first two are the crash itself.
type Recovery struct {
	RunID  string `parquet:"run_id,dict"`
	Action int32  `parquet:"action"` // the crash action's number, as in actions.parquet
	Spec   string `parquet:"spec"`
	Node   string `parquet:"node,dict,optional"` // the sandbox node's name
	// Endpoint is the node's endpoint, as on execution rows.
	Endpoint string `parquet:"endpoint,dict"`
	// ClusterSize is how many nodes the cluster has (1: a single
	// server); Crashed how many the action killed.
	ClusterSize int32 `parquet:"cluster_size"`
	Crashed     int32 `parquet:"crashed"`
	// CrashTime is when the action killed its first node.
	CrashTime time.Time `parquet:"crash_time,timestamp(nanosecond)"`
	// FirstWritableTime, MinimalHATime and AllSyncedTime are the
	// action's timeline; null when it did not get there (a failed
	// recovery, a single server for the last two).
	FirstWritableTime time.Time `parquet:"first_writable_time,timestamp(nanosecond),optional"`
	MinimalHATime     time.Time `parquet:"minimal_ha_time,timestamp(nanosecond),optional"`
	AllSyncedTime     time.Time `parquet:"all_synced_time,timestamp(nanosecond),optional"`
	// KilledTime is when this node was sent SIGKILL, StartedTime when it
	// was started again on its recovered position.
	KilledTime  time.Time `parquet:"killed_time,timestamp(nanosecond)"`
	StartedTime time.Time `parquet:"started_time,timestamp(nanosecond),optional"`
	// WritableTime and SyncedTime: when the node first accepted writes
	// and was first Synced again.
	WritableTime time.Time `parquet:"writable_time,timestamp(nanosecond),optional"`
	SyncedTime   time.Time `parquet:"synced_time,timestamp(nanosecond),optional"`
	// Method is how it came back: bootstrap, ist, sst or none (null for
	// a single server).
	Method string `parquet:"method,dict,optional"`
	// TransferStartTime and TransferEndTime bound a joiner's state
	// transfer as its error log states them (an incremental one's end to
	// the second).
	TransferStartTime time.Time `parquet:"transfer_start_time,timestamp(nanosecond),optional"`
	TransferEndTime   time.Time `parquet:"transfer_end_time,timestamp(nanosecond),optional"`
	// TransferWritesets is how many write-sets an IST carried;
	// TransferBytes the data a full copy (SST) left on the node.
	TransferWritesets int64 `parquet:"transfer_writesets,optional"`
	TransferBytes     int64 `parquet:"transfer_bytes,optional"`
	// Position is the uuid:seqno read from the node's InnoDB data
	// (--wsrep-recover) before it started again.
	Position string `parquet:"recovered_position,optional"`
}

// Seconds is how long after the crash at was, -1 when it is zero.
func (r Recovery) Seconds(at time.Time) float64 {
	if at.IsZero() {
		return -1
	}
	return at.Sub(r.CrashTime).Seconds()
}

// RecoveryTimeline makes the rows of recovery.parquet from a run's
// actions rows: those that carry a Recovery (crash actions), with each
// action's timeline filled in.
func RecoveryTimeline(actions []Action) []Recovery {
	byAction := map[int32][]Recovery{}
	var order []int32
	for _, a := range actions {
		if a.Recovery == nil {
			continue
		}
		r := *a.Recovery
		r.RunID, r.Action, r.Spec, r.Node, r.Endpoint = a.RunID, a.Action, a.Spec, a.Node, a.Endpoint
		if r.KilledTime.IsZero() {
			r.KilledTime = a.Start
		}
		if _, ok := byAction[a.Action]; !ok {
			order = append(order, a.Action)
		}
		byAction[a.Action] = append(byAction[a.Action], r)
	}
	slices.Sort(order)
	var out []Recovery
	for _, n := range order {
		out = append(out, timeline(byAction[n])...)
	}
	return out
}

// timeline fills in the timeline of one action's rows.
func timeline(rows []Recovery) []Recovery {
	crash := rows[0].KilledTime
	size := int32(0)
	for _, r := range rows {
		if r.KilledTime.Before(crash) {
			crash = r.KilledTime
		}
		size = max(size, r.ClusterSize)
	}
	size = max(size, int32(len(rows)))
	spared := int(size) - len(rows) // nodes not killed: writable and Synced throughout
	firstWritable := nth(rows, 1-spared, func(r Recovery) time.Time { return r.WritableTime }, crash)
	var minimalHA, allSynced time.Time
	if size > 1 {
		minimalHA = nth(rows, 2-spared, func(r Recovery) time.Time { return r.SyncedTime }, crash)
		allSynced = nth(rows, len(rows), func(r Recovery) time.Time { return r.SyncedTime }, crash)
	}
	for i := range rows {
		rows[i].ClusterSize, rows[i].Crashed, rows[i].CrashTime = size, int32(len(rows)), crash
		rows[i].FirstWritableTime, rows[i].MinimalHATime, rows[i].AllSyncedTime = firstWritable, minimalHA, allSynced
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Node < rows[j].Node })
	return rows
}

// nth is the k-th earliest of the rows' times (k from 1): when k of them
// had got there; crash when k < 1 (nodes spared count already), zero when
// fewer than k got there.
func nth(rows []Recovery, k int, at func(Recovery) time.Time, crash time.Time) time.Time {
	if k < 1 {
		return crash
	}
	var ts []time.Time
	for _, r := range rows {
		if t := at(r); !t.IsZero() {
			ts = append(ts, t)
		}
	}
	if len(ts) < k {
		return time.Time{}
	}
	slices.SortFunc(ts, func(a, b time.Time) int { return a.Compare(b) })
	return ts[k-1]
}

// writeRecovery writes recovery.parquet with rows, replacing it
// atomically.
func (d *RunDir) writeRecovery(rows []Recovery) error {
	var buf bytesBuffer
	w := parquet.NewGenericWriter[Recovery](&buf, d.writerOptions()...)
	if _, err := w.Write(rows); err != nil {
		return fmt.Errorf("%s: %w", RecoveryFile, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("%s: %w", RecoveryFile, err)
	}
	return writeAtomic(filepath.Join(d.path, RecoveryFile), buf.b)
}

// ReadRecovery reads a run's recovery.parquet. A run without a crash has
// none and gives no error; an unreadable file is warned about.
func ReadRecovery(dir string, warn Warner) ([]Recovery, error) {
	p := filepath.Join(dir, RecoveryFile)
	if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	var out []Recovery
	_, err := scanFile(p, warn, allColumns[Recovery](), func(r *Recovery) error {
		out = append(out, *r)
		return nil
	})
	return out, err
}
