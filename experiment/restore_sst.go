package experiment

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/joinbench/joinbench/internal/server/sandbox"
)

// The restore's join by a full state transfer (--join): each restored
// node joins on the backup's position (ist, an IST while a donor's
// write-set cache holds the write-sets since the backup), with its
// position cleared (sst, a full copy: the join a cache too small for the
// gap leaves), or the first and then, once Synced, a timed rejoin by the
// second (ist,sst): the same node, the same data, the same load, joined
// both ways. The SST's time, size and rate go on the page next to the
// IST's, and into restore-phases.json for the MTTR model (mttr.go).

// sstColumns are the page's columns of the SST joins, after "join (s)".
var sstColumns = []string{"SST join (s)", "SST sent (MB)", "SST (MB/s)"}

// sstJoins are the SST joins of restores.
func sstJoins(restores []sandbox.Restore) []sandbox.Recovery {
	var out []sandbox.Recovery
	for _, r := range restores {
		if j, ok := r.SSTJoin(); ok {
			out = append(out, j)
		}
	}
	return out
}

// sstRate is the data the joins' full copies left per second their
// donors streamed it (of their transfers, when a donor's log did not
// say), in MB; 0 when none was timed.
func sstRate(joins []sandbox.Recovery) float64 {
	var bytes, secs float64
	for _, j := range joins {
		bytes, secs = bytes+float64(j.TransferBytes), secs+cmp.Or(j.StreamSeconds(), j.TransferSeconds())
	}
	if secs <= 0 {
		return 0
	}
	return bytes / 1e6 / secs
}

// addSST adds to the restore page p the SST joins of results: their
// columns next to the join's (when any restore made one), what --join
// did, how to read them, and the SST against the IST in the verdict.
func addSST(p *Page, o Options, results []restoreResult) {
	onPosition, rejoinSST := sandbox.JoinPlan(o.Joins)
	switch {
	case rejoinSST:
		p.What += " --join ist,sst: each restored node joined on the backup's position, then, once Synced, was stopped and started again with its Galera position cleared, so that a donor sent it a full copy (an SST by mariabackup): the same node joined both ways, under the same load."
	case !onPosition:
		p.What += " --join sst: each restored node was started with its Galera position cleared, so that a donor sent it a full copy (an SST by mariabackup), as when its write-set cache no longer holds the writes since the backup."
	}
	var all []sandbox.Recovery
	for _, res := range results {
		all = append(all, sstJoins(res.restores)...)
	}
	if len(all) == 0 {
		return
	}
	at := slices.Index(p.Table.Header, "join (s)") + 1
	if at == 0 {
		at = len(p.Table.Header)
	}
	p.Table.Header = slices.Insert(slices.Clone(p.Table.Header), at, sstColumns...)
	row := 0
	for _, res := range results {
		if len(res.restores) == 0 {
			continue
		}
		cells := []string{"–", "–", "–"}
		if joins := sstJoins(res.restores); len(joins) > 0 {
			var secs, mb []float64
			for _, j := range joins {
				secs, mb = append(secs, j.JoinSeconds()), append(mb, float64(j.TransferBytes)/1e6)
			}
			cells = []string{spread(secs, "%.1f"), spread(mb, "%.0f"), fmt.Sprintf("%.1f", sstRate(joins))}
		}
		if row < len(p.Table.Rows) {
			p.Table.Rows[row] = slices.Insert(slices.Clone(p.Table.Rows[row]), at, cells...)
		}
		row++
	}
	p.Notes = append(p.Notes, "SST join: the node's join by a full state transfer, from its start with its Galera position cleared to Synced (a donor's backup streamed to it by mariabackup, prepared and moved in, then the writes made meanwhile); "+
		"SST sent: the data the copy left (the node's data directory but what its server makes at its start: the redo log, the temporary tablespace, the write-set cache); "+
		"SST MB/s: that over the time the donor streamed it, as the donor's log bounds it (from the end of its SST script's fixed wait to its end; without it, the joiner's transfer, SST started to SST completed, fixed costs included).")
	if v := sstVerdict(results, all); v != "" && p.Verdict != "" {
		p.Verdict += "; " + v
	}
}

// sstVerdict says how long the joins by SST took against those by IST,
// each from the node's start to Synced.
func sstVerdict(results []restoreResult, ssts []sandbox.Recovery) string {
	var ist, sst []float64
	for _, res := range results {
		for _, r := range res.restores {
			if j, ok := r.ISTJoin(); ok {
				ist = append(ist, j.JoinSeconds())
			}
		}
	}
	var mb float64
	for _, j := range ssts {
		sst, mb = append(sst, j.JoinSeconds()), mb+float64(j.TransferBytes)/1e6
	}
	s := fmt.Sprintf("joined by SST (a full copy of %.0f MB at %.1f MB/s) the node took %s s from its start to Synced", mb/float64(len(ssts)), sstRate(ssts), strings.TrimSpace(spread(sst, "%.1f")))
	if len(ist) > 0 {
		s += fmt.Sprintf(", by IST %s s", spread(ist, "%.1f"))
		if m := mean(ist); m > 0 {
			s += fmt.Sprintf(" (%.1fx)", mean(sst)/m)
		}
	}
	return s
}
