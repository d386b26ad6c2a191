package replay

import (
	"fmt"
	"io"
	"strings"

	"github.com/joinbench/joinbench/analysis/stall"
)

// writeRecoveries prints the timeline of each crash action in a few
// lines: the cluster's, then how each killed node came back.
func writeRecoveries(w io.Writer, recs []stall.Recovery) {
	if len(recs) == 0 {
		return
	}
	fmt.Fprintln(w, "\nrecovery: seconds after the crash")
	for _, r := range recs {
		if r.ClusterSize < 2 {
			// A single server: no "2 of N", no Synced.
			fmt.Fprintf(w, "action %d (%s): the server killed; writable again %s\n", r.Action, r.Spec, stall.SecondsText(r.WritableSeconds))
			continue
		}
		fmt.Fprintf(w, "action %d (%s): %d of %d node(s) killed; first writable %s, 2 of %d Synced %s, all Synced %s\n",
			r.Action, r.Spec, r.Crashed, r.ClusterSize, stall.SecondsText(r.WritableSeconds), r.ClusterSize,
			stall.SecondsText(r.MinimalHASeconds), stall.SecondsText(r.AllSyncedSeconds))
		var nodes []string
		for _, n := range r.Nodes {
			nodes = append(nodes, fmt.Sprintf("%s writable %s Synced %s (%s)", n.Node, stall.SecondsText(n.WritableSeconds),
				stall.SecondsText(n.SyncedSeconds), n.TransferText()))
		}
		fmt.Fprintf(w, "  %s\n", strings.Join(nodes, "; "))
	}
}
