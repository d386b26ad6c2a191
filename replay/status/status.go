// Package status samples server counters (SHOW GLOBAL STATUS) during a run
// and turns them into per-interval deltas (and, for a few gauges such as
// Galera's queues, their value at the end of each interval), the Status rows of a run's
// results: how many index and table-scan row reads, full joins, temporary
// tables on disk, sort merges and buffer pool reads a run caused. On a
// Galera node it samples the node's state too (Synced, Donor/Desynced,
// Joining, ...; the cluster's size and status; whether it accepts
// queries), as text, and says when the node did not answer, so that a
// crash and its recovery can be timed from the rows.
//
// Counters are server-wide: other sessions on the same server are counted
// too. A counter that goes down between two samples (FLUSH STATUS, a
// server restart) is reported as its new value, as if it restarted at zero.
//
// It must not write files (package results does) nor decide the sampling
// interval (the engine does).
package status

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/joinbench/joinbench/results"
)

// Counters are the global status variables sampled on every server, in
// the order rows are reported.
var Counters = []string{
	"Handler_read_first", "Handler_read_key", "Handler_read_last", "Handler_read_next",
	"Handler_read_prev", "Handler_read_rnd", "Handler_read_rnd_next",
	"Select_full_join", "Select_full_range_join", "Select_range", "Select_scan",
	"Created_tmp_tables", "Created_tmp_disk_tables",
	"Sort_merge_passes", "Sort_rows",
	"Innodb_buffer_pool_reads", "Innodb_buffer_pool_read_requests", "Innodb_rows_read",
	"Questions",
}

// GaleraCounters are added when the server replicates with Galera (wsrep).
// wsrep_flow_control_paused itself is a fraction of time, not a counter,
// so its nanosecond counter is sampled instead; sent and received flow
// control messages show which node throttles the cluster; certification
// failures and brute-force aborts are the transactions a conflict with
// another node's write-set rolled back.
var GaleraCounters = []string{
	"wsrep_flow_control_paused_ns", "wsrep_flow_control_sent", "wsrep_flow_control_recv",
	"wsrep_local_cert_failures", "wsrep_local_bf_aborts",
}

// GaleraGauges are sampled as they are at the end of each interval (not
// as a change): the write-sets waiting to be applied (receive queue; a
// node whose queue passes its flow control limit pauses the cluster) and
// to be sent, and the members of the cluster the node sees.
var GaleraGauges = []string{"wsrep_local_recv_queue", "wsrep_local_send_queue", "wsrep_cluster_size"}

// GaleraStates are a Galera node's states, sampled as gauges whose text
// is the row's Value and whose Delta is a number: for
// wsrep_local_state_comment (Synced, Donor/Desynced, Joining, Joined,
// ...) wsrep_local_state (4 Synced, 2 Donor/Desynced, 1 Joining, 3
// Joined); for wsrep_cluster_status 1 when Primary (the node is in the
// component that may write), else 0; for wsrep_ready and wsrep_connected
// 1 when ON. A node that does not answer a sample gets the Value
// Unreachable and 0 for each.
var GaleraStates = []string{"wsrep_local_state_comment", "wsrep_cluster_status", "wsrep_ready", "wsrep_connected"}

// Unreachable is the Value of a state sampled from a node that did not
// answer.
const Unreachable = "unreachable"

// localState is the number behind wsrep_local_state_comment.
const localState = "wsrep_local_state"

// Sampler turns successive samples of one server's counters into deltas.
// It is not safe for concurrent use.
type Sampler struct {
	db       *sql.DB
	endpoint string
	runID    string
	names    []string
	gauges   map[string]bool
	states   []string // GaleraStates on a Galera node
	query    string
	// diskQuery reads DiskVariable, when SampleDisk asked for it (disk.go).
	diskQuery string

	prev     map[string]int64
	prevTime time.Time
}

// NewSampler samples db, labelling rows with endpoint and runID. With
// galera, GaleraCounters are sampled too.
func NewSampler(db *sql.DB, endpoint, runID string, galera bool) *Sampler {
	names := append([]string(nil), Counters...)
	gauges := map[string]bool{}
	var states []string
	if galera {
		names = append(names, GaleraCounters...)
		names = append(names, GaleraGauges...)
		for _, g := range GaleraGauges {
			gauges[g] = true
		}
		states = GaleraStates
	}
	var quoted []string
	for _, n := range slices.Concat(names, states) {
		quoted = append(quoted, "'"+n+"'")
	}
	if galera {
		quoted = append(quoted, "'"+localState+"'")
	}
	return &Sampler{
		db: db, endpoint: endpoint, runID: runID, names: names, gauges: gauges, states: states,
		query: "SHOW GLOBAL STATUS WHERE Variable_name IN (" + strings.Join(quoted, ",") + ")",
	}
}

