package stall

import (
	"cmp"
	"fmt"
	"time"

	"github.com/joinbench/joinbench/results"
)

// Recovery is the timeline of one crash action, in seconds after the
// crash (recovery.parquet reduced): what the run's summary and report
// show of it. A time the recovery did not reach is null.
type Recovery struct {
	Action      int32  `json:"action"`
	Spec        string `json:"spec"`
	ClusterSize int32  `json:"cluster_size"`
	Crashed     int32  `json:"crashed"`
	// WritableSeconds is the time to the first writable node,
	// MinimalHASeconds to 2 of ClusterSize Synced, AllSyncedSeconds to
	// every node Synced.
	WritableSeconds  *float64       `json:"writable_s"`
	MinimalHASeconds *float64       `json:"minimal_ha_s"`
	AllSyncedSeconds *float64       `json:"all_synced_s"`
	Nodes            []NodeRecovery `json:"nodes"`
}

// NodeRecovery is how one killed node came back, in seconds after the
// crash.
type NodeRecovery struct {
	Node   string `json:"node"`
	Method string `json:"method,omitempty"` // bootstrap, ist, sst or none
	// StartedSeconds is when it was started again, its position
	// recovered; TransferStartSeconds when its state transfer began.
	StartedSeconds       *float64 `json:"started_s,omitempty"`
	TransferStartSeconds *float64 `json:"transfer_start_s,omitempty"`
	WritableSeconds      *float64 `json:"writable_s"`
	SyncedSeconds        *float64 `json:"synced_s"`
	// TransferSeconds is how long its state transfer took; Writesets
	// and Bytes what it carried (see recovery.parquet).
	TransferSeconds *float64 `json:"transfer_s,omitempty"`
	Writesets       int64    `json:"transfer_writesets,omitempty"`
	Bytes           int64    `json:"transfer_bytes,omitempty"`
}

// Recoveries reduces recovery.parquet's rows to one timeline per crash
// action, in action order.
func Recoveries(rows []results.Recovery) []Recovery {
	var out []Recovery
	for _, r := range rows {
		if len(out) == 0 || out[len(out)-1].Action != r.Action {
			out = append(out, Recovery{Action: r.Action, Spec: r.Spec, ClusterSize: r.ClusterSize, Crashed: r.Crashed,
				WritableSeconds: after(r.CrashTime, r.FirstWritableTime), MinimalHASeconds: after(r.CrashTime, r.MinimalHATime),
				AllSyncedSeconds: after(r.CrashTime, r.AllSyncedTime)})
		}
		n := NodeRecovery{Node: cmp.Or(r.Node, r.Endpoint), Method: r.Method, StartedSeconds: after(r.CrashTime, r.StartedTime),
			TransferStartSeconds: after(r.CrashTime, r.TransferStartTime), WritableSeconds: after(r.CrashTime, r.WritableTime),
			SyncedSeconds: after(r.CrashTime, r.SyncedTime), Writesets: r.TransferWritesets, Bytes: r.TransferBytes}
		if !r.TransferStartTime.IsZero() {
			n.TransferSeconds = after(r.TransferStartTime, r.TransferEndTime)
		}
		out[len(out)-1].Nodes = append(out[len(out)-1].Nodes, n)
	}
	return out
}

// after is how long after from at was, in seconds to the millisecond;
// nil when at is zero.
func after(from, at time.Time) *float64 {
	if at.IsZero() {
		return nil
	}
	s := float64(at.Sub(from).Milliseconds()) / 1e3
	return &s
}

// SecondsText is s in seconds, or "-" when it was not reached.
func SecondsText(s *float64) string {
	if s == nil {
		return "-"
	}
	return fmt.Sprintf("%.1f", *s)
}

// TransferText says how a node came back: its method and, for a state
// transfer, how long it took and what it carried.
func (n NodeRecovery) TransferText() string {
	out := cmp.Or(n.Method, "restart")
	if n.TransferSeconds != nil {
		out += fmt.Sprintf(" %.1fs", *n.TransferSeconds)
	}
	switch {
	case n.Bytes > 0:
		out += fmt.Sprintf(" %.1f MB", float64(n.Bytes)/1e6)
	case n.Writesets > 0:
		out += fmt.Sprintf(" %d write-sets", n.Writesets)
	}
	return out
}