// Names are the counters and states this sampler reports.
func (s *Sampler) Names() []string { return slices.Concat(s.names, s.states) }

// Sample reads the counters and returns their change since the previous
// call, one row per counter the server has, timed now. The first call only
// sets the baseline and returns no rows.
func (s *Sampler) Sample(ctx context.Context, now time.Time) ([]results.Status, error) {
	cur, text, err := s.read(ctx)
	if err != nil {
		return nil, err
	}
	prev, prevTime := s.prev, s.prevTime
	s.prev, s.prevTime = cur, now
	if prev == nil {
		return nil, nil
	}
	interval := now.Sub(prevTime).Seconds()
	out := make([]results.Status, 0, len(s.names)+len(s.states))
	for _, name := range s.states {
		v, ok := text[strings.ToLower(name)]
		if !ok {
			continue
		}
		out = append(out, results.Status{
			RunID: s.runID, Endpoint: s.endpoint, Time: now, Interval: interval,
			Variable: name, Delta: stateNumber(name, v, cur), Gauge: true, Value: v,
		})
	}
	for _, name := range s.names {
		c, ok := cur[strings.ToLower(name)]
		if !ok {
			continue
		}
		if s.gauges[name] {
			out = append(out, results.Status{
				RunID: s.runID, Endpoint: s.endpoint, Time: now, Interval: interval,
				Variable: name, Delta: c, Gauge: true,
			})
			continue
		}
		p, ok := prev[strings.ToLower(name)]
		if !ok {
			continue
		}
		d := c - p
		if d < 0 { // reset by FLUSH STATUS or a restart
			d = c
		}
		out = append(out, results.Status{
			RunID: s.runID, Endpoint: s.endpoint, Time: now, Interval: interval,
			Variable: name, Delta: d,
		})
	}
	return append(out, s.sampleDisk(ctx, now, interval)...), nil
}

// Unreachable returns the rows of a sample the server did not answer at
// now: each state Unreachable (none on a server without states). The
// counters' next change is measured from the last sample answered.
func (s *Sampler) Unreachable(now time.Time) []results.Status {
	interval := 0.0
	if !s.prevTime.IsZero() {
		interval = now.Sub(s.prevTime).Seconds()
	}
	var out []results.Status
	for _, name := range s.states {
		out = append(out, results.Status{RunID: s.runID, Endpoint: s.endpoint, Time: now, Interval: interval,
			Variable: name, Gauge: true, Value: Unreachable})
	}
	return out
}

// stateNumber is the Delta of a state's row (GaleraStates).
func stateNumber(name, value string, nums map[string]int64) int64 {
	switch name {
	case "wsrep_local_state_comment":
		return nums[localState]
	case "wsrep_cluster_status":
		return boolNumber(strings.EqualFold(value, "Primary"))
	default:
		return boolNumber(strings.EqualFold(value, "ON"))
	}
}

func boolNumber(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// read returns the values of the sampled variables: numbers, and the text
// of the states, by lower-case name.
func (s *Sampler) read(ctx context.Context) (map[string]int64, map[string]string, error) {
	rows, err := s.db.QueryContext(ctx, s.query)
	if err != nil {
		return nil, nil, fmt.Errorf("SHOW GLOBAL STATUS: %w", err)
	}
	defer rows.Close()
	vals := make(map[string]int64, len(s.names))
	var text map[string]string
	for rows.Next() {
		var name, value string
		if err := rows.Scan(&name, &value); err != nil {
			return nil, nil, fmt.Errorf("SHOW GLOBAL STATUS: %w", err)
		}
		name = strings.ToLower(name)
		if s.isState(name) {
			if text == nil {
				text = map[string]string{}
			}
			text[name] = strings.TrimSpace(value)
			continue
		}
		v, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		if err != nil {
			continue // not a counter on this server
		}
		vals[name] = v
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("SHOW GLOBAL STATUS: %w", err)
	}
	return vals, text, nil
}

// isState reports whether lower-case name is one of the sampler's states.
func (s *Sampler) isState(name string) bool {
	for _, st := range s.states {
		if strings.EqualFold(st, name) {
			return true
		}
	}
	return false
}
